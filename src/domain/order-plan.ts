import type { PlacedItem } from './order.js';
import type { Share } from './routing.js';

/**
 * An order's steps, planned: each line routed into shares (src/domain/routing.ts), each
 * share an order item, and the steps after the placement that may go into the same write.
 */

/** The order item a share of a line becomes, at its offer's price. */
export const itemOf = (
  share: Pick<Share, 'offer' | 'quantity' | 'hold'>,
  orderItemId: string,
  inventoryItemIds: string[],
): PlacedItem => {
  const { offer, quantity, hold } = share;
  return {
    orderItemId,
    productId: offer.productId,
    offerId: offer.id,
    supplierId: offer.supplierId,
    externalRef: offer.terms.externalRef,
    quantity,
    unitPrice: offer.terms.price,
    inventoryItemIds,
    ...(hold === null
      ? { source: 'uploaded', reservationId: null }
      : hold.source === 'declared'
        ? { source: 'declared', reservationId: hold.reservationId }
        : { source: 'topup', reservationId: null, topup: hold.topup }),
  };
};

/**
 * Whether the hand-over and the capture may follow the placement in its own write: only
 * where every item is uploaded keys, which no supplier has to be asked for.
 */
export const provisionsAtOnce = (items: readonly Pick<PlacedItem, 'source'>[]): boolean =>
  items.every((i) => i.source === 'uploaded');
