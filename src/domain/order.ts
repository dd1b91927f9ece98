import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import { itemAmounts } from './money.js';

/** Order statuses: the spec shows `completed` and `expired`; the rest follow its state table. */
export type OrderStatus = 'placed' | 'paid' | 'completed' | 'expired' | 'refunded' | 'partially_refunded';
export type OrderItemStatus = 'reserved' | 'delivered' | 'released' | 'refunded';

export interface OrderItem {
  orderItemId: string;
  productId: string;
  offerId: string;
  supplierId: string;
  externalRef: string;
  quantity: number;
  unitPrice: number;
  gross: number;
  commission: number;
  net: number;
  source: 'uploaded' | 'declared';
  reservationId: string | null;
  inventoryItemIds: string[];
  status: OrderItemStatus;
  deliveredAt: string | null;
}

export type PlacedItem = Omit<OrderItem, 'gross' | 'commission' | 'net' | 'status' | 'deliveredAt'>;

export interface RefundedItem {
  orderItemId: string;
  supplierId: string;
  gross: number;
  commission: number;
  net: number;
}

export type OrderEvent =
  | {
      type: 'OrderPlaced';
      data: { orderId: string; buyerCountry: string; items: OrderItem[]; supplierIds: string[]; expiresAt: string; at: string };
    }
  | { type: 'OrderPaymentAuthorized'; data: { orderId: string; supplierIds: string[]; at: string } }
  | { type: 'OrderItemDelivered'; data: { orderId: string; orderItemId: string; inventoryItemIds: string[]; at: string } }
  | { type: 'OrderPaid'; data: { orderId: string; supplierIds: string[]; at: string } }
  | { type: 'OrderExpired'; data: { orderId: string; supplierIds: string[]; at: string } }
  | { type: 'OrderRefunded'; data: { orderId: string; refundId: string; items: RefundedItem[]; supplierIds: string[]; at: string } }
  | { type: 'OrderDisputed'; data: { orderId: string; orderItemIds: string[]; reason: string | null; supplierIds: string[]; at: string } };

export type OrderCommand =
  | { type: 'PlaceOrder'; data: { orderId: string; buyerCountry: string; items: PlacedItem[]; expiresAt: string; now: string } }
  | { type: 'AuthorizePayment'; data: { now: string } }
  | { type: 'RecordDelivery'; data: { orderItemId: string; inventoryItemIds: string[]; now: string } }
  | { type: 'CapturePayment'; data: { now: string } }
  | { type: 'ExpireOrder'; data: { now: string } }
  | { type: 'RefundOrder'; data: { refundId: string; orderItemIds?: string[]; now: string } }
  | { type: 'DisputeOrder'; data: { orderItemIds?: string[]; reason: string | null; now: string } };

export interface OrderState {
  id: string;
  status: OrderStatus;
  buyerCountry: string;
  items: OrderItem[];
  expiresAt: string;
  createdAt: string;
  authorizedAt: string | null;
  paidAt: string | null;
  completedAt: string | null;
  updatedAt: string;
}

const suppliersOf = (items: { supplierId: string }[]) => [...new Set(items.map((i) => i.supplierId))].sort();

const refundStatus = (items: OrderItem[]): OrderStatus =>
  items.every((i) => i.status === 'refunded') ? 'refunded' : 'partially_refunded';

