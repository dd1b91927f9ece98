import type { OrderEvent } from '../domain/order.js';
import { FoldedOrder } from './order-rows.js';
import { applyInRounds, type Later, writeItems, writeOrders } from './order-statements.js';
import { type Gatherer, gatheredBy, projector } from './projector.js';

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
    await applyInRounds(db, earlier);
  },
};

const gathered = gatheredBy(orderEvents);

/** Orders and their items, for the supplier-scoped order reads and the operator's. */
export const ordersProjection = projector<OrderEvent>({
  name: 'orders',
  // 3: items carry the date of their first dispute
  version: 3,
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
      disputed_at timestamptz,
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
