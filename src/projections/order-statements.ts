import { type Kysely, type RawBuilder, sql, type UpdateObject } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OrderEvent, OrderItem } from '../domain/order.js';
import { itemRow, type OrderItemRow, type OrderRow } from './order-rows.js';

/** Rows per insert: well below PostgreSQL's 65,535 parameters at 19 columns. */
const CHUNK = 1000;

const chunks = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, k) => rows.slice(k * CHUNK, (k + 1) * CHUNK));

export const writeOrders = async (db: Kysely<Database>, rows: OrderRow[]) => {
  for (const part of chunks(rows)) await db.insertInto('orders').values(part).execute();
};

export const writeItems = async (
  db: Kysely<Database>,
  rows: (Omit<OrderItemRow, 'position'> & { position: number | RawBuilder<number> })[],
) => {
  for (const part of chunks(rows))
    await db
      .insertInto('order_items')
      .values(part.map((r) => ({ ...r, topup: r.topup && JSON.stringify(r.topup) })))
      .execute();
};

/** An event of an order after it was placed. */
export type Later = Exclude<OrderEvent, { type: 'OrderPlaced' }>;

/** Items added to an order placed in an earlier batch (a reroute): after the ones it has. */
const insertItems = (db: Kysely<Database>, orderId: string, items: OrderItem[], at: string) =>
  // counted by the insert itself (it sees the rows from before it): the batch's statements
  // travel together, so none of them reads a result back
  writeItems(
    db,
    items.map((i, k) => ({
      ...itemRow(orderId, i, 0, at),
      position: sql<number>`(select count(*)::int from order_items where order_id = ${orderId}) + ${k}::int`,
    })),
  );

const setItem = (db: Kysely<Database>, orderItemId: string, values: UpdateObject<Database, 'order_items'>) =>
  db.updateTable('order_items').set(values).where('id', '=', orderItemId).execute();

/** An order whose status is derived again at `at`; `paid`: the capture, recorded by the same statement. */
interface Refresh {
  id: string;
  at: string;
  paid: string | null;
}

/**
 * The orders' status from their items, as the Order aggregate derives it: placed until
 * capture; after capture `paid` while a top-up still runs, then completed, or
 * (partially) refunded. One statement for any number of orders, each named once.
 * (src/projections/order-rows.ts derives the same in memory: change both together.)
 */
const refreshStatus = (db: Kysely<Database>, orders: Refresh[]) =>
  sql`
    update orders o set updated_at = v.at, paid_at = coalesce(v.paid, o.paid_at), status = case
      when o.status in ('expired', 'cancelled') then o.status
      when coalesce(v.paid, o.paid_at) is null then 'placed'
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'refunded') then
        case when exists (select 1 from order_items i where i.order_id = o.id and i.status not in ('refunded', 'cancelled'))
          then 'partially_refunded' else 'refunded' end
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then 'paid'
      else 'completed' end,
    completed_at = case
      when o.completed_at is null and coalesce(v.paid, o.paid_at) is not null
        and not exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then v.at
      else o.completed_at end
    from jsonb_to_recordset(${JSON.stringify(orders)}::jsonb) as v(id text, at timestamptz, paid timestamptz)
    where o.id = v.id`.execute(db);

