import { type Kysely, sql, type UpdateObject } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OrderEvent, OrderItem } from '../domain/order.js';
import { FoldedOrder, itemRow, type OrderItemRow, type OrderRow } from './order-rows.js';
import { type Gatherer, projector } from './projector.js';

/** Rows per insert: well below PostgreSQL's 65,535 parameters at 19 columns. */
const CHUNK = 1000;

const chunks = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, k) => rows.slice(k * CHUNK, (k + 1) * CHUNK));

const writeOrders = async (db: Kysely<Database>, rows: OrderRow[]) => {
  for (const part of chunks(rows)) await db.insertInto('orders').values(part).execute();
};

const writeItems = async (db: Kysely<Database>, rows: OrderItemRow[]) => {
  for (const part of chunks(rows))
    await db
      .insertInto('order_items')
      .values(part.map((r) => ({ ...r, topup: r.topup && JSON.stringify(r.topup) })))
      .execute();
};

/** Items added to an order placed in an earlier batch (a reroute): after the ones it has. */
const insertItems = async (db: Kysely<Database>, orderId: string, items: OrderItem[], at: string) => {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from order_items where order_id = ${orderId}`.execute(db);
  const first = rows[0]?.n ?? 0;
  await writeItems(
    db,
    items.map((i, k) => itemRow(orderId, i, first + k, at)),
  );
};

const setItem = (db: Kysely<Database>, orderItemId: string, values: UpdateObject<Database, 'order_items'>) =>
  db.updateTable('order_items').set(values).where('id', '=', orderItemId).execute();

/**
 * The order's status from its items, as the Order aggregate derives it: placed until
 * capture; after capture `paid` while a top-up still runs, then completed, or
 * (partially) refunded. `paidAt`: the capture, recorded by the same statement.
 * (src/projections/order-rows.ts derives the same in memory: change both together.)
 */
const refreshStatus = (db: Kysely<Database>, orderId: string, at: string, paidAt: string | null = null) =>
  sql`
    update orders o set updated_at = ${at}, paid_at = coalesce(${paidAt}::timestamptz, o.paid_at), status = case
      when o.status in ('expired', 'cancelled') then o.status
      when coalesce(${paidAt}::timestamptz, o.paid_at) is null then 'placed'
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'refunded') then
        case when exists (select 1 from order_items i where i.order_id = o.id and i.status not in ('refunded', 'cancelled'))
          then 'partially_refunded' else 'refunded' end
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then 'paid'
      else 'completed' end,
    completed_at = case
      when o.completed_at is null and coalesce(${paidAt}::timestamptz, o.paid_at) is not null
        and not exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then ${at}::timestamptz
      else o.completed_at end
    where o.id = ${orderId}`.execute(db);

type Later = Exclude<OrderEvent, { type: 'OrderPlaced' }>;

type DataOf<T extends Later['type']> = Extract<Later, { type: T }>['data'];

/** The statements of one event of an order placed in an earlier batch, by its type (the read model shows no other). */
const earlierStatements: { [T in Later['type']]?: (db: Kysely<Database>, d: DataOf<T>) => Promise<unknown> } = {
  OrderPaymentAuthorized: (db, d) =>
    db.updateTable('orders').set({ authorized_at: d.at, updated_at: d.at }).where('id', '=', d.orderId).execute(),
  OrderItemDelivered: async (db, d) => {
    await setItem(db, d.orderItemId, {
      status: 'delivered',
      inventory_item_ids: d.inventoryItemIds,
      delivered_at: d.at,
    });
    await refreshStatus(db, d.orderId, d.at);
  },
  OrderPaid: (db, d) => refreshStatus(db, d.orderId, d.at, d.at),
  OrderExpired: async (db, d) => {
    await db.updateTable('orders').set({ status: 'expired', updated_at: d.at }).where('id', '=', d.orderId).execute();
    await db.updateTable('order_items').set({ status: 'released' }).where('order_id', '=', d.orderId).execute();
  },
  OrderRefunded: async (db, d) => {
    const ids = d.items.map((i) => i.orderItemId);
    await db.updateTable('order_items').set({ status: 'refunded' }).where('id', 'in', ids).execute();
    await refreshStatus(db, d.orderId, d.at);
  },
  OrderDisputed: (db, d) => db.updateTable('orders').set({ updated_at: d.at }).where('id', '=', d.orderId).execute(),
  OrderItemReservationRenewed: (db, d) => setItem(db, d.orderItemId, { reservation_id: d.reservationId }),
  OrderItemCancelled: async (db, d) => {
    await setItem(db, d.orderItemId, { status: 'cancelled' });
    await refreshStatus(db, d.orderId, d.at);
  },
  OrderItemRerouted: async (db, d) => {
    await insertItems(db, d.orderId, [d.item], d.at);
    await db
      .updateTable('orders')
      .set({
        supplier_ids: sql`(select array_agg(distinct supplier_id order by supplier_id) from order_items where order_id = ${d.orderId})`,
      })
      .where('id', '=', d.orderId)
      .execute();
  },
  OrderCancelled: (db, d) =>
    db.updateTable('orders').set({ status: 'cancelled', updated_at: d.at }).where('id', '=', d.orderId).execute(),
  OrderItemTopupRevalidated: (db, d) =>
    setItem(db, d.orderItemId, {
      topup: sql`jsonb_set(jsonb_set(topup, '{operationId}', to_jsonb(${d.operationId}::text)), '{accountLabel}', to_jsonb(${d.accountLabel}::text))`,
    }),
  OrderItemTopupCompleted: async (db, d) => {
    await setItem(db, d.orderItemId, {
      status: 'delivered',
      delivered_at: d.at,
      topup: sql`jsonb_set(topup, '{receiptRef}', to_jsonb(${d.receiptRef}::text))`,
    });
    await refreshStatus(db, d.orderId, d.at);
  },
  OrderItemTopupFailed: async (db, d) => {
    await setItem(db, d.orderItemId, { status: 'cancelled' });
    await refreshStatus(db, d.orderId, d.at);
  },
};

const applyOne = (db: Kysely<Database>, e: Later) =>
  (earlierStatements[e.type] as ((db: Kysely<Database>, d: Later['data']) => Promise<unknown>) | undefined)?.(
    db,
    e.data,
  );

/**
 * A batch's order events, in order. The orders placed within the batch are folded in
 * memory and written with one insert per table; the events of orders placed earlier run
 * their own statements after those (an order's events never touch another order's rows).
 */
const orderEvents: Gatherer<OrderEvent> = {
  async write(db, events) {
    const placed = new Map<string, FoldedOrder>();
    const earlier: Later[] = [];
    for (const e of events) {
      if (e.type === 'OrderPlaced') placed.set(e.data.orderId, new FoldedOrder(e.data));
      else {
        const folded = placed.get(e.data.orderId);
        if (folded) folded.apply(e);
        else earlier.push(e);
      }
    }
    if (placed.size > 0) {
      const folded = [...placed.values()];
      await writeOrders(
        db,
        folded.map((f) => f.order),
      );
      await writeItems(
        db,
        folded.flatMap((f) => f.items),
      );
    }
    for (const e of earlier) await applyOne(db, e);
  },
};

const gathered = (db: unknown, e: { type: string; data: unknown }) => ({
  gather: orderEvents as Gatherer<unknown>,
  row: { type: e.type, data: e.data },
});

/** Orders and their items, for the supplier-scoped order reads and the operator's. */
export const ordersProjection = projector<OrderEvent>({
  name: 'orders',
  version: 2,
  tables: ['orders', 'order_items'],
  ddl: (s) => `
    create table ${s}.orders (
      id text primary key,
      status text not null,
      buyer_country text not null,
      supplier_ids text[] not null,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      authorized_at timestamptz,
      paid_at timestamptz,
      completed_at timestamptz,
      updated_at timestamptz not null
    );
    create table ${s}.order_items (
      id text primary key,
      order_id text not null,
      position integer not null,
      product_id text not null,
      offer_id text not null,
      supplier_id text not null,
      external_ref text not null,
      quantity integer not null,
      unit_price bigint not null,
      gross bigint not null,
      commission bigint not null,
      net bigint not null,
      status text not null,
      source text not null,
      reservation_id text,
      inventory_item_ids text[] not null,
      topup jsonb,
      delivered_at timestamptz,
      created_at timestamptz not null
    );
    create index on ${s}.order_items (order_id, position);
    create index on ${s}.order_items (supplier_id, order_id);
    create index on ${s}.order_items (offer_id);`,
  handlers: {
    OrderPlaced: gathered,
    OrderPaymentAuthorized: gathered,
    OrderItemDelivered: gathered,
    OrderPaid: gathered,
    OrderExpired: gathered,
    OrderRefunded: gathered,
    OrderDisputed: gathered,
    OrderItemReservationRenewed: gathered,
    OrderItemCancelled: gathered,
    OrderItemRerouted: gathered,
    OrderCancelled: gathered,
    OrderItemTopupRevalidated: gathered,
    OrderItemTopupCompleted: gathered,
    OrderItemTopupFailed: gathered,
  },
});
