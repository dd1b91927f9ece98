import { type Insertable, sql } from 'kysely';
import type { Logger } from 'pino';
import type { CommandDeps } from '../commands/context.js';
import type { WebhookDeliveryTable } from '../db/schema.js';
import { comparePositions, parsePosition, type Position, type RecordedEvent } from '../eventstore/port.js';
import { newId } from '../ids.js';
import type { ProjectionRunner } from '../projections/runner.js';
import type { ClaimedDelivery } from './webhook-sender.js';
import { envelopeBody, type Outgoing, outgoingFor, type SharedReads } from '../outbound/webhook-events.js';
import { type DueSource, LEASE_MS } from './timers.js';
import { suppliersNamedBy } from './webhook-listeners.js';
import { BatchRuns } from './batch-runs.js';
import { insertSessionCopies, liveSessions, type SessionCopy, sessionCopies } from './webhook-listen-fanout.js';

export const FANOUT_KIND = 'webhook.fanout';
/** Fan-out timers one statement claims. */
const FANOUT_BATCH = 100;
/** Events one read of the store brings while looking for a batch's events. */
const READ_SPAN = 500;
const MAX_BACKOFF_MS = 60 * 60_000;

/** A delivery as the fan-out inserts it: what differs between its deliveries (the rest is one for the batch). */
type DeliveryRow = Pick<
  Insertable<WebhookDeliveryTable>,
  'id' | 'event_id' | 'event_type' | 'supplier_id' | 'endpoint_id' | 'body'
> & {
  /** The event's trace context (tracing on), for the sender's span and every retry's. */
  traceparent?: string;
};

type Endpoints = Map<string, { id: string; events: string[] }[]>;

/** The active endpoints of these suppliers, by supplier (suppliers without one are absent). */
const activeEndpoints = async (db: CommandDeps['db'], supplierIds: string[]): Promise<Endpoints> => {
  const rows =
    supplierIds.length === 0
      ? []
      : await db
          .selectFrom('webhook_endpoints')
          .select(['supplier_id', 'id', 'events'])
          .where('supplier_id', 'in', [...new Set(supplierIds)])
          .where('status', '=', 'active')
          .where('deleted', '=', false)
          .orderBy('id')
          .execute();
  const bySupplier: Endpoints = new Map();
  for (const r of rows) bySupplier.set(r.supplier_id, [...(bySupplier.get(r.supplier_id) ?? []), r]);
  return bySupplier;
};

/** One event's deliveries: one per subscribed active endpoint of each supplier it is for, each due now. */
const deliveriesOf = (
  deps: CommandDeps,
  event: RecordedEvent,
  outgoing: Outgoing,
  endpoints: Endpoints,
): DeliveryRow[] =>
  [...outgoing.bySupplier].flatMap(([supplierId, data]) => {
    const subscribed = (endpoints.get(supplierId) ?? []).filter(
      (e) => e.id !== outgoing.exceptEndpoint && (e.events.includes('*') || e.events.includes(outgoing.type)),
    );
    if (subscribed.length === 0) return [];
    const body = envelopeBody(event, outgoing.type, data, deps.env);
    return subscribed.map((endpoint) => ({
      id: newId(),
      event_id: event.id,
      event_type: outgoing.type,
      supplier_id: supplierId,
      endpoint_id: endpoint.id,
      body,
      ...(typeof event.metadata.traceparent === 'string' && { traceparent: event.metadata.traceparent }),
    }));
  });

/** The sender of this instance, which takes new deliveries straight from the fan-out. */
export interface HandOver {
  readonly instance: string;
  reserve(n: number): number;
  handOver(rows: ClaimedDelivery[], reserved: number, wait: boolean): Promise<void>;
}

/**
 * New deliveries in one statement, each pending. The first `claimed` are inserted claimed
 * by `sender` (its lease running from now, as a claim's), the rest due now for any
 * instance's claim. Their columns that differ go as one JSON document
 * (jsonb_to_recordset): a batch is thousands of rows with their bodies, which as
 * parameters cost a placeholder each to compile, send and parse. An event's delivery to an
 * endpoint is made once, whoever else fanned it out meanwhile: answers the ids inserted.
 */
