import type { CommandDeps } from '../commands/context.js';
import { formatPosition, parsePosition, type RecordedEvent } from '../eventstore/port.js';
import { newId } from '../ids.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { projector } from '../projections/projector.js';
import { envelopeBody, outgoingFor } from '../outbound/webhook-events.js';
import { registerRecoveryTimers } from './webhook-recovery.js';
import { DeliverySender } from './webhook-sender.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';
import { SOURCES } from '../domain/webhook-sources.js';

export { MAX_ATTEMPTS, RETRY_LADDER_MS } from './webhook-sender.js';
export const LOG_RETENTION_MS = 30 * 24 * 3600_000;

/** Every event a webhook can come from becomes one fan-out timer, recorded with this process's checkpoint. */
export const webhookProcess = projector({
  name: 'webhook-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: Object.fromEntries(
    Object.keys(SOURCES).map((type) => [
      type,
      (db, e: RecordedEvent) =>
        scheduleTimer('webhook.fanout', e.id, e.createdAt, { position: formatPosition(e.position) }),
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

/** The suppliers an event's data names (order events name theirs, most others their one); undefined when only a read tells. */
const suppliersNamedBy = (event: RecordedEvent): string[] | undefined => {
  const d = event.data as { supplierIds?: unknown; supplierId?: unknown };
  if (Array.isArray(d.supplierIds)) return d.supplierIds as string[];
  if (typeof d.supplierId === 'string') return [d.supplierId];
  return undefined;
};

/** One supplier's deliveries of one event: one per subscribed active endpoint, each with its first attempt due now. */
const createDeliveries = async (
  deps: CommandDeps,
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
  // every endpoint's delivery in one insert, its first attempt due now: a fan-out re-run
  // after a crash finds them there and changes nothing
  await deps.db
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
        next_attempt_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['event_id', 'endpoint_id']).where('test_fire', '=', false).where('recovered', '=', false).doNothing(),
    )
    .execute();
};

/** The webhook process's timer kinds, and the deliveries' own sender polled with the timers. */
export const registerWebhookTimers = (timers: Timers, deps: CommandDeps, projections: ProjectionRunner) => {
  const sender = new DeliverySender(deps, timers.log, () => timers.wake());
  timers.attach(sender);

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
      await createDeliveries(deps, event, outgoing, supplierId, data, endpoints.get(supplierId) ?? []);
  });

  registerRecoveryTimers(timers, deps, sender);

  /** The delivery log is kept 30 days. */
  timers.on('webhook.purge', async () => {
    const cutoff = new Date(deps.clock.now().getTime() - LOG_RETENTION_MS);
    await deps.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).execute();
    await deps.db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).execute();
    // next hour from now: a clock moved by days runs it once, not once per missed hour
    return { runAgainAt: new Date(deps.clock.now().getTime() + 3600_000) };
  });
};

/** The position just before `position`, to read exactly that event with readAll. */
const precedingPosition = (position: string) => {
  const p = parsePosition(position);
  return { commit: p.commit, prepare: p.prepare - 1n };
};
