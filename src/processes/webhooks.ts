import type { Caller, CommandDeps } from '../commands/context.js';
import { load } from '../commands/handle.js';
import { countAttempt, disableEndpoint } from '../commands/webhooks.js';
import { DISABLE_AFTER_FAILURES, webhookEndpointDecider } from '../domain/webhook-endpoint.js';
import { formatPosition, parsePosition, type RecordedEvent } from '../eventstore/port.js';
import { newId } from '../ids.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { projector } from '../projections/projector.js';
import { envelopeBody, outgoingFor } from '../outbound/webhook-events.js';
import { sendAttempt } from '../outbound/webhook-send.js';
import { EndpointPacer } from './webhook-pacing.js';
import { registerRecoveryTimers } from './webhook-recovery.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';
import { webhookStream } from '../commands/streams.js';
import { SOURCES } from '../domain/webhook-sources.js';
import { suppliersNamedBy, type WebhookListeners } from './webhook-listeners.js';

/** Spec: retry ladder after a failed attempt, 7 attempts in all. Entry n is the wait before attempt n + 1. */
export const RETRY_LADDER_MS = [0, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 8 * 3600_000, 24 * 3600_000];
export const MAX_ATTEMPTS = RETRY_LADDER_MS.length;
export const LOG_RETENTION_MS = 30 * 24 * 3600_000;
/** At most this many attempts in flight per endpoint in one process: a slow endpoint waits its turn, others do not. */
const PER_ENDPOINT_IN_FLIGHT = 4;

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
    handlers: Object.fromEntries(
      Object.keys(SOURCES).map((type) => [
        type,
        async (db, e: RecordedEvent) => {
          const named = suppliersNamedBy(e);
          if (listeners && named && !(await listeners.mayListen(db, named))) return undefined;
          return scheduleTimer('webhook.fanout', e.id, e.createdAt, { position: formatPosition(e.position) });
        },
      ]),
    ),
  });

/** The active endpoints of these suppliers, by supplier (suppliers without one are absent). */
const activeEndpoints = async (db: CommandDeps['db'], supplierIds: string[]) => {
  const rows =
    supplierIds.length === 0
      ? []
      : await db
          .selectFrom('webhook_endpoints')
          .select(['supplier_id', 'id', 'events'])
          .where('supplier_id', 'in', supplierIds)
          .where('status', '=', 'active')
          .where('deleted', '=', false)
          .orderBy('id')
          .execute();
  const bySupplier = new Map<string, { id: string; events: string[] }[]>();
  for (const r of rows) bySupplier.set(r.supplier_id, [...(bySupplier.get(r.supplier_id) ?? []), r]);
  return bySupplier;
};

/** The deliveries of an event to these endpoints that never had an attempt (a re-run finds them left by a crash). */
const neverAttempted = (deps: CommandDeps, eventId: string, endpoints: { id: string }[]) =>
  deps.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('event_id', '=', eventId)
    .where(
      'endpoint_id',
      'in',
      endpoints.map((e) => e.id),
    )
    .where('test_fire', '=', false)
    .where('recovered', '=', false)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .execute();

