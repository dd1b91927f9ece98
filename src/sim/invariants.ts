import { sql } from 'kysely';
import type { TestClock } from '../clock.js';
import { auditLedger } from '../cli/ledger-audit.js';
import { explainLine } from '../cli/routing.js';
import type { RoutingReceipt } from '../domain/routing-receipt.js';
import { connect, type Db } from '../db/connect.js';
import { HEALTH, HEALTH_DELTAS } from '../domain/offer-health.js';
import { eventVersions } from '../domain/upcasters.js';
import { PostgresEventStore } from '../eventstore/postgres.js';
import { comparePositions, type EventStore, pagesOf, START } from '../eventstore/port.js';
import { EventVersions, versionedStore } from '../eventstore/upcast.js';
import { allProjectors } from '../projections/index.js';
import { applyEvent } from '../projections/projector.js';
import { RETRY_LADDER_MS } from '../processes/webhooks.js';
import type { SupplierKit } from '../sdk/kit/index.js';
import type { Answer } from './world.js';

export interface InvariantFailure {
  invariant: string;
  detail: string;
}

interface Row {
  stream_id: string;
  type: string;
  data: any;
  metadata: any;
}

const ORDER_STATUSES = new Set([
  'placed',
  'paid',
  'completed',
  'expired',
  'refunded',
  'partially_refunded',
  'cancelled',
]);
/** Once every window has passed, nothing may still wait for the buyer, a supplier or a capture. */
const FINAL_ORDER_STATUSES = new Set(['completed', 'expired', 'refunded', 'partially_refunded', 'cancelled']);
const LADDER_MS = RETRY_LADDER_MS.reduce((a, b) => a + b, 0);
const CHECK_SCHEMA = 'sim_check';

/**
 * The invariants of issue 9, checked against the database an instance (or a crashed one)
 * left behind, through the simulator's own connection: the events are the truth, the read
 * models and the ledger must agree with them, and the rules must hold over the whole history.
 */
export class Invariants {
  checks = 0;
  private db!: Db;
  /** Events in their current shape, as the service reads them. */
  private store!: EventStore;
  private readonly accepted = new Map<string, Set<string>>();
  /** Values seen delivered, by value: the order item that got it. */
  private readonly delivered = new Map<string, string>();

  constructor(
    private readonly databaseUrl: string,
    private readonly clock: TestClock,
    private readonly kits: SupplierKit[],
  ) {}

  async open() {
    this.db = connect(this.databaseUrl, 2);
    this.store = versionedStore(new PostgresEventStore(this.db.pool), new EventVersions(eventVersions));
  }

  async close() {
    await this.store?.close().catch(() => undefined);
    await this.db?.close().catch(() => undefined);
  }

  /** The key values an uploaded offer accepted so far (the simulator's own record). */
  uploaded(offerId: string, values: string[]) {
    this.accepted.set(offerId, new Set(values));
  }