export const orderDecider: Decider<OrderState | null, OrderCommand, OrderEvent> = {
  initialState: null,

  evolve(state, event) {
    if (event.type === 'OrderPlaced') {
      const d = event.data;
      return {
        id: d.orderId,
        status: 'placed',
        buyerCountry: d.buyerCountry,
        items: d.items,
        expiresAt: d.expiresAt,
        createdAt: d.at,
        authorizedAt: null,
        paidAt: null,
        completedAt: null,
        updatedAt: d.at,
      };
    }
    if (!state) return state;
    const at = event.data.at;
    switch (event.type) {
      case 'OrderPaymentAuthorized':
        return { ...state, authorizedAt: at, updatedAt: at };
      case 'OrderItemDelivered':
        return {
          ...state,
          updatedAt: at,
          items: state.items.map((i) =>
            i.orderItemId === event.data.orderItemId ? { ...i, status: 'delivered', inventoryItemIds: event.data.inventoryItemIds, deliveredAt: at } : i,
          ),
        };
      case 'OrderPaid':
        // capture happens once every item is provisioned: the order is complete
        return { ...state, status: 'completed', paidAt: at, completedAt: at, updatedAt: at };
      case 'OrderExpired':
        return { ...state, status: 'expired', updatedAt: at, items: state.items.map((i) => ({ ...i, status: 'released' })) };
      case 'OrderRefunded': {
        const refunded = new Set(event.data.items.map((i) => i.orderItemId));
        const items = state.items.map((i) => (refunded.has(i.orderItemId) ? { ...i, status: 'refunded' as const } : i));
        return { ...state, items, status: refundStatus(items), updatedAt: at };
      }
      case 'OrderDisputed':
        return { ...state, updatedAt: at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    if (command.type === 'PlaceOrder') {
      if (state) return []; // a retried placement
      const { orderId, buyerCountry, items, expiresAt, now } = command.data;
      if (items.length === 0) throw new DomainError('validation_failed', 'an order needs at least one item');
      const priced: OrderItem[] = items.map((i) => {
        const { gross, commission, net } = itemAmounts(i.unitPrice, i.quantity);
        return { ...i, gross, commission, net, status: 'reserved', deliveredAt: null };
      });
      return [{ type: 'OrderPlaced', data: { orderId, buyerCountry, items: priced, supplierIds: suppliersOf(priced), expiresAt, at: now } }];
    }
    if (!state) throw new DomainError('not_found', 'order not found');
    const orderId = state.id;
    const supplierIds = suppliersOf(state.items);
    switch (command.type) {
      case 'AuthorizePayment': {
        const { now } = command.data;
        if (state.authorizedAt) return [];
        if (state.status !== 'placed') throw new DomainError('invalid_state', `order ${orderId} is ${state.status}`);
        if (new Date(now).getTime() >= new Date(state.expiresAt).getTime())
          throw new DomainError('invalid_state', `order ${orderId} expired at ${state.expiresAt}; its reservation is gone`);
        return [{ type: 'OrderPaymentAuthorized', data: { orderId, supplierIds, at: now } }];
      }
      case 'RecordDelivery': {
        const item = state.items.find((i) => i.orderItemId === command.data.orderItemId);
        if (!item) throw new DomainError('not_found', `order item ${command.data.orderItemId} not found`);
        if (item.status === 'delivered') return [];
        if (!state.authorizedAt || item.status !== 'reserved') throw new DomainError('invalid_state', `order item ${item.orderItemId} is ${item.status}`);
        return [{ type: 'OrderItemDelivered', data: { orderId, orderItemId: item.orderItemId, inventoryItemIds: command.data.inventoryItemIds, at: command.data.now } }];
      }
      case 'CapturePayment': {
        if (state.paidAt) return [];
        if (!state.authorizedAt) throw new DomainError('invalid_state', `order ${orderId} has no authorized payment`);
        const pending = state.items.filter((i) => i.status !== 'delivered');
        if (pending.length > 0) throw new DomainError('invalid_state', `${pending.length} item(s) not yet provisioned`);
        return [{ type: 'OrderPaid', data: { orderId, supplierIds, at: command.data.now } }];
      }
      case 'ExpireOrder':
        if (state.status !== 'placed' || state.authorizedAt) return [];
        if (new Date(command.data.now).getTime() < new Date(state.expiresAt).getTime()) return [];
        return [{ type: 'OrderExpired', data: { orderId, supplierIds, at: command.data.now } }];
      case 'RefundOrder': {
        const { refundId, orderItemIds, now } = command.data;
        if (!state.paidAt) throw new DomainError('invalid_state', `order ${orderId} is ${state.status}; only paid orders can be refunded`);
        const chosen = pickItems(state, orderItemIds).filter((i) => i.status !== 'refunded');
        if (chosen.length === 0) return [];
        const items = chosen.map((i) => ({ orderItemId: i.orderItemId, supplierId: i.supplierId, gross: i.gross, commission: i.commission, net: i.net }));
        return [{ type: 'OrderRefunded', data: { orderId, refundId, items, supplierIds: suppliersOf(items), at: now } }];
      }
      case 'DisputeOrder': {
        const { orderItemIds, reason, now } = command.data;
        if (!state.paidAt) throw new DomainError('invalid_state', `order ${orderId} is ${state.status}; only paid orders can be disputed`);
        const chosen = pickItems(state, orderItemIds);
        return [
          { type: 'OrderDisputed', data: { orderId, orderItemIds: chosen.map((i) => i.orderItemId), reason, supplierIds: suppliersOf(chosen), at: now } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

const pickItems = (state: OrderState, orderItemIds: string[] | undefined): OrderItem[] => {
  if (!orderItemIds) return state.items;
  const unknown = orderItemIds.filter((id) => !state.items.some((i) => i.orderItemId === id));
  if (unknown.length > 0)
    throw new DomainError('validation_failed', `unknown order item(s): ${unknown.join(', ')}`, {
      errors: unknown.map((id) => ({ field: 'body.item_ids', message: `no item ${id} in this order` })),
    });
  return state.items.filter((i) => orderItemIds.includes(i.orderItemId));
};
