import type { Decider, CommandData } from './decider.js';
import { type EventData, evolveWith } from './evolvers.js';
import { assertNever, DomainError, invalidInput } from './errors.js';
import { itemAmounts } from './money.js';

/** Order statuses: the spec shows `completed` and `expired`; the rest follow its state table. */
export type OrderStatus = 'placed' | 'paid' | 'completed' | 'expired' | 'refunded' | 'partially_refunded' | 'cancelled';
export type OrderItemStatus = 'reserved' | 'delivered' | 'released' | 'refunded' | 'cancelled';
/** Where an item's goods come from: uploaded keys, the supplier's declared stock, or a top-up it executes. */
export type ItemSource = 'uploaded' | 'declared' | 'topup';

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
  source: ItemSource;
  reservationId: string | null;
  inventoryItemIds: string[];
  status: OrderItemStatus;
  deliveredAt: string | null;
  /** Declared stock: when POST /orders was first accepted; the allocation window runs from it. */
  supplierOrderedAt?: string | null;
  /** Rerouting: the cancelled item this one replaces (an item is replaced once). */
  replacesItemId?: string;
  /** When the buyer first disputed this item (informational: it changes no money by itself). */
  disputedAt?: string | null;
  /** Top-up: the validated operation (only the latest one is ever executed). */
  topup?: {
    operationId: string;
    accountLabel: string;
    formFields: Record<string, string>;
    validatedAt: string;
    receiptRef: string | null;
  } | null;
}

export type PlacedItem = Omit<OrderItem, 'gross' | 'commission' | 'net' | 'status' | 'deliveredAt'>;

export interface RefundedItem {
  orderItemId: string;
  supplierId: string;
  gross: number;
  commission: number;
  net: number;
  /** Delivered items had a sale posted; a failed top-up had none to reverse. */
  delivered: boolean;
}

export type OrderEvent =
  | {
      type: 'OrderPlaced';
      data: {
        orderId: string;
        buyerCountry: string;
        items: OrderItem[];
        supplierIds: string[];
        expiresAt: string;
        at: string;
      };
    }
  | {
      type: 'OrderPaymentAuthorized';
      /** `sources`: of the order's items then; events recorded before it was added have none. */
      data: { orderId: string; supplierIds: string[]; sources?: ItemSource[]; at: string };
    }
  | {
      type: 'OrderItemDelivered';
      data: { orderId: string; orderItemId: string; inventoryItemIds: string[]; at: string };
    }
  | { type: 'OrderPaid'; data: { orderId: string; supplierIds: string[]; sources?: ItemSource[]; at: string } }
  | { type: 'OrderExpired'; data: { orderId: string; supplierIds: string[]; at: string } }
  | {
      type: 'OrderRefunded';
      data: { orderId: string; refundId: string; items: RefundedItem[]; supplierIds: string[]; at: string };
    }
  | {
      type: 'OrderDisputed';
      data: { orderId: string; orderItemIds: string[]; reason: string | null; supplierIds: string[]; at: string };
    }
  | {
      type: 'OrderItemSupplierOrdered';
      data: {
        orderId: string;
        orderItemId: string;
        supplierStatus: 'accepted' | 'pending_stock';
        orderedAt: string;
        at: string;
      };
    }
  | {
      type: 'OrderItemReservationRenewed';
      data: { orderId: string; orderItemId: string; reservationId: string; at: string };
    }
  | {
      type: 'OrderItemCancelled';
      data: { orderId: string; orderItemId: string; offerId: string; supplierId: string; reason: string; at: string };
    }
  | { type: 'OrderItemRerouted'; data: { orderId: string; replacesItemId: string; item: OrderItem; at: string } }
  | { type: 'OrderCancelled'; data: { orderId: string; supplierIds: string[]; at: string } }
  | {
      type: 'OrderItemTopupRevalidated';
      data: { orderId: string; orderItemId: string; operationId: string; accountLabel: string; at: string };
    }
  | {
      type: 'OrderItemTopupCompleted';
      data: { orderId: string; orderItemId: string; operationId: string; receiptRef: string; at: string };
    }
  /** `stage: 'revalidation'`: the account failed its re-validation; no execute ever ran (no execute-failure penalty). */
  | {
      type: 'OrderItemTopupFailed';
      data: {
        orderId: string;
        orderItemId: string;
        operationId: string;
        code: string;
        message: string;
        stage?: 'revalidation';
        at: string;
      };
    };