const refreshOne = (db: Kysely<Database>, orderId: string, at: string) =>
  refreshStatus(db, [{ id: orderId, at, paid: null }]);

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
    await refreshOne(db, d.orderId, d.at);
  },
  OrderPaid: (db, d) => refreshStatus(db, [{ id: d.orderId, at: d.at, paid: d.at }]),
  OrderExpired: async (db, d) => {
    await db.updateTable('orders').set({ status: 'expired', updated_at: d.at }).where('id', '=', d.orderId).execute();
    await db.updateTable('order_items').set({ status: 'released' }).where('order_id', '=', d.orderId).execute();
  },
  OrderRefunded: async (db, d) => {
    const ids = d.items.map((i) => i.orderItemId);
    await db.updateTable('order_items').set({ status: 'refunded' }).where('id', 'in', ids).execute();
    await refreshOne(db, d.orderId, d.at);
  },
  OrderDisputed: async (db, d) => {
    // the first dispute of an item is its date; a later one changes nothing of it
    if (d.orderItemIds.length > 0)
      await db
        .updateTable('order_items')
        .set({ disputed_at: d.at })
        .where('id', 'in', d.orderItemIds)
        .where('disputed_at', 'is', null)
        .execute();
    await db.updateTable('orders').set({ updated_at: d.at }).where('id', '=', d.orderId).execute();
  },
  OrderItemReservationRenewed: (db, d) => setItem(db, d.orderItemId, { reservation_id: d.reservationId }),
  OrderItemCancelled: async (db, d) => {
    await setItem(db, d.orderItemId, { status: 'cancelled' });
    await refreshOne(db, d.orderId, d.at);
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
    await refreshOne(db, d.orderId, d.at);
  },
  OrderItemTopupFailed: async (db, d) => {
    await setItem(db, d.orderItemId, { status: 'cancelled' });
    await refreshOne(db, d.orderId, d.at);
  },
};

const applyOne = (db: Kysely<Database>, e: Later) =>
  (earlierStatements[e.type] as ((db: Kysely<Database>, d: Later['data']) => Promise<unknown>) | undefined)?.(
    db,
    e.data,
  );

/**
 * The events of orders placed in earlier batches, in rounds: each round takes the next
 * event of every order, so no order is named twice in a round and the orders' rows are
 * independent of each other. The frequent events of a round are written with one
 * statement per kind for all its orders (authorized; delivered items; then one status
 * refresh for the delivered and the paid), the others one by one. Per order, the events
 * keep their order, so the rows are those of applying them one at a time.
 */
export const applyInRounds = async (db: Kysely<Database>, events: Later[]): Promise<void> => {
  const queues = new Map<string, Later[]>();
  for (const e of events) {
    const queue = queues.get(e.data.orderId);
    if (queue) queue.push(e);
    else queues.set(e.data.orderId, [e]);
  }
  for (let round = 0; queues.size > 0; round++) {
    const now: Later[] = [];
    for (const [orderId, queue] of queues) {
      now.push(queue[round]!);
      if (queue.length === round + 1) queues.delete(orderId);
    }
    await applyRound(db, now);
  }
};

const applyRound = async (db: Kysely<Database>, events: Later[]) => {
  const authorized: { id: string; at: string }[] = [];
  const delivered: { id: string; ids: string[]; at: string }[] = [];
  const refreshed: Refresh[] = [];
  for (const e of events) {
    if (e.type === 'OrderPaymentAuthorized') authorized.push({ id: e.data.orderId, at: e.data.at });
    else if (e.type === 'OrderItemDelivered') {
      delivered.push({ id: e.data.orderItemId, ids: e.data.inventoryItemIds, at: e.data.at });
      refreshed.push({ id: e.data.orderId, at: e.data.at, paid: null });
    } else if (e.type === 'OrderPaid') refreshed.push({ id: e.data.orderId, at: e.data.at, paid: e.data.at });
    else await applyOne(db, e);
  }
  if (authorized.length > 0)
    await sql`update orders o set authorized_at = v.at, updated_at = v.at
      from jsonb_to_recordset(${JSON.stringify(authorized)}::jsonb) as v(id text, at timestamptz)
      where o.id = v.id`.execute(db);
  if (delivered.length > 0)
    await sql`update order_items i set status = 'delivered', inventory_item_ids = v.ids, delivered_at = v.at
      from jsonb_to_recordset(${JSON.stringify(delivered)}::jsonb) as v(id text, ids text[], at timestamptz)
      where i.id = v.id`.execute(db);
  if (refreshed.length > 0) await refreshStatus(db, refreshed);
};
