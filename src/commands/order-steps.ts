import type { OfferState } from '../domain/offer.js';
import type { InventoryCommand, InventoryState } from '../domain/inventory.js';
import type { OrderCommand, OrderState } from '../domain/order.js';

/** Pieces of an order's commands that checkout and provisioning share. */

/**
 * The command that ends provisioning, once every key item is delivered or cancelled:
 * capture, or cancel when nothing is left to deliver (the authorization is released and the
 * buyer pays nothing). Null while an item still waits (top-ups execute after capture).
 */
export const captureOf = (order: OrderState, now: string): OrderCommand | null => {
  if (!order.authorizedAt || order.paidAt || order.status !== 'placed') return null;
  if (order.items.some((i) => i.status === 'reserved' && i.source !== 'topup')) return null;
  const capturable = order.items.some(
    (i) => i.status === 'delivered' || (i.status === 'reserved' && i.source === 'topup'),
  );
  return capturable ? { type: 'CapturePayment', data: { now } } : { type: 'CancelOrder', data: { now } };
};

/**
 * How many keys an offer's inventory gives a line that still needs `remaining`, for the
 * order item `orderItemId`. A reservation an earlier run of the same checkout made under
 * that id (its order's write was lost) is taken up as it is: the available count no longer
 * holds its keys, so counting only those would refuse a line its own keys could serve, or
 * reserve a second time beside them. Otherwise, what is available.
 */
export const keysToTake = (
  inventory: Pick<InventoryState, 'available' | 'reservations'>,
  orderItemId: string,
  remaining: number,
): number => {
  const earlier = inventory.reservations.get(orderItemId);
  return Math.min(remaining, earlier?.state === 'reserved' ? earlier.itemIds.length : inventory.available);
};

/** The command that reserves `quantity` of `offer`'s keys for an order item until `expiresAt`. */
export const reserveCommand = (
  offer: OfferState,
  reservation: { orderId: string; orderItemId: string; quantity: number; expiresAt: string },
  now: string,
): InventoryCommand => ({
  type: 'ReserveItems',
  data: { offerId: offer.id, ...reservation, lowStockThreshold: offer.terms.lowStockThreshold, now },
});

/** The reservation a decision just made or found; none would be the inventory decider's bug. */
export const reservationOf = (state: InventoryState, orderItemId: string) => {
  const reservation = state.reservations.get(orderItemId);
  if (!reservation) throw new Error(`no reservation for order item ${orderItemId} after its decision`);
  return reservation;
};