export type OrderCommand =
  | {
      type: 'PlaceOrder';
      data: { orderId: string; buyerCountry: string; items: PlacedItem[]; expiresAt: string; now: string };
    }
  | { type: 'AuthorizePayment'; data: { now: string } }
  | { type: 'RecordDelivery'; data: { orderItemId: string; inventoryItemIds: string[]; now: string } }
  | { type: 'CapturePayment'; data: { now: string } }
  | { type: 'ExpireOrder'; data: { now: string } }
  | { type: 'RefundOrder'; data: { refundId: string; orderItemIds?: string[]; now: string } }
  | { type: 'DisputeOrder'; data: { orderItemIds?: string[]; reason: string | null; now: string } }
  | {
      type: 'RecordSupplierOrder';
      data: { orderItemId: string; supplierStatus: 'accepted' | 'pending_stock'; orderedAt: string; now: string };
    }
  | { type: 'RenewReservation'; data: { orderItemId: string; reservationId: string; now: string } }
  | { type: 'CancelItem'; data: { orderItemId: string; reason: string; now: string } }
  | { type: 'RerouteItem'; data: { replacesItemId: string; item: PlacedItem; now: string } }
  | { type: 'CancelOrder'; data: { now: string } }
  | { type: 'RevalidateTopup'; data: { orderItemId: string; operationId: string; accountLabel: string; now: string } }
  | { type: 'CompleteTopup'; data: { orderItemId: string; operationId: string; receiptRef: string; now: string } }
  | {
      type: 'FailTopup';
      data: {
        orderItemId: string;
        operationId: string;
        code: string;
        message: string;
        stage?: 'revalidation';
        now: string;
      };
    };

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
/** Which kinds of stock an order holds: the processes of declared stock and top-ups skip an order with none of theirs. */
const sourcesOf = (items: { source: ItemSource }[]) => [...new Set(items.map((i) => i.source))].sort();

/** After a refund: `refunded` once every item that was not cancelled (rerouted away) is refunded. */
const refundStatus = (items: OrderItem[]): OrderStatus =>
  items.every((i) => i.status === 'refunded' || i.status === 'cancelled') ? 'refunded' : 'partially_refunded';

const orderPlaced = (d: EventData<OrderEvent, 'OrderPlaced'>): OrderState => ({
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
});

/** Every event after the order's placement. */
const evolveLater = evolveWith<OrderState, Exclude<OrderEvent, { type: 'OrderPlaced' }>>({
  OrderPaymentAuthorized: (state, { at }) => ({ ...state, authorizedAt: at, updatedAt: at }),
  OrderItemDelivered: (state, { orderItemId, inventoryItemIds, at }) =>
    withItem(state, orderItemId, (i) => ({ ...i, status: 'delivered', inventoryItemIds, deliveredAt: at }), at),
  // capture follows provisioning of keys; top-ups still to execute keep it `paid`
  OrderPaid: (state, { at }) => settle({ ...state, status: 'paid', paidAt: at, updatedAt: at }, at),
  OrderExpired: (state, { at }) => ({
    ...state,
    status: 'expired',
    updatedAt: at,
    items: state.items.map((i) => ({ ...i, status: 'released' })),
  }),
  OrderRefunded: (state, { items: refundedItems, at }) => {
    const refunded = new Set(refundedItems.map((i) => i.orderItemId));
    const items = state.items.map((i) => (refunded.has(i.orderItemId) ? { ...i, status: 'refunded' as const } : i));
    return { ...state, items, status: refundStatus(items), updatedAt: at };
  },
  OrderDisputed: (state, { orderItemIds, at }) => {
    const disputed = new Set(orderItemIds);
    const items = state.items.map((i) => (disputed.has(i.orderItemId) ? { ...i, disputedAt: i.disputedAt ?? at } : i));
    return { ...state, items, updatedAt: at };
  },
  OrderItemSupplierOrdered: (state, { orderItemId, orderedAt, at }) =>
    withItem(state, orderItemId, (i) => ({ ...i, supplierOrderedAt: i.supplierOrderedAt ?? orderedAt }), at),
  OrderItemReservationRenewed: (state, { orderItemId, reservationId, at }) =>
    withItem(state, orderItemId, (i) => ({ ...i, reservationId, supplierOrderedAt: null }), at),
  OrderItemCancelled: (state, { orderItemId, at }) =>
    withItem(state, orderItemId, (i) => ({ ...i, status: 'cancelled' }), at),
  OrderItemRerouted: (state, { item, replacesItemId, at }) => ({
    ...state,
    items: [...state.items, { ...item, replacesItemId }],
    updatedAt: at,
  }),
  OrderCancelled: (state, { at }) => ({ ...state, status: 'cancelled', updatedAt: at }),
  OrderItemTopupRevalidated: (state, { orderItemId, operationId, accountLabel, at }) =>
    withItem(
      state,
      orderItemId,
      (i) => ({ ...i, topup: i.topup && { ...i.topup, operationId, accountLabel, validatedAt: at } }),
      at,
    ),
  OrderItemTopupCompleted: (state, { orderItemId, receiptRef, at }) =>
    settle(
      withItem(
        state,
        orderItemId,
        (i) => ({ ...i, status: 'delivered', deliveredAt: at, topup: i.topup && { ...i.topup, receiptRef } }),
        at,
      ),
      at,
    ),
  OrderItemTopupFailed: (state, { orderItemId, at }) =>
    settle(
      withItem(state, orderItemId, (i) => ({ ...i, status: 'cancelled' }), at),
      at,
    ),
});

