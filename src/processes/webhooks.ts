import type { CommandDeps } from '../commands/context.js';
import { formatPosition, type RecordedEvent } from '../eventstore/port.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { projector } from '../projections/projector.js';
import { recoveryRunner } from './webhook-recovery.js';
import { registerWorkflow } from './workflow-runner.js';
import { DeliverySender } from './webhook-sender.js';
import { FanoutBatcher } from './webhook-fanout.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';
import { SOURCES } from '../domain/webhook-sources.js';
import { suppliersNamedBy, type WebhookListeners } from './webhook-listeners.js';
import { LISTEN_LEASE_MS } from '../domain/webhook-listen-session.js';
import { endListenSession } from '../commands/webhook-listen.js';

export { MAX_ATTEMPTS } from './webhook-sender.js';
export { WEBHOOK_RETRY_LADDER_MS as RETRY_LADDER_MS } from '../domain/contract-timings.js';
export const LOG_RETENTION_MS = 30 * 24 * 3600_000;

/**
 * Every event a webhook can come from becomes one fan-out timer, recorded with this
 * process's checkpoint; with `listeners`, not the events that name only suppliers that
 * never had an endpoint.
 */
export const webhookProcess = (listeners?: WebhookListeners) =>
  projector({
    name: 'webhook-process',
    version: 1,
    tables: [],
    ddl: () => '',
    rebuildable: false,
    handlers: {
      ...Object.fromEntries(
        Object.keys(SOURCES).map((type) => [
          type,
          async (db, e: RecordedEvent) => {
            const named = suppliersNamedBy(e);
            if (listeners && named && !(await listeners.mayListen(db, named))) return undefined;
            return scheduleTimer('webhook.fanout', e.id, e.createdAt, { position: formatPosition(e.position) });
          },
        ]),
      ),
      // a session's lease is looked at when it would end: a session nobody polls ends by itself
      WebhookListenSessionOpened: async (_db, e: RecordedEvent) => {
        const { sessionId, at } = e.data as { sessionId: string; at: string };
        return scheduleTimer('webhook.listen-lease', sessionId, new Date(Date.parse(at) + LISTEN_LEASE_MS), {});
      },
    },
  });

/**
 * The webhook process's timer kinds, and its two batch workers polled with the timers: the
 * fan-out (claims its timers in batches, and hands what it makes to this instance's sender
 * as far as it has room) and the sender (claims due deliveries from their own table).
 * Fan-out first, so one poll (one round of a drain) also sends what it made.
 */
export const registerWebhookTimers = (timers: Timers, deps: CommandDeps, projections: ProjectionRunner) => {
  const sender = new DeliverySender(deps, timers.log, () => timers.wake());
  timers.attach(new FanoutBatcher(deps, projections, timers.log, () => timers.wake(), sender));
  timers.attach(sender);

  registerWorkflow(timers, recoveryRunner, { deps, sender });

  /**
   * An attempt timer from an instance that predates the deliveries' own due time (during a
   * rolling upgrade): the delivery becomes due in its table at the timer's time.
   */
  timers.on('webhook.deliver', async (t) => {
    await deps.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: t.dueAt })
      .where('id', '=', t.payload.deliveryId)
      .where('status', '=', 'pending')
      .where('next_attempt_at', 'is', null)
      .execute();
    timers.wake();
  });

  /** A session whose lease ran out ends (its waiting events dropped); one polled since looks again at its new lease end. */
  timers.on('webhook.listen-lease', async (t) => {
    const live = await deps.db
      .selectFrom('webhook_listen_sessions')
      .select('lease_until')
      .where('id', '=', t.key)
      .executeTakeFirst();
    if (live && new Date(live.lease_until) > deps.clock.now()) return { runAgainAt: new Date(live.lease_until) };
    await endListenSession(deps, t.key, 'lease_lapsed', { causationId: t.key });
  });

  /** The delivery log is kept 30 days. */
  timers.on('webhook.purge', async () => {
    const cutoff = new Date(deps.clock.now().getTime() - LOG_RETENTION_MS);
    await deps.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).execute();
    await deps.db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).execute();
    // next hour from now: a clock moved by days runs it once, not once per missed hour
    return { runAgainAt: new Date(deps.clock.now().getTime() + 3600_000) };
  });
};