const insertDeliveries = async (
  deps: CommandDeps,
  rows: DeliveryRow[],
  now: Date,
  claimed: { count: number; by: string } = { count: 0, by: '' },
): Promise<Set<string>> => {
  const document = JSON.stringify(rows.map((r, i) => ({ ...r, claimed: i < claimed.count })));
  const { rows: inserted } = await sql<{ id: string }>`
    insert into webhook_deliveries (id, event_id, event_type, supplier_id, endpoint_id, body, test_fire, status,
      attempts, created_at, updated_at, next_attempt_at, claimed_by, traceparent)
    select d.id, d.event_id, d.event_type, d.supplier_id, d.endpoint_id, d.body, false, 'pending', 0,
      ${now}::timestamptz, ${now}::timestamptz,
      case when d.claimed then ${new Date(now.getTime() + LEASE_MS)}::timestamptz else ${now}::timestamptz end,
      case when d.claimed then ${claimed.by} end, d.traceparent
    from jsonb_to_recordset(${document}::jsonb)
      as d(id text, event_id text, event_type text, supplier_id text, endpoint_id text, body text, claimed boolean,
        traceparent text)
    on conflict (event_id, endpoint_id) where not test_fire and not recovered do nothing
    returning id`.execute(deps.db);
  return new Set(inserted.map((r) => r.id));
};

/**
 * The events of these fan-out timers, read from the store in global order a span at a time
 * (their events sit close together: they were written by one subscription's batches). An
 * event the spans do not reach is read on its own.
 */
const readEvents = async (deps: CommandDeps, wanted: { key: string; position: Position }[]) => {
  const sorted = [...wanted].sort((a, b) => comparePositions(a.position, b.position));
  const keys = new Set(wanted.map((w) => w.key));
  const found = new Map<string, RecordedEvent>();
  const last = sorted.at(-1)?.position;
  let after = sorted[0] && precedingPosition(sorted[0].position);
  for (let reads = 0; after && last && reads < 4 && found.size < wanted.length; reads++) {
    const events = await deps.store.readAll(after, READ_SPAN);
    for (const e of events) if (keys.has(e.id)) found.set(e.id, e);
    const end = events.at(-1)?.position;
    if (!end || comparePositions(end, last) >= 0) break;
    after = end;
  }
  for (const w of sorted)
    if (!found.has(w.key)) {
      const [event] = await deps.store.readAll(precedingPosition(w.position), 1);
      if (event?.id === w.key) found.set(w.key, event);
    }
  return found;
};

/**
 * The deliveries of a batch's events, and their copies for live `listen` sessions. Whose
 * endpoints and sessions listen is asked first for the events that name their suppliers:
 * with none listening, an event's envelope data (the read models' view of the order or
 * payout) is never read.
 */
const deliveriesFor = async (
  deps: CommandDeps,
  events: RecordedEvent[],
): Promise<{ deliveries: DeliveryRow[]; copies: SessionCopy[] }> => {
  const now = deps.clock.now();
  const suppliers = events.flatMap((e) => suppliersNamedBy(e) ?? []);
  const named = await activeEndpoints(deps.db, suppliers);
  const listening = await liveSessions(deps.db, suppliers, now);
  const heard = events.filter((e) => suppliersNamedBy(e)?.some((s) => named.has(s) || listening.has(s)) ?? true);
  const shared: SharedReads = new Map();
  const outgoing = await Promise.all(heard.map(async (e) => ({ e, out: await outgoingFor(deps.db, e, shared) })));
  const unnamed = outgoing.flatMap((o) => (o.out && !suppliersNamedBy(o.e) ? [...o.out.bySupplier.keys()] : []));
  const endpoints = new Map([...named, ...(await activeEndpoints(deps.db, unnamed))]);
  const sessions = new Map([...listening, ...(await liveSessions(deps.db, unnamed, now))]);
  return {
    deliveries: outgoing.flatMap(({ e, out }) => (out ? deliveriesOf(deps, e, out, endpoints) : [])),
    copies: outgoing.flatMap(({ e, out }) => (out ? sessionCopies(deps, e, out, sessions) : [])),
  };
};

/**
 * Webhook fan-out in batches: the `webhook.fanout` timers (one per event a webhook can come
 * from, written with the webhook process's checkpoint) are claimed up to 100 at once, and
 * their deliveries written in one insert, each with its first attempt due now. Per event
 * only the envelope's data is read (the order or payout as the read models show it once
 * they reached the event); the endpoints, the insert and the timers' removal are one
 * statement each for the batch. A fan-out run again (a crash, a lease run out) finds its
 * deliveries there and changes nothing.
 */
export class FanoutBatcher implements DueSource {
  readonly kinds = [FANOUT_KIND];
  private readonly instance = `fanout:${newId()}`;

  private readonly running: BatchRuns;