export const orderDecider: Decider<OrderState | null, OrderCommand, OrderEvent> = {
  initialState: null,

  evolve(state, event) {
    if (event.type === 'OrderPlaced') return orderPlaced(event.data);
    return state && evolveLater(state, event);
  },

  decide(command, state) {
    if (command.type === 'PlaceOrder') return placeOrder(state, command.data);
    if (!state) throw new DomainError('not_found', 'order not found');
    switch (command.type) {
      case 'AuthorizePayment':
        return authorizePayment(state, command.data);
      case 'RecordDelivery':
        return recordDelivery(state, command.data);
      case 'CapturePayment':
        return capturePayment(state, command.data);
      case 'ExpireOrder':
        return expireOrder(state, command.data);
      case 'RefundOrder':
        return refundOrder(state, command.data);
      case 'DisputeOrder':
        return disputeOrder(state, command.data);
      case 'RecordSupplierOrder':
        return recordSupplierOrder(state, command.data);
      case 'RenewReservation':
        return renewReservation(state, command.data);
      case 'CancelItem':
        return cancelItem(state, command.data);
      case 'RerouteItem':
        return rerouteItem(state, command.data);
      case 'CancelOrder':
        return cancelOrder(state, command.data);
      case 'RevalidateTopup':
        return revalidateTopup(state, command.data);
      case 'CompleteTopup':
        return completeTopup(state, command.data);
      case 'FailTopup':
        return failTopup(state, command.data);
      default:
        return assertNever(command);
    }
  },
};

/** A paid order whose every item is resolved is complete. */
const settle = (state: OrderState, at: string): OrderState =>
  state.paidAt && state.status === 'paid' && state.items.every((i) => i.status !== 'reserved')
    ? { ...state, status: 'completed', completedAt: at }
    : state;

const findItem = (state: OrderState, orderItemId: string): OrderItem => {
  const item = state.items.find((i) => i.orderItemId === orderItemId);
  if (!item) throw new DomainError('not_found', `order item ${orderItemId} not found`);
  return item;
};

const withItem = (
  state: OrderState,
  orderItemId: string,
  change: (i: OrderItem) => OrderItem,
  at: string,
): OrderState => ({
  ...state,
  updatedAt: at,
  items: state.items.map((i) => (i.orderItemId === orderItemId ? change(i) : i)),
});

const pickItems = (state: OrderState, orderItemIds: string[] | undefined): OrderItem[] => {
  if (!orderItemIds) return state.items;
  const unknown = orderItemIds.filter((id) => !state.items.some((i) => i.orderItemId === id));
  if (unknown.length > 0)
    throw invalidInput(
      unknown.map((id) => ({ input: 'item_ids', message: `no item ${id} in this order` })),
      `unknown order item(s): ${unknown.join(', ')}`,
    );
  return state.items.filter((i) => orderItemIds.includes(i.orderItemId));
};

// ---- one function per command: what each decides, given the order as it stands

const placeOrder = (state: OrderState | null, data: CommandData<OrderCommand, 'PlaceOrder'>): OrderEvent[] => {
  if (state) return []; // a retried placement
  const { orderId, buyerCountry, items, expiresAt, now } = data;
  if (items.length === 0) throw new DomainError('validation_failed', 'an order needs at least one item');
  const priced: OrderItem[] = items.map((i) => {
    const { gross, commission, net } = itemAmounts(i.unitPrice, i.quantity);
    return { ...i, gross, commission, net, status: 'reserved', deliveredAt: null };
  });
  return [
    {
      type: 'OrderPlaced',
      data: { orderId, buyerCountry, items: priced, supplierIds: suppliersOf(priced), expiresAt, at: now },
    },
  ];
};

