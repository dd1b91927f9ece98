import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { OrderState } from '../domain/order.js';
import { iso, Money, Timestamp } from './values.js';
import { eur } from '../domain/money.js';

export const OrderItem = z
  .object({
    id: z.string(),
    product_id: z.string(),
    offer_id: z.string(),
    external_ref: z.string(),
    quantity: z.number().int(),
    unit_price: Money,
    gross: Money,
    commission: Money,
    net: Money,
    status: z.enum(['reserved', 'delivered', 'released', 'refunded', 'cancelled']),
    fulfilment: z.object({
      source: z.enum(['uploaded', 'declared', 'topup']),
      reservation_id: z.string().nullable(),
      inventory_item_ids: z.array(z.string()),
      operation_id: z.string().optional().describe('top-up only'),
      account_label: z.string().optional().describe('top-up only: the account the supplier validated'),
      receipt_ref: z.string().nullable().optional().describe('top-up only, once executed'),
    }),
    delivered_at: Timestamp.nullable(),
    disputed_at: Timestamp.nullable().describe(
      'when the buyer first disputed this item (order.disputed); a dispute alone changes no status or money',
    ),
  })
  .meta({ id: 'OrderItem' });

export const Order = z
  .object({
    id: z.string(),
    number: z.string().describe('SVC-<order_id>'),
    status: z.enum(['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled']),
    buyer_country: z.string(),
    currency: z.literal('EUR'),
    created_at: Timestamp,
    paid_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    expires_at: Timestamp,
    items: z.array(OrderItem),
    totals: z.object({ gross: Money, commission: Money, net: Money }),
  })
  .meta({ id: 'Order', description: 'Supplier-scoped: only your items, totals over them' });

export type OrderResource = z.infer<typeof Order>;

interface ItemSnapshot {
  id: string;
  productId: string;
  offerId: string;
  supplierId: string;
  externalRef: string;
  quantity: number;
  unitPrice: number;
  gross: number;
  commission: number;
  net: number;
  status: OrderResource['items'][number]['status'];
  source: 'uploaded' | 'declared' | 'topup';
  reservationId: string | null;
  inventoryItemIds: string[];
  deliveredAt: string | null;
  disputedAt?: string | null;
  topup?: { operationId: string; accountLabel: string; receiptRef: string | null } | null;
}

interface OrderSnapshot {
  id: string;
  status: OrderResource['status'];
  buyerCountry: string;
  createdAt: string;
  paidAt: string | null;
  completedAt: string | null;
  expiresAt: string;
  items: ItemSnapshot[];
}

/**
 * The order's status as one supplier sees it, from its own items: `refunded` when a refund
 * covered every one of them (items rerouted away do not count), `partially_refunded` when
 * it covered some, and the order's own status otherwise, except that a refund of other
 * suppliers' items does not show: their order stays `completed` (or `paid` while one of
 * their items is still being provisioned). `GET /orders?status=` filters on the same rule
 * (src/http/orders.ts).
 */
export const scopedStatus = (
  orderStatus: OrderResource['status'],
  items: { status: ItemSnapshot['status'] }[],
): OrderResource['status'] => {
  const refunded = items.filter((i) => i.status === 'refunded').length;
  const open = items.filter((i) => i.status !== 'refunded' && i.status !== 'cancelled').length;
  if (refunded > 0) return open === 0 ? 'refunded' : 'partially_refunded';
  if (orderStatus === 'refunded' || orderStatus === 'partially_refunded')
    return items.some((i) => i.status === 'reserved') ? 'paid' : 'completed';
  return orderStatus;
};

/**
 * One supplier's view of an order: its items only, totals over them, and its own status
 * (scopedStatus). `supplierId` undefined gives the whole order (the operator's view).
 */
const toResource = (o: OrderSnapshot, supplierId?: string): OrderResource => {
  const items = supplierId ? o.items.filter((i) => i.supplierId === supplierId) : o.items;
  const status = scopedStatus(o.status, items);
  // a cancelled item (rerouted away, or never delivered) is not charged
  const sum = (k: 'gross' | 'commission' | 'net') =>
    eur(items.filter((i) => i.status !== 'cancelled').reduce((s, i) => s + i[k], 0));
  return {
    id: o.id,
    number: `SVC-${o.id}`,
    status,
    buyer_country: o.buyerCountry,
    currency: 'EUR',
    created_at: o.createdAt,
    paid_at: o.paidAt,
    completed_at: o.completedAt,
    expires_at: o.expiresAt,
    items: items.map((i) => ({
      id: i.id,
      product_id: i.productId,
      offer_id: i.offerId,
      external_ref: i.externalRef,
      quantity: i.quantity,
      unit_price: eur(i.unitPrice),
      gross: eur(i.gross),
      commission: eur(i.commission),
      net: eur(i.net),
      status: i.status,
      fulfilment: {
        source: i.source,
        reservation_id: i.reservationId,
        inventory_item_ids: i.inventoryItemIds,
        ...(i.topup && {
          operation_id: i.topup.operationId,
          account_label: i.topup.accountLabel,
          receipt_ref: i.topup.receiptRef,
        }),
      },
      delivered_at: i.deliveredAt,
      disputed_at: i.disputedAt ?? null,
    })),
    totals: { gross: sum('gross'), commission: sum('commission'), net: sum('net') },
  };
};

/** After a write: from the Order aggregate. */
export const orderFromState = (o: OrderState, supplierId?: string): OrderResource =>
  toResource(
    {
      id: o.id,
      status: o.status,
      buyerCountry: o.buyerCountry,
      createdAt: o.createdAt,
      paidAt: o.paidAt,
      completedAt: o.completedAt,
      expiresAt: o.expiresAt,
      items: o.items.map((i) => ({ ...i, id: i.orderItemId })),
    },
    supplierId,
  );

/** For reads: from the orders read model. Undefined when the supplier has no item in it. */
export const readOrders = async (
  db: Kysely<Database>,
  orderIds: string[],
  supplierId: string,
): Promise<Map<string, OrderResource>> => {
  const out = new Map<string, OrderResource>();
  if (orderIds.length === 0) return out;
  const [orders, items] = await Promise.all([
    db.selectFrom('orders').selectAll().where('id', 'in', orderIds).execute(),
    db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .where('supplier_id', '=', supplierId)
      .orderBy('position')
      .execute(),
  ]);
  for (const o of orders) {
    const mine = items.filter((i) => i.order_id === o.id);
    if (mine.length === 0) continue;
    out.set(
      o.id,
      toResource(
        {
          id: o.id,
          status: o.status as OrderSnapshot['status'],
          buyerCountry: o.buyer_country,
          createdAt: iso(o.created_at),
          paidAt: o.paid_at && iso(o.paid_at),
          completedAt: o.completed_at && iso(o.completed_at),
          expiresAt: iso(o.expires_at),
          items: mine.map((i) => ({
            id: i.id,
            productId: i.product_id,
            offerId: i.offer_id,
            supplierId: i.supplier_id,
            externalRef: i.external_ref,
            quantity: i.quantity,
            unitPrice: i.unit_price,
            gross: i.gross,
            commission: i.commission,
            net: i.net,
            status: i.status as ItemSnapshot['status'],
            source: i.source as ItemSnapshot['source'],
            reservationId: i.reservation_id,
            inventoryItemIds: i.inventory_item_ids,
            topup: i.topup,
            deliveredAt: i.delivered_at && iso(i.delivered_at),
            disputedAt: i.disputed_at && iso(i.disputed_at),
          })),
        },
        supplierId,
      ),
    );
  }
  return out;
};