  async orders(): Promise<{ id: string; status: string }[]> {
    return this.db.kysely.selectFrom('orders').select(['id', 'status']).orderBy('id').execute();
  }
  async orderItems(orderId: string): Promise<string[]> {
    return (
      await this.db.kysely
        .selectFrom('order_items')
        .select('id')
        .where('order_id', '=', orderId)
        .orderBy('position')
        .execute()
    ).map((r) => r.id);
  }
  async inventoryItems(): Promise<string[]> {
    return (
      await this.db.kysely
        .selectFrom('inventory_items')
        .select('id')
        .where('status', 'in', ['available', 'reserved'])
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  }

  async check(options: {
    rebuild?: boolean;
    settled?: boolean;
    deliverables?: (path: string) => Promise<Answer>;
  }): Promise<InvariantFailure | undefined> {
    const events = await this.history();
    const checks: [string, () => Promise<string | undefined> | string | undefined][] = [
      ['no key delivered twice; every delivered key uploaded and valid at sale', () => this.keys(events)],
      ['inventory conserved per offer', () => this.inventory(events)],
      [
        'one sale entry per delivered item, one refund entry per refunded item, none for cancelled',
        () => this.entries(events, options.settled ?? false),
      ],
      ['ledger balances and audit clean', () => this.ledger()],
      ['orders in allowed states', () => this.orderStates(options.settled ?? false)],
      ['no supplier call twice for one order under different ids', () => this.supplierCalls()],
      ['offer health within 0..100, following the table, each outcome once', () => this.health(events)],
      ['every order routed with a receipt that replays to its winners', () => this.routing(events)],
      [
        'webhook events delivered or logged as abandoned/disabled',
        () => (options.settled ? this.webhooks() : undefined),
      ],
      ['read models equal a fresh rebuild', () => (options.rebuild ? this.rebuild() : undefined)],
      ['no key value delivered twice', () => (options.deliverables ? this.values(options.deliverables) : undefined)],
    ];
    for (const [invariant, run] of checks) {
      const detail = await run();
      this.checks++;
      if (detail) return { invariant, detail };
    }
    return undefined;
  }

  private keys(events: Row[]) {
    const uploaded = new Set<string>();
    const invalidated = new Set<string>();
    const delivered = new Map<string, string>();
    for (const e of events) {
      if (e.type === 'InventoryUploaded') for (const id of e.data.itemIds as string[]) uploaded.add(id);
      if (e.type === 'InventoryItemInvalidated' && e.data.previousStatus !== 'delivered')
        invalidated.add(e.data.itemId);
      if (e.type === 'InventoryDelivered')
        for (const id of e.data.itemIds as string[]) {
          if (delivered.has(id))
            return `item ${id} delivered to ${delivered.get(id)} and again to ${e.data.orderItemId}`;
          if (!uploaded.has(id)) return `item ${id} delivered but never uploaded`;
          if (invalidated.has(id)) return `item ${id} delivered after it was invalidated`;
          delivered.set(id, e.data.orderItemId);
        }
    }
    return undefined;
  }

  private async inventory(events: Row[]) {
    const uploaded = new Map<string, number>();
    for (const e of events)
      if (e.type === 'InventoryUploaded')
        uploaded.set(e.data.offerId, (uploaded.get(e.data.offerId) ?? 0) + (e.data.itemIds as string[]).length);
    const rows = await this.db.kysely
      .selectFrom('inventory_items')
      .select(['offer_id', 'status', sql<number>`count(*)::int`.as('n')])
      .groupBy(['offer_id', 'status'])
      .execute();
    const offers = await this.db.kysely
      .selectFrom('offers')
      .select(['id', 'stock_available', 'stock_reserved', 'stock_delivered'])
      .where('stock_mode', '=', 'uploaded')
      .execute();
    for (const o of offers) {
      const by = (s: string) => rows.find((r) => r.offer_id === o.id && r.status === s)?.n ?? 0;
      const total = rows.filter((r) => r.offer_id === o.id).reduce((s, r) => s + r.n, 0);
      if (total !== (uploaded.get(o.id) ?? 0))
        return `offer ${o.id}: ${uploaded.get(o.id) ?? 0} uploaded, ${total} known`;
      const known = new Set(rows.filter((r) => r.offer_id === o.id).map((r) => r.status));
      for (const s of known)
        if (!['available', 'reserved', 'delivered', 'invalidated', 'deleted', 'removed'].includes(s))
          return `offer ${o.id}: item status ${s}`;
      if (
        o.stock_available !== by('available') ||
        o.stock_reserved !== by('reserved') ||
        o.stock_delivered !== by('delivered')
      )
        return `offer ${o.id}: stock ${o.stock_available}/${o.stock_reserved}/${o.stock_delivered}, items ${by('available')}/${by('reserved')}/${by('delivered')}`;
    }
    return undefined;
  }

  private async entries(events: Row[], settled: boolean) {
    const sales = new Map<string, number>();
    const refunds = new Map<string, number>();
    const cancelled = new Set<string>();
    const deliveredItems = new Set<string>();
    for (const e of events) {
      if (e.type === 'SaleCredited') sales.set(e.data.orderItemId, (sales.get(e.data.orderItemId) ?? 0) + 1);
      if (e.type === 'RefundDebited') {
        refunds.set(e.data.orderItemId, (refunds.get(e.data.orderItemId) ?? 0) + 1);
        if (!sales.has(e.data.orderItemId)) return `refund entry for ${e.data.orderItemId} before any sale entry`;
      }
      if (e.type === 'OrderItemCancelled') cancelled.add(e.data.orderItemId);
      if (e.type === 'OrderItemDelivered') deliveredItems.add(e.data.orderItemId);
    }
    for (const [id, n] of sales) {
      if (n > 1) return `${n} sale entries for order item ${id}`;
      if (cancelled.has(id) && !deliveredItems.has(id)) return `sale entry for cancelled order item ${id}`;
    }
    for (const [id, n] of refunds) if (n > 1) return `${n} refund entries for order item ${id}`;
    if (!settled) return undefined;
    const items = await this.db.kysely
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select(['i.id', 'i.status', 'i.delivered_at', 'o.paid_at', 'i.source'])
      .execute();
    for (const i of items) {
      if (i.paid_at !== null && i.status === 'delivered' && (sales.get(i.id) ?? 0) !== 1)
        return `delivered order item ${i.id} has ${sales.get(i.id) ?? 0} sale entries`;
      if (i.status === 'refunded' && sales.has(i.id) && (refunds.get(i.id) ?? 0) !== 1)
        return `refunded order item ${i.id} has a sale but ${refunds.get(i.id) ?? 0} refund entries`;
      if (i.status === 'refunded' && i.delivered_at === null && sales.has(i.id))
        return `refunded order item ${i.id} was never delivered but has a sale entry`;
      if (i.status === 'cancelled' && sales.has(i.id)) return `cancelled order item ${i.id} has a sale entry`;
    }
    return undefined;
  }

  private async ledger() {
    const sums = await sql<{ supplier_id: string; pending: number; available: number; p: number; a: number }>`
      select b.supplier_id, b.pending, b.available,
        coalesce((select sum(amount) from balance_entries e where e.supplier_id = b.supplier_id and e.account = 'pending'), 0)::bigint as p,
        coalesce((select sum(amount) from balance_entries e where e.supplier_id = b.supplier_id and e.account = 'available'), 0)::bigint as a
      from balances b`.execute(this.db.kysely);
    for (const r of sums.rows)
      if (Number(r.p) !== r.pending || Number(r.a) !== r.available)
        return `supplier ${r.supplier_id}: balance ${r.pending}/${r.available}, entries ${r.p}/${r.a}`;
    const report = await auditLedger(this.store, this.db.kysely);
    return report.differences.length > 0 ? report.differences.slice(0, 3).join('; ') : undefined;
  }

  private async orderStates(settled: boolean) {
    const rows = await this.db.kysely.selectFrom('orders').select(['id', 'status']).execute();
    for (const r of rows) {
      if (!ORDER_STATUSES.has(r.status)) return `order ${r.id} is ${r.status}`;
      if (settled && !FINAL_ORDER_STATUSES.has(r.status)) {
        const items = await this.db.kysely
          .selectFrom('order_items')
          .select(['status', 'source'])
          .where('order_id', '=', r.id)
          .orderBy('position')
          .execute();
        const o = await this.db.kysely
          .selectFrom('orders')
          .select(['authorized_at', 'paid_at'])
          .where('id', '=', r.id)
          .executeTakeFirst();
        return `order ${r.id} still ${r.status} after every window passed (authorized ${o?.authorized_at ? 'yes' : 'no'}, items ${items.map((i) => `${i.source}:${i.status}`).join(', ')})`;
      }
    }
    return undefined;
  }

  /**
   * What the suppliers received: one reservation is converted into one order only, one
   * top-up operation belongs to one order only (a retry repeats the same identity).
   */
  private supplierCalls() {
    for (const kit of this.kits) {
      const owner = new Map<string, string>();
      for (const r of kit.received) {
        const b = r.body as Record<string, string> | undefined;
        if (!b || ((r.status ?? 0) >= 400 && r.status !== 409)) continue;
        const key =
          r.route === 'POST /orders'
            ? `reservation ${b.reservation_id}`
            : r.route === 'POST /topup/execute'
              ? `operation ${b.operation_id}`
              : undefined;
        if (!key) continue;
        const id = b.order_id!;
        if (owner.has(key) && owner.get(key) !== id)
          return `${kit.url}: ${key} used for order ${owner.get(key)} and ${id}`;
        owner.set(key, id);
      }
    }
    return undefined;
  }

  /**
   * Each placed order has its routing receipt, its items' offers are the receipt's winners,
   * and each line re-run from its recorded inputs (as `routing explain` does) reaches them.
   */
  private routing(events: Row[]) {
    const receipts = new Map<string, RoutingReceipt>();
    for (const e of events) if (e.type === 'OrderRouted') receipts.set(e.data.orderId, e.data);
    for (const e of events) {
      if (e.type !== 'OrderPlaced') continue;
      const receipt = receipts.get(e.data.orderId);
      if (!receipt) return `order ${e.data.orderId}: placed without a routing receipt`;
      const winners = new Set(receipt.lines.flatMap((l) => l.served.map((s) => s.offerId)));
      for (const item of e.data.items as { offerId: string }[])
        if (!winners.has(item.offerId))
          return `order ${e.data.orderId}: an item of offer ${item.offerId}, not among the receipt's winners`;
      for (const [n, line] of receipt.lines.entries()) {
        const explained = explainLine(line, n);
        if (!explained.agrees) return `order ${e.data.orderId}: ${explained.verdict}`;
      }
    }
    return undefined;
  }

  private health(events: Row[]) {
    const allowed = new Map<string, number>(Object.entries(HEALTH_DELTAS));
    const outcomes = new Set<string>();
    const perCause = new Set<string>();
    for (const e of events) {
      if (e.type !== 'OfferHealthChanged' && e.type !== 'OfferActivated' && e.type !== 'OfferCooldownEnded') continue;
      const h = e.data.health;
      if (!Number.isInteger(h) || h < HEALTH.min || h > HEALTH.max) return `offer ${e.data.offerId}: health ${h}`;
      if (e.type !== 'OfferHealthChanged') continue;
      const full = allowed.get(e.data.reason);
      if (full === undefined) return `offer ${e.data.offerId}: health changed for ${e.data.reason}, not in the table`;
      if (Math.sign(e.data.delta) !== Math.sign(full) || Math.abs(e.data.delta) > Math.abs(full))
        return `offer ${e.data.offerId}: ${e.data.reason} moved health by ${e.data.delta}, the table says ${full}`;
      if (e.data.reason === 'healthcheck_passed' && h > HEALTH.recoveryCeiling)
        return `offer ${e.data.offerId}: a passing healthcheck lifted health to ${h}, above ${HEALTH.recoveryCeiling}`;
      if (e.data.outcomeId) {
        if (outcomes.has(`${e.data.offerId}:${e.data.outcomeId}`))
          return `offer ${e.data.offerId}: outcome ${e.data.outcomeId} applied twice`;
        outcomes.add(`${e.data.offerId}:${e.data.outcomeId}`);
      }
      // one cause (a timer run or a request) yields each one-off outcome once per offer; an
      // outcome with an id (a recurring healthcheck's run among them) was checked just above
      if (
        !e.data.outcomeId &&
        e.data.reason !== 'healthcheck_failed' &&
        e.data.reason !== 'topup_validate_failure' &&
        e.data.reason !== 'out_of_stock' &&
        e.data.reason !== 'call_failure'
      ) {
        const cause = `${e.data.offerId}:${e.metadata?.correlation_id ?? e.metadata?.correlationId}:${e.data.reason}`;
        if (perCause.has(cause)) return `offer ${e.data.offerId}: ${e.data.reason} applied twice for ${cause}`;
        perCause.add(cause);
      }
    }
    return undefined;
  }

  private async webhooks() {
    const cutoff = new Date(this.clock.now().getTime() - LADDER_MS - 60_000);
    const stuck = await this.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_type', 'status', 'attempts'])
      .where('status', 'not in', ['succeeded', 'abandoned', 'skipped'])
      .where('created_at', '<', cutoff)
      .execute();
    if (stuck.length > 0)
      return `${stuck.length} deliveries not final after the ladder, e.g. ${JSON.stringify(stuck[0])}`;
    return undefined;
  }

  /**
   * Every committed event, read as the service reads them (older shapes upcast). Waits
   * until the last committed one is readable: a transaction running elsewhere on the
   * server holds the readable head back, and a check that read less would see read models
   * ahead of the events.
   */
  private async history(): Promise<Row[]> {
    const last = await this.store.lastCommitted();
    for (const deadline = Date.now() + 30_000; comparePositions(await this.store.head(), last) < 0;) {
      if (Date.now() > deadline) throw new Error('the committed events did not become readable within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const rows: Row[] = [];
    for await (const page of pagesOf(this.store, START, 5000))
      for (const e of page) rows.push({ stream_id: e.streamId, type: e.type, data: e.data, metadata: e.metadata });
    return rows;
  }

  private async rebuild() {
    const db = this.db.kysely;
    for (const p of allProjectors.filter((x) => x.rebuildable !== false)) {
      await sql.raw(`drop schema if exists ${CHECK_SCHEMA} cascade; create schema ${CHECK_SCHEMA};`).execute(db);
      await sql.raw(p.ddl(CHECK_SCHEMA)).execute(db);
      // every event, applied one at a time (not the live path's batches): the checks run
      // after a drain, when the live tables have applied them all
      await db.transaction().execute(async (trx) => {
        await sql`select set_config('search_path', ${`${CHECK_SCHEMA}, public`}, true)`.execute(trx);
        const scoped = trx.withSchema(CHECK_SCHEMA);
        for await (const page of pagesOf(this.store, START, 2000)) for (const e of page) await applyEvent(p, scoped, e);
      });
      for (const table of p.tables) {
        const diff = await sql<{ n: number }>`
          select count(*)::int as n from (
            (select * from ${sql.raw(`public.${table}`)} except all select * from ${sql.raw(`${CHECK_SCHEMA}.${table}`)})
            union all
            (select * from ${sql.raw(`${CHECK_SCHEMA}.${table}`)} except all select * from ${sql.raw(`public.${table}`)})
          ) d`.execute(db);
        if (diff.rows[0]!.n > 0) {
          const sample =
            await sql`select * from ${sql.raw(`public.${table}`)} except all select * from ${sql.raw(`${CHECK_SCHEMA}.${table}`)} limit 1`.execute(
              db,
            );
          const rebuilt =
            await sql`select * from ${sql.raw(`${CHECK_SCHEMA}.${table}`)} except all select * from ${sql.raw(`public.${table}`)} limit 1`.execute(
              db,
            );
          return `${table}: ${diff.rows[0]!.n} rows differ; live ${JSON.stringify(sample.rows[0])} rebuilt ${JSON.stringify(rebuilt.rows[0])}`;
        }
      }
    }
    await sql.raw(`drop schema if exists ${CHECK_SCHEMA} cascade`).execute(db);
    return undefined;
  }

  private async values(get: (path: string) => Promise<Answer>) {
    const items = await this.db.kysely
      .selectFrom('order_items')
      .select(['id', 'order_id', 'offer_id'])
      .where('status', 'in', ['delivered', 'refunded'])
      .orderBy('order_id')
      .execute();
    const offerOf = new Map(items.map((i) => [i.id, i.offer_id]));
    for (const order_id of [...new Set(items.map((i) => i.order_id))]) {
      const res = await get(`/orders/${order_id}/deliverables`);
      if (res.lost) return undefined; // the instance died answering: the next check looks again
      if (res.status !== 200) return `deliverables of ${order_id}: ${res.status} ${JSON.stringify(res.body)}`;
      for (const item of res.body.items ?? []) {
        for (const key of item.keys ?? []) {
          if (key.value === undefined) continue;
          const owner = this.delivered.get(key.value);
          const here = `${order_id}/${item.order_item_id}`;
          if (owner && owner !== here) return `key value delivered to ${owner} and to ${here}`;
          this.delivered.set(key.value, here);
          // keys of uploaded offers: only values the offer accepted (declared keys come from the kits)
          const offer = offerOf.get(item.order_item_id);
          const accepted = offer === undefined ? undefined : this.accepted.get(offer);
          if (accepted && !accepted.has(key.value)) return `order ${order_id} got a key offer ${offer} never accepted`;
        }
      }
    }
    return undefined;
  }
}