const authorizePayment = (state: OrderState, data: CommandData<OrderCommand, 'AuthorizePayment'>): OrderEvent[] => {
  const orderId = state.id;
  const supplierIds = suppliersOf(state.items);
  const { now } = data;
  if (state.authorizedAt) return [];
  if (state.status !== 'placed') throw new DomainError('invalid_state', `order ${orderId} is ${state.status}`);
  if (new Date(now).getTime() >= new Date(state.expiresAt).getTime())
    throw new DomainError('invalid_state', `order ${orderId} expired at ${state.expiresAt}; its reservation is gone`);
  return [{ type: 'OrderPaymentAuthorized', data: { orderId, supplierIds, sources: sourcesOf(state.items), at: now } }];
};

const recordDelivery = (state: OrderState, data: CommandData<OrderCommand, 'RecordDelivery'>): OrderEvent[] => {
  const orderId = state.id;
  const item = state.items.find((i) => i.orderItemId === data.orderItemId);
  if (!item) throw new DomainError('not_found', `order item ${data.orderItemId} not found`);
  if (item.status === 'delivered') return [];
  if (!state.authorizedAt || item.status !== 'reserved')
    throw new DomainError('invalid_state', `order item ${item.orderItemId} is ${item.status}`);
  return [
    {
      type: 'OrderItemDelivered',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        inventoryItemIds: data.inventoryItemIds,
        at: data.now,
      },
    },
  ];
};

const capturePayment = (state: OrderState, data: CommandData<OrderCommand, 'CapturePayment'>): OrderEvent[] => {
  const orderId = state.id;
  const supplierIds = suppliersOf(state.items);
  if (state.paidAt) return [];
  if (!state.authorizedAt) throw new DomainError('invalid_state', `order ${orderId} has no authorized payment`);
  // keys are provisioned before capture; top-ups are executed after it
  const pending = state.items.filter((i) => i.status === 'reserved' && i.source !== 'topup');
  if (pending.length > 0) throw new DomainError('invalid_state', `${pending.length} item(s) not yet provisioned`);
  if (!state.items.some((i) => i.status === 'delivered' || (i.status === 'reserved' && i.source === 'topup')))
    throw new DomainError('invalid_state', `order ${orderId} has nothing to capture`);
  return [{ type: 'OrderPaid', data: { orderId, supplierIds, sources: sourcesOf(state.items), at: data.now } }];
};

const expireOrder = (state: OrderState, data: CommandData<OrderCommand, 'ExpireOrder'>): OrderEvent[] => {
  const orderId = state.id;
  const supplierIds = suppliersOf(state.items);
  if (state.status !== 'placed' || state.authorizedAt) return [];
  if (new Date(data.now).getTime() < new Date(state.expiresAt).getTime()) return [];
  return [{ type: 'OrderExpired', data: { orderId, supplierIds, at: data.now } }];
};

const refundOrder = (state: OrderState, data: CommandData<OrderCommand, 'RefundOrder'>): OrderEvent[] => {
  const orderId = state.id;
  const { refundId, orderItemIds, now } = data;
  if (!state.paidAt)
    throw new DomainError('invalid_state', `order ${orderId} is ${state.status}; only paid orders can be refunded`);
  const chosen = pickItems(state, orderItemIds).filter(
    (i) => i.status === 'delivered' || (i.status === 'cancelled' && i.source === 'topup' && i.topup !== null),
  );
  if (chosen.length === 0) return [];
  const items = chosen.map((i) => ({
    orderItemId: i.orderItemId,
    supplierId: i.supplierId,
    gross: i.gross,
    commission: i.commission,
    net: i.net,
    delivered: i.status === 'delivered',
  }));
  return [{ type: 'OrderRefunded', data: { orderId, refundId, items, supplierIds: suppliersOf(items), at: now } }];
};

