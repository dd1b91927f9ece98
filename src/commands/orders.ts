import { DomainError } from '../domain/errors.js';
import { type InventoryCommand, inventoryDecider } from '../domain/inventory.js';
import { offerDecider, type OfferState } from '../domain/offer.js';
import { type OrderCommand, orderDecider, type OrderState, type PlacedItem } from '../domain/order.js';
import { newId } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { load } from './handle.js';
import { inventoryStream, offerStream } from './offers.js';

export const orderStream = (orderId: string) => `order-${orderId}`;

/** Spec: reservation TTL, 15 minutes; an unpaid order expires then. */
export const RESERVATION_TTL_MS = 15 * 60_000;

export interface OrderLine {
  productId: string;
  quantity: number;
}

const onOrder = (deps: CommandDeps, orderId: string, command: (now: string) => OrderCommand, caller: Caller) =>
  execute(deps, orderStream(orderId), orderDecider, command, caller);

const onInventory = (deps: CommandDeps, offerId: string, command: (now: string) => InventoryCommand, caller: Caller) =>
  execute(deps, inventoryStream(offerId), inventoryDecider, command, caller);

export const loadOrder = async (deps: CommandDeps, orderId: string): Promise<OrderState> => {
  const { state } = await load(deps.store, orderStream(orderId), orderDecider, deps.states);
  if (!state) throw new DomainError('not_found', `order ${orderId} not found`);
  return state;
};

/**
 * Reserves `quantity` keys of one product across its offers in routing order: as many as
 * the best offer holds, the rest from the next (an order item per offer). Never more than
 * the inventory aggregates grant, so two checkouts can never hold the same key. When the
 * offers together cannot cover the line, what was reserved is released and the line fails.
 */
const reserveLine = async (
  deps: CommandDeps,
  orderId: string,
  line: OrderLine,
  offerIds: string[],
  expiresAt: string,
  caller: Caller,
): Promise<PlacedItem[]> => {
  const placed: PlacedItem[] = [];
  let remaining = line.quantity;
  for (const offerId of offerIds) {
    if (remaining === 0) break;
    const { state: offer } = await load(deps.store, offerStream(offerId), offerDecider, deps.states);
    // declared offers are reserved on the supplier's own systems (declared-stock contract)
    if (!offer || offer.status !== 'active' || offer.stockMode !== 'uploaded') continue;
    const { state: inventory } = await load(deps.store, inventoryStream(offer.id), inventoryDecider, deps.states);
    let take = Math.min(remaining, inventory.available);
    while (take > 0) {
      const orderItemId = newId();
      try {
        const result = await onInventory(
          deps,
          offer.id,
          (now) => ({
            type: 'ReserveItems',
            data: { offerId: offer.id, orderId, orderItemId, quantity: take, expiresAt, lowStockThreshold: offer.terms.lowStockThreshold, now },
          }),
          caller,
        );
        const reserved = result.state.reservations.get(orderItemId)!;
        placed.push(placedItem(offer, orderItemId, take, reserved.itemIds));
        remaining -= take;
        break;
      } catch (error) {
        // another checkout took keys meanwhile: take what is left now
        if (!(error instanceof DomainError && error.code === 'out_of_stock')) throw error;
        take = Math.min(remaining, Number(error.extensions.available ?? 0));
      }
    }
  }
  if (remaining > 0) {
    await releaseItems(deps, placed, caller);
    throw new DomainError('out_of_stock', `not enough stock for product ${line.productId}: ${line.quantity - remaining} of ${line.quantity} available`, {
      product_id: line.productId,
    });
  }
  return placed;
};

const placedItem = (offer: OfferState, orderItemId: string, quantity: number, inventoryItemIds: string[]): PlacedItem => ({
  orderItemId,
  productId: offer.productId,
  offerId: offer.id,
  supplierId: offer.supplierId,
  externalRef: offer.terms.externalRef,
  quantity,
  unitPrice: offer.terms.price,
  source: 'uploaded',
  reservationId: null,
  inventoryItemIds,
});

const releaseItems = async (deps: CommandDeps, items: Pick<PlacedItem, 'offerId' | 'orderItemId' | 'source'>[], caller: Caller) => {
  for (const item of items)
    if (item.source === 'uploaded')
      await onInventory(deps, item.offerId, (now) => ({ type: 'ReleaseReservation', data: { orderItemId: item.orderItemId, now } }), caller);
};