/** One supplier's deliveries of one event: one per subscribed active endpoint, each with its first attempt due now. */
const createDeliveries = async (
  deps: CommandDeps,
  timers: Timers,
  event: RecordedEvent,
  outgoing: NonNullable<Awaited<ReturnType<typeof outgoingFor>>>,
  supplierId: string,
  data: Record<string, unknown>,
  endpoints: { id: string; events: string[] }[],
) => {
  const now = deps.clock.now();
  const subscribed = endpoints.filter(
    (e) => e.id !== outgoing.exceptEndpoint && (e.events.includes('*') || e.events.includes(outgoing.type)),
  );
  if (subscribed.length === 0) return;
  const body = envelopeBody(event, outgoing.type, data, deps.env);
  // every endpoint's delivery in one insert, and their first attempts in one more
  const inserted = await deps.db
    .insertInto('webhook_deliveries')
    .values(
      subscribed.map((endpoint) => ({
        id: newId(),
        event_id: event.id,
        event_type: outgoing.type,
        supplier_id: supplierId,
        endpoint_id: endpoint.id,
        body,
        test_fire: false,
        status: 'pending',
        attempts: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['event_id', 'endpoint_id']).where('test_fire', '=', false).where('recovered', '=', false).doNothing(),
    )
    .returning('id')
    .execute();
  // a fan-out re-run after a crash between the insert and the schedule finds rows
  // already there: a delivery never attempted gets its first attempt scheduled again
  // (timers are keyed, so scheduling one that exists changes nothing)
  const first = inserted.length === subscribed.length ? inserted : await neverAttempted(deps, event.id, subscribed);
  await timers.scheduleMany(
    'webhook.deliver',
    first.map((d) => ({ key: `${d.id}:1`, dueAt: now, payload: { deliveryId: d.id, attempt: 1 } })),
  );
};

// eslint-disable-next-line max-lines-per-function -- the webhook process's timer kinds, one call each
export const registerWebhookTimers = (timers: Timers, deps: CommandDeps, projections: ProjectionRunner) => {
  const slots = new EndpointSlots(PER_ENDPOINT_IN_FLIGHT);
  const pacer = new EndpointPacer();
  const caller = (kind: string, key: string): Caller => ({ correlationId: `${kind}:${key}` });

  /** One delivery per event per subscribed active endpoint, with the exact body every attempt will send. */
  timers.on('webhook.fanout', async (t) => {
    const { position } = t.payload;
    // the envelope shows the read models as of this event
    await projections.waitFor(parsePosition(position), 30_000);
    const [event] = await deps.store.readAll(precedingPosition(position), 1);
    if (!event || event.id !== t.key) return;
    // whose endpoints listen, asked first when the event names its suppliers: with none, the
    // envelope (the read models' view of the order or payout) is never read
    const named = suppliersNamedBy(event);
    const listening = named && (await activeEndpoints(deps.db, named));
    if (listening && listening.size === 0) return;
    const outgoing = await outgoingFor(deps.db, event);
    if (!outgoing) return;
    const endpoints = listening ?? (await activeEndpoints(deps.db, [...outgoing.bySupplier.keys()]));
    for (const [supplierId, data] of outgoing.bySupplier)
      await createDeliveries(deps, timers, event, outgoing, supplierId, data, endpoints.get(supplierId) ?? []);
  });

  /**
   * One attempt; then the ladder, the abandon after 7, the 30-failure and 410 disables.
   * Answers a later time when the endpoint's rate limit has no slot soon (nothing is sent).
   */
  // eslint-disable-next-line max-lines-per-function -- one delivery attempt: send, record, count and schedule the next, in order
  const deliver = async (
    deliveryId: string,
    attempt: number,
    key: string,
  ): Promise<{ runAgainAt: Date } | undefined> => {
    const delivery = await deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!delivery || delivery.status !== 'pending') return;
    const statusAfter = (succeeded: boolean) =>
      succeeded ? 'succeeded' : attempt >= MAX_ATTEMPTS ? 'abandoned' : 'pending';
    const { state: endpoint } = await load(
      deps.store,
      webhookStream(delivery.endpoint_id),
      webhookEndpointDecider,
      deps.states,
    );
    if (!endpoint || endpoint.deleted || endpoint.status !== 'active') {
      const now = deps.clock.now();
      await deps.db
        .updateTable('webhook_deliveries')
        .set({ status: 'skipped', updated_at: now })
        .where('id', '=', deliveryId)
        .execute();
      return;
    }
    const paced = await pacer.run(endpoint.id, endpoint.settings.rateLimit, () =>
      slots.run(endpoint.id, () =>
        sendAttempt(
          deps,
          endpoint,
          {
            id: delivery.id,
            eventId: delivery.event_id,
            eventType: delivery.event_type,
            body: delivery.body,
            supplierId: delivery.supplier_id,
          },
          attempt,
          (succeeded) => ({ status: statusAfter(succeeded), attempts: attempt }),
        ),
      ),
    );
    if ('deferMs' in paced) return { runAgainAt: new Date(deps.clock.now().getTime() + paced.deferMs) };
    const result = paced.ran;
    const failures = await countAttempt(deps, endpoint.id, result.succeeded);
    const status = statusAfter(result.succeeded);
    if (result.responseStatus === 410)
      await disableEndpoint(deps, endpoint.id, 'gone', failures, caller('webhook.deliver', key));
    else if (!result.succeeded && failures >= DISABLE_AFTER_FAILURES)
      await disableEndpoint(deps, endpoint.id, 'consecutive_failures', failures, caller('webhook.deliver', key));
    if (status === 'pending')
      await timers.schedule(
        'webhook.deliver',
        `${deliveryId}:${attempt + 1}`,
        new Date(deps.clock.now().getTime() + RETRY_LADDER_MS[attempt]!),
        { deliveryId, attempt: attempt + 1 },
      );
    return undefined;
  };

  timers.on('webhook.deliver', async (t) => {
    const { deliveryId, attempt } = t.payload;
    return deliver(deliveryId, attempt, t.key);
  });

  registerRecoveryTimers(timers, deps, deliver);

  /** The delivery log is kept 30 days. */
  timers.on('webhook.purge', async () => {
    const cutoff = new Date(deps.clock.now().getTime() - LOG_RETENTION_MS);
    await deps.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).execute();
    await deps.db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).execute();
    // next hour from now: a clock moved by days runs it once, not once per missed hour
    return { runAgainAt: new Date(deps.clock.now().getTime() + 3600_000) };
  });
};

/** At most `size` attempts at once per endpoint; the rest wait their turn, in order. */
class EndpointSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly size: number) {}

  async run<T>(endpointId: string, work: () => Promise<T>): Promise<T> {
    if ((this.busy.get(endpointId) ?? 0) >= this.size)
      await new Promise<void>((resolve) =>
        this.waiting.set(endpointId, [...(this.waiting.get(endpointId) ?? []), resolve]),
      );
    this.busy.set(endpointId, (this.busy.get(endpointId) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.busy.set(endpointId, (this.busy.get(endpointId) ?? 1) - 1);
      const next = this.waiting.get(endpointId)?.shift();
      if (next) next();
      else if (this.busy.get(endpointId) === 0) this.busy.delete(endpointId);
    }
  }
}

/** The position just before `position`, to read exactly that event with readAll. */
const precedingPosition = (position: string) => {
  const p = parsePosition(position);
  return { commit: p.commit, prepare: p.prepare - 1n };
};
