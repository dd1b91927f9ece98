import type { OrderEvent } from '../domain/order.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { projector } from './projector.js';

type O<T extends OrderEvent['type']> = RecordedEvent<Extract<OrderEvent, { type: T }>['data']>;

/** Orders and their items, for the supplier-scoped order reads and the operator's. */
export const ordersProjection = projector({
  name: 'orders',
  version: 1,
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
      delivered_at timestamptz,
      created_at timestamptz not null
    );
    create index on ${s}.order_items (order_id, position);
    create index on ${s}.order_items (supplier_id, order_id);
    create index on ${s}.order_items (offer_id);`,
  handlers: {
    OrderPlaced: async (db, e: O<'OrderPlaced'>) => {
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
      await db
        .insertInto('order_items')
        .values(
          d.items.map((i, position) => ({
            id: i.orderItemId,
            order_id: d.orderId,
            position,
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
            inventory_item_ids: [],
            delivered_at: null,
            created_at: d.at,
          })),
        )
        .execute();
    },
    OrderPaymentAuthorized: (db, e: O<'OrderPaymentAuthorized'>) =>
      db.updateTable('orders').set({ status: 'paid', authorized_at: e.data.at, updated_at: e.data.at }).where('id', '=', e.data.orderId),
    OrderItemDelivered: (db, e: O<'OrderItemDelivered'>) =>
      db
        .updateTable('order_items')
        .set({ status: 'delivered', inventory_item_ids: e.data.inventoryItemIds, delivered_at: e.data.at })
        .where('id', '=', e.data.orderItemId),
    OrderPaid: (db, e: O<'OrderPaid'>) =>
      db
        .updateTable('orders')
        .set({ status: 'completed', paid_at: e.data.at, completed_at: e.data.at, updated_at: e.data.at })
        .where('id', '=', e.data.orderId),
    OrderExpired: async (db, e: O<'OrderExpired'>) => {
      await db.updateTable('orders').set({ status: 'expired', updated_at: e.data.at }).where('id', '=', e.data.orderId).execute();
      await db.updateTable('order_items').set({ status: 'released' }).where('order_id', '=', e.data.orderId).execute();
    },
    OrderRefunded: async (db, e: O<'OrderRefunded'>) => {
      const ids = e.data.items.map((i) => i.orderItemId);
      await db.updateTable('order_items').set({ status: 'refunded' }).where('id', 'in', ids).execute();
      const open = await db
        .selectFrom('order_items')
        .select('id')
        .where('order_id', '=', e.data.orderId)
        .where('status', '!=', 'refunded')
        .executeTakeFirst();
      await db
        .updateTable('orders')
        .set({ status: open ? 'partially_refunded' : 'refunded', updated_at: e.data.at })
        .where('id', '=', e.data.orderId)
        .execute();
    },
    OrderDisputed: (db, e: O<'OrderDisputed'>) => db.updateTable('orders').set({ updated_at: e.data.at }).where('id', '=', e.data.orderId),
  },
});
