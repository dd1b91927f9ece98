import { type Kysely, sql, type UpdateObject } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OrderEvent, OrderItem } from '../domain/order.js';
import { projector } from './projector.js';

const insertItems = async (db: Kysely<Database>, orderId: string, items: OrderItem[], at: string) => {
  if (items.length === 0) return;
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from order_items where order_id = ${orderId}`.execute(db);
  const first = rows[0]?.n ?? 0;
  await db
    .insertInto('order_items')
    .values(
      items.map((i, k) => ({
        id: i.orderItemId,
        order_id: orderId,
        position: first + k,
        product_id: i.productId,
        offer_id: i.offerId,
        supplier_id: i.supplierId,
        external_ref: i.externalRef,
        quantity: i.quantity,
        unit_price: i.unitPrice,
        gross: i.gross,
        commission: i.commission,
        net: i.net,
        status: i.status,
        source: i.source,
        reservation_id: i.reservationId,
        inventory_item_ids: i.inventoryItemIds,
        topup: i.topup
          ? JSON.stringify({
              operationId: i.topup.operationId,
              accountLabel: i.topup.accountLabel,
              receiptRef: i.topup.receiptRef,
            })
          : null,
        delivered_at: i.deliveredAt,
        created_at: at,
      })),
    )
    .execute();
};

const setItem = (db: Kysely<Database>, orderItemId: string, values: UpdateObject<Database, 'order_items'>) =>
  db.updateTable('order_items').set(values).where('id', '=', orderItemId).execute();

/**
 * The order's status from its items, as the Order aggregate derives it: placed until
 * capture; after capture `paid` while a top-up still runs, then completed, or
 * (partially) refunded.
 */
const refreshStatus = (db: Kysely<Database>, orderId: string, at: string) =>
  sql`
    update orders o set updated_at = ${at}, status = case
      when o.status in ('expired', 'cancelled') then o.status
      when o.paid_at is null then 'placed'
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'refunded') then
        case when exists (select 1 from order_items i where i.order_id = o.id and i.status not in ('refunded', 'cancelled'))
          then 'partially_refunded' else 'refunded' end
      when exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then 'paid'
      else 'completed' end,
    completed_at = case
      when o.completed_at is null and o.paid_at is not null
        and not exists (select 1 from order_items i where i.order_id = o.id and i.status = 'reserved') then ${at}::timestamptz
      else o.completed_at end
    where o.id = ${orderId}`.execute(db);

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
    OrderPlaced: async (db, e) => {
      const d = e.data;
      await db
        .insertInto('orders')
        .values({
          id: d.orderId,
          status: 'placed',
          buyer_country: d.buyerCountry,
          supplier_ids: d.supplierIds,
          expires_at: d.expiresAt,
          created_at: d.at,
          authorized_at: null,
          paid_at: null,
          completed_at: null,
          updated_at: d.at,
        })
        .execute();
      await insertItems(db, d.orderId, d.items, d.at);
    },
    OrderPaymentAuthorized: (db, e) =>
      db
        .updateTable('orders')
        .set({ authorized_at: e.data.at, updated_at: e.data.at })
        .where('id', '=', e.data.orderId),
    OrderItemDelivered: async (db, e) => {
      await setItem(db, e.data.orderItemId, {
        status: 'delivered',
        inventory_item_ids: e.data.inventoryItemIds,
        delivered_at: e.data.at,
      });
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
    OrderPaid: async (db, e) => {
      await db.updateTable('orders').set({ paid_at: e.data.at }).where('id', '=', e.data.orderId).execute();
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
    OrderExpired: async (db, e) => {
      await db
        .updateTable('orders')
        .set({ status: 'expired', updated_at: e.data.at })
        .where('id', '=', e.data.orderId)
        .execute();
      await db.updateTable('order_items').set({ status: 'released' }).where('order_id', '=', e.data.orderId).execute();
    },
    OrderRefunded: async (db, e) => {
      await db
        .updateTable('order_items')
        .set({ status: 'refunded' })
        .where(
          'id',
          'in',
          e.data.items.map((i) => i.orderItemId),
        )
        .execute();
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
    OrderDisputed: (db, e) => db.updateTable('orders').set({ updated_at: e.data.at }).where('id', '=', e.data.orderId),
    OrderItemReservationRenewed: (db, e) => setItem(db, e.data.orderItemId, { reservation_id: e.data.reservationId }),
    OrderItemCancelled: async (db, e) => {
      await setItem(db, e.data.orderItemId, { status: 'cancelled' });
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
    OrderItemRerouted: async (db, e) => {
      await insertItems(db, e.data.orderId, [e.data.item], e.data.at);
      await db
        .updateTable('orders')
        .set({
          supplier_ids: sql`(select array_agg(distinct supplier_id order by supplier_id) from order_items where order_id = ${e.data.orderId})`,
        })
        .where('id', '=', e.data.orderId)
        .execute();
    },
    OrderCancelled: (db, e) =>
      db.updateTable('orders').set({ status: 'cancelled', updated_at: e.data.at }).where('id', '=', e.data.orderId),
    OrderItemTopupRevalidated: (db, e) =>
      setItem(db, e.data.orderItemId, {
        topup: sql`jsonb_set(jsonb_set(topup, '{operationId}', to_jsonb(${e.data.operationId}::text)), '{accountLabel}', to_jsonb(${e.data.accountLabel}::text))`,
      }),
    OrderItemTopupCompleted: async (db, e) => {
      await setItem(db, e.data.orderItemId, {
        status: 'delivered',
        delivered_at: e.data.at,
        topup: sql`jsonb_set(topup, '{receiptRef}', to_jsonb(${e.data.receiptRef}::text))`,
      });
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
    OrderItemTopupFailed: async (db, e) => {
      await setItem(db, e.data.orderItemId, { status: 'cancelled' });
      await refreshStatus(db, e.data.orderId, e.data.at);
    },
  },
});
