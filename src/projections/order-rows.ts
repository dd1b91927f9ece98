import type { Selectable } from 'kysely';
import type { OrderItemTable, OrderTable } from '../db/schema.js';
import type { OrderEvent, OrderItem } from '../domain/order.js';

/** A column as the fold holds it: a timestamp as the events' ISO string. */
type Held<T> = T extends Date ? string : T;

/** A row of `orders` as the projection writes it. */
export type OrderRow = { [K in keyof OrderTable]: Held<Selectable<OrderTable>[K]> };

/** A row of `order_items` as the projection writes it (the top-up as an object, stored as jsonb). */
export type OrderItemRow = { [K in keyof OrderItemTable]: Held<Selectable<OrderItemTable>[K]> };

export const itemRow = (orderId: string, i: OrderItem, position: number, at: string): OrderItemRow => ({
  id: i.orderItemId,
  order_id: orderId,
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
  inventory_item_ids: i.inventoryItemIds,
  topup: i.topup
    ? { operationId: i.topup.operationId, accountLabel: i.topup.accountLabel, receiptRef: i.topup.receiptRef }
    : null,
  delivered_at: i.deliveredAt,
  disputed_at: i.disputedAt ?? null,
  created_at: at,
});

/**
 * An order placed within the batch being applied, folded in memory from its events into
 * the rows the projection's statements would have left (src/projections/orders.ts writes
 * them with one insert per table for the whole batch). Each step mirrors the SQL of the
 * event's handler, `refresh` the status statement (`refreshStatus`), so the rows are the
 * same whether the events come in one batch or one at a time.
 */
export class FoldedOrder {
  readonly order: OrderRow;
  readonly items: OrderItemRow[];

  constructor(placed: Extract<OrderEvent, { type: 'OrderPlaced' }>['data']) {
    this.order = {
      id: placed.orderId,
      status: 'placed',
      buyer_country: placed.buyerCountry,
      supplier_ids: placed.supplierIds,
      expires_at: placed.expiresAt,
      created_at: placed.at,
      authorized_at: null,
      paid_at: null,
      completed_at: null,
      updated_at: placed.at,
    };
    this.items = placed.items.map((i, k) => itemRow(placed.orderId, i, k, placed.at));
  }

  apply(e: Exclude<OrderEvent, { type: 'OrderPlaced' }>): void {
    const o = this.order;
    switch (e.type) {
      case 'OrderPaymentAuthorized':
        o.authorized_at = e.data.at;
        o.updated_at = e.data.at;
        return;
      case 'OrderItemDelivered':
        this.setItem(e.data.orderItemId, {
          status: 'delivered',
          inventory_item_ids: e.data.inventoryItemIds,
          delivered_at: e.data.at,
        });
        return this.refresh(e.data.at);
      case 'OrderPaid':
        o.paid_at = e.data.at;
        return this.refresh(e.data.at);
      case 'OrderExpired':
        o.status = 'expired';
        o.updated_at = e.data.at;
        for (const i of this.items) i.status = 'released';
        return;
      case 'OrderRefunded':
        for (const r of e.data.items) this.setItem(r.orderItemId, { status: 'refunded' });
        return this.refresh(e.data.at);
      case 'OrderDisputed':
        for (const id of e.data.orderItemIds)
          if (!this.items.find((i) => i.id === id)?.disputed_at) this.setItem(id, { disputed_at: e.data.at });
        o.updated_at = e.data.at;
        return;
      case 'OrderItemReservationRenewed':
        return this.setItem(e.data.orderItemId, { reservation_id: e.data.reservationId });
      case 'OrderItemCancelled':
      case 'OrderItemTopupFailed':
        this.setItem(e.data.orderItemId, { status: 'cancelled' });
        return this.refresh(e.data.at);
      case 'OrderItemRerouted':
        this.items.push(itemRow(o.id, e.data.item, this.items.length, e.data.at));
        o.supplier_ids = [...new Set(this.items.map((i) => i.supplier_id))].sort();
        return;
      case 'OrderCancelled':
        o.status = 'cancelled';
        o.updated_at = e.data.at;
        return;
      case 'OrderItemTopupRevalidated':
        return this.setTopup(e.data.orderItemId, {
          operationId: e.data.operationId,
          accountLabel: e.data.accountLabel,
        });
      case 'OrderItemTopupCompleted':
        this.setItem(e.data.orderItemId, { status: 'delivered', delivered_at: e.data.at });
        this.setTopup(e.data.orderItemId, { receiptRef: e.data.receiptRef });
        return this.refresh(e.data.at);
    }
  }

  private setItem(id: string, values: Partial<OrderItemRow>): void {
    const item = this.items.find((i) => i.id === id);
    if (item) Object.assign(item, values);
  }

  /** jsonb_set on a null topup leaves it null, as here. */
  private setTopup(id: string, values: Partial<NonNullable<OrderItemRow['topup']>>): void {
    const item = this.items.find((i) => i.id === id);
    if (item?.topup) item.topup = { ...item.topup, ...values };
  }

  /** The order's status from its items, as `refreshStatus` derives it in SQL. */
  private refresh(at: string): void {
    const o = this.order;
    const has = (status: string) => this.items.some((i) => i.status === status);
    o.updated_at = at;
    if (o.status !== 'expired' && o.status !== 'cancelled') {
      if (o.paid_at === null) o.status = 'placed';
      else if (has('refunded'))
        o.status = this.items.some((i) => i.status !== 'refunded' && i.status !== 'cancelled')
          ? 'partially_refunded'
          : 'refunded';
      else o.status = has('reserved') ? 'paid' : 'completed';
    }
    if (o.completed_at === null && o.paid_at !== null && !has('reserved')) o.completed_at = at;
  }
}