  constructor(
    private readonly deps: CommandDeps,
    private readonly projections: ProjectionRunner,
    private readonly log: Logger,
    wake: () => void,
    /** This instance's sender: what it has room for is inserted claimed and handed to it. */
    private readonly sender?: HandOver,
  ) {
    this.running = new BatchRuns(wake);
  }

  async runDue({ wait }: { wait: boolean }): Promise<number> {
    // two batches at a time per instance: one claims and reads while the other writes
    if (this.running.size >= 2) return 0;
    const now = this.deps.clock.now();
    const token = `${this.instance}:${newId()}`;
    const { rows } = await sql<{ key: string; payload: { position: string }; attempts: number }>`
      update timers t set claimed_by = ${token}, claimed_until = ${new Date(now.getTime() + LEASE_MS)}, attempts = t.attempts + 1
      from (
        select kind, key from timers
        where kind = ${FANOUT_KIND} and due_at <= ${now} and (claimed_until is null or claimed_until < ${now})
        order by due_at limit ${FANOUT_BATCH}
        for update skip locked
      ) due
      where t.kind = due.kind and t.key = due.key
      returning t.key, t.payload, t.attempts`.execute(this.deps.db);
    if (rows.length === 0) return 0;
    const work = this.fanOut(rows, token, wait);
    await this.running.start(work, wait);
    return rows.length;
  }

  background(): Promise<boolean> {
    return this.running.settle();
  }

  async settle(): Promise<void> {
    await this.running.settle();
  }

  /** Never throws: a failed batch is due again later, with the timers' backoff. */
  private async fanOut(
    claimed: { key: string; payload: { position: string }; attempts: number }[],
    token: string,
    wait: boolean,
  ) {
    const keys = claimed.map((c) => c.key);
    try {
      const wanted = claimed.map((c) => ({ key: c.key, position: parsePosition(c.payload.position) }));
      // the envelopes show the read models as of their events
      const latest = wanted.reduce((a, b) => (comparePositions(a.position, b.position) >= 0 ? a : b)).position;
      await this.projections.waitFor(latest, 30_000);
      const events = [...(await readEvents(this.deps, wanted)).values()];
      const { deliveries: rows, copies } = await deliveriesFor(this.deps, events);
      // a session's copies first: they are nobody's to send, and a batch run again makes none twice
      await insertSessionCopies(this.deps, copies, this.deps.clock.now());
      const reserved = this.sender?.reserve(rows.length) ?? 0;
      let inserted = new Set<string>();
      let handing: Promise<void> | undefined;
      try {
        if (rows.length > 0)
          inserted = await insertDeliveries(this.deps, rows, this.deps.clock.now(), {
            count: reserved,
            by: this.sender?.instance ?? '',
          });
      } finally {
        // the inserted ones are the sender's from here, whatever follows (should this
        // instance die first, their leases run out and any instance claims them); the
        // reservation it did not use goes back
        const handed = rows.slice(0, reserved).filter((r) => inserted.has(r.id));
        handing = this.sender?.handOver(
          handed.map((r) => ({ ...r, attempts: 0 })),
          reserved,
          wait,
        );
        handing?.catch(() => undefined); // awaited below, once the timers are removed
      }
      await this.deps.db
        .deleteFrom('timers')
        .where('kind', '=', FANOUT_KIND)
        .where('key', 'in', keys)
        .where('claimed_by', '=', token)
        .execute();
      // in a drain, what the batch made is sent before it counts as done
      await handing;
    } catch (error) {
      await this.putBack(claimed, token, error);
    }
  }

  /** A failed batch's timers are due again after the timers' backoff, for any instance's claim. */
  private async putBack(claimed: { key: string; attempts: number }[], token: string, error: unknown) {
    const keys = claimed.map((c) => c.key);
    const attempts = Math.max(...claimed.map((c) => c.attempts));
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempts, 12));
    this.log.warn({ err: error, timers: keys.length }, 'webhook fan-out failed; retrying later');
    await this.deps.db
      .updateTable('timers')
      .set({
        due_at: new Date(this.deps.clock.now().getTime() + backoff),
        claimed_by: null,
        claimed_until: null,
        last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
      })
      .where('kind', '=', FANOUT_KIND)
      .where('key', 'in', keys)
      .where('claimed_by', '=', token)
      .execute()
      .catch((e: unknown) => this.log.error({ err: e }, 'webhook fan-out not put back; its lease will run out'));
  }
}

/** The position just before `position`, to read exactly that event with readAll. */
const precedingPosition = (p: Position): Position => ({ commit: p.commit, prepare: p.prepare - 1n });