/**
 * Checkout: routes each line (offer ids in routing order from `rank(productId)`), reserves
 * keys for the reservation TTL, then records the order. Emits OrderPlaced (order.created).
 */
export const placeOrder = async (
  deps: CommandDeps,
  input: { lines: OrderLine[]; buyerCountry: string; rank: (productId: string) => Promise<string[]> },
  caller: Caller,
): Promise<OrderState> => {
  const orderId = newId();
  const expiresAt = new Date(deps.clock.now().getTime() + RESERVATION_TTL_MS).toISOString();
  const items: PlacedItem[] = [];
  try {
    for (const line of input.lines) items.push(...(await reserveLine(deps, orderId, line, await input.rank(line.productId), expiresAt, caller)));
  } catch (error) {
    await releaseItems(deps, items, caller);
    throw error;
  }
  const result = await onOrder(
    deps,
    orderId,
    (now) => ({ type: 'PlaceOrder', data: { orderId, buyerCountry: input.buyerCountry, items, expiresAt, now } }),
    caller,
  );
  return result.state!;
};

/**
 * Provisioning after authorization: hand over each item's reserved keys, then capture.
 * Every step is idempotent, so the process that resumes after a crash (or runs beside
 * the request that started it) repeats nothing.
 */
export const provisionOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  let order = await loadOrder(deps, orderId);
  if (!order.authorizedAt || order.paidAt) return order;
  for (const item of order.items) {
    if (item.status !== 'reserved' || item.source !== 'uploaded') continue;
    const delivered = await onInventory(deps, item.offerId, (now) => ({ type: 'DeliverReservation', data: { orderItemId: item.orderItemId, now } }), caller);
    const keys = delivered.state.reservations.get(item.orderItemId)!.itemIds;
    order = (await onOrder(deps, orderId, (now) => ({ type: 'RecordDelivery', data: { orderItemId: item.orderItemId, inventoryItemIds: keys, now } }), caller))
      .state!;
  }
  if (order.items.every((i) => i.status === 'delivered'))
    order = (await onOrder(deps, orderId, (now) => ({ type: 'CapturePayment', data: { now } }), caller)).state!;
  return order;
};

/** Pay = authorize, provision, capture. Uploaded stock completes before this returns. */
export const payOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  await onOrder(deps, orderId, (now) => ({ type: 'AuthorizePayment', data: { now } }), caller);
  return provisionOrder(deps, orderId, caller);
};

/** The reservation TTL passed unpaid: expire the order, put its keys back. */
export const expireOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  const order = (await onOrder(deps, orderId, (now) => ({ type: 'ExpireOrder', data: { now } }), caller)).state!;
  if (order.status === 'expired') await releaseItems(deps, order.items, caller);
  return order;
};

/** A reservation whose order never got written (a crash in checkout) must not hold keys forever. */
export const releaseOrphanReservation = async (deps: CommandDeps, offerId: string, orderId: string, orderItemId: string, caller: Caller) => {
  const { state: order } = await load(deps.store, orderStream(orderId), orderDecider, deps.states);
  if (order) return expireOrder(deps, orderId, caller);
  await onInventory(deps, offerId, (now) => ({ type: 'ReleaseReservation', data: { orderItemId, now } }), caller);
  return null;
};

export const refundOrder = async (deps: CommandDeps, orderId: string, orderItemIds: string[] | undefined, caller: Caller) =>
  (await onOrder(deps, orderId, (now) => ({ type: 'RefundOrder', data: { refundId: newId(), ...(orderItemIds && { orderItemIds }), now } }), caller)).state!;

export const disputeOrder = async (deps: CommandDeps, orderId: string, orderItemIds: string[] | undefined, reason: string | null, caller: Caller) =>
  (await onOrder(deps, orderId, (now) => ({ type: 'DisputeOrder', data: { ...(orderItemIds && { orderItemIds }), reason, now } }), caller)).state!;

/** Staff invalidation of one key (a bad or leaked key): an available key leaves stock. */
export const invalidateItem = async (deps: CommandDeps, offerId: string, itemId: string, reason: string | null, caller: Caller) => {
  const { state: offer } = await load(deps.store, offerStream(offerId), offerDecider, deps.states);
  if (!offer) throw new DomainError('not_found', `inventory item ${itemId} not found`);
  return onInventory(
    deps,
    offerId,
    (now) => ({
      type: 'InvalidateItem',
      data: { offerId, supplierId: offer.supplierId, itemId, reason, lowStockThreshold: offer.terms.lowStockThreshold, now },
    }),
    caller,
  );
};