const disputeOrder = (state: OrderState, data: CommandData<OrderCommand, 'DisputeOrder'>): OrderEvent[] => {
  const orderId = state.id;
  const { orderItemIds, reason, now } = data;
  if (!state.paidAt)
    throw new DomainError('invalid_state', `order ${orderId} is ${state.status}; only paid orders can be disputed`);
  const chosen = pickItems(state, orderItemIds);
  return [
    {
      type: 'OrderDisputed',
      data: {
        orderId,
        orderItemIds: chosen.map((i) => i.orderItemId),
        reason,
        supplierIds: suppliersOf(chosen),
        at: now,
      },
    },
  ];
};

const recordSupplierOrder = (
  state: OrderState,
  data: CommandData<OrderCommand, 'RecordSupplierOrder'>,
): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (item.supplierOrderedAt) return [];
  const { supplierStatus, orderedAt, now } = data;
  return [
    {
      type: 'OrderItemSupplierOrdered',
      data: { orderId, orderItemId: item.orderItemId, supplierStatus, orderedAt, at: now },
    },
  ];
};

const renewReservation = (state: OrderState, data: CommandData<OrderCommand, 'RenewReservation'>): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (item.reservationId === data.reservationId) return [];
  return [
    {
      type: 'OrderItemReservationRenewed',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        reservationId: data.reservationId,
        at: data.now,
      },
    },
  ];
};

const cancelItem = (state: OrderState, data: CommandData<OrderCommand, 'CancelItem'>): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (item.status !== 'reserved') return [];
  return [
    {
      type: 'OrderItemCancelled',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        offerId: item.offerId,
        supplierId: item.supplierId,
        reason: data.reason,
        at: data.now,
      },
    },
  ];
};

const rerouteItem = (state: OrderState, data: CommandData<OrderCommand, 'RerouteItem'>): OrderEvent[] => {
  const orderId = state.id;
  const { replacesItemId, item, now } = data;
  // a retried reroute (a crash before its timer was done) never adds a second replacement
  if (state.items.some((i) => i.orderItemId === item.orderItemId || i.replacesItemId === replacesItemId)) return [];
  // a payment captured (the other items provisioned while this one was cancelled) or an
  // order that is over takes no replacement: it would stay reserved with nothing to capture
  if (state.paidAt || state.status !== 'placed') return [];
  const replaced = findItem(state, replacesItemId);
  if (replaced.status !== 'cancelled')
    throw new DomainError('invalid_state', `item ${replacesItemId} is ${replaced.status}`);
  const { gross, commission, net } = itemAmounts(item.unitPrice, item.quantity);
  return [
    {
      type: 'OrderItemRerouted',
      data: {
        orderId,
        replacesItemId,
        item: { ...item, gross, commission, net, status: 'reserved', deliveredAt: null },
        at: now,
      },
    },
  ];
};

const cancelOrder = (state: OrderState, data: CommandData<OrderCommand, 'CancelOrder'>): OrderEvent[] => {
  const orderId = state.id;
  const supplierIds = suppliersOf(state.items);
  if (state.status === 'cancelled') return [];
  if (state.paidAt || state.items.some((i) => i.status !== 'cancelled'))
    throw new DomainError('invalid_state', `order ${orderId} still has items to deliver`);
  return [{ type: 'OrderCancelled', data: { orderId, supplierIds, at: data.now } }];
};

const revalidateTopup = (state: OrderState, data: CommandData<OrderCommand, 'RevalidateTopup'>): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (!item.topup || item.topup.operationId === data.operationId) return [];
  return [
    {
      type: 'OrderItemTopupRevalidated',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        operationId: data.operationId,
        accountLabel: data.accountLabel,
        at: data.now,
      },
    },
  ];
};

const completeTopup = (state: OrderState, data: CommandData<OrderCommand, 'CompleteTopup'>): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (item.status !== 'reserved' || item.topup?.operationId !== data.operationId) return [];
  return [
    {
      type: 'OrderItemTopupCompleted',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        operationId: data.operationId,
        receiptRef: data.receiptRef,
        at: data.now,
      },
    },
  ];
};

const failTopup = (state: OrderState, data: CommandData<OrderCommand, 'FailTopup'>): OrderEvent[] => {
  const orderId = state.id;
  const item = findItem(state, data.orderItemId);
  if (item.status !== 'reserved' || item.topup?.operationId !== data.operationId) return [];
  const { operationId, code, message, stage, now } = data;
  return [
    {
      type: 'OrderItemTopupFailed',
      data: {
        orderId,
        orderItemId: item.orderItemId,
        operationId,
        code,
        message,
        ...(stage && { stage }),
        at: now,
      },
    },
  ];
};
