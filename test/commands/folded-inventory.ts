/**
 * Inventory commands and states folded without a store, for the state cache's spec and the
 * heap probe it runs in a process of its own.
 */
import { type InventoryCommand, inventoryDecider, type InventoryState } from '../../src/domain/inventory.js';
import { newId } from '../../src/ids.js';

export const at = new Date('2026-01-05T10:00:00.000Z');
const now = at.toISOString();

export const upload = (offerId: string, keys: number, from = 0): InventoryCommand => ({
  type: 'UploadInventory',
  data: {
    offerId,
    mode: 'strict',
    items: Array.from({ length: keys }, (_, i) => ({
      itemId: `${offerId}-i${from + i}`,
      index: i,
      kind: 'text' as const,
      fingerprint: `${offerId}-f${from + i}`,
      fileName: null,
      contentType: null,
      mask: 'AB••••1234',
      size: null,
    })),
    rejected: [],
    now,
  },
});

export const reserve = (offerId: string, orderItemId: string): InventoryCommand => ({
  type: 'ReserveItems',
  data: {
    offerId,
    orderId: `ord-${orderItemId}`,
    orderItemId,
    quantity: 1,
    expiresAt: '2026-01-05T10:15:00.000Z',
    lowStockThreshold: 0,
    now,
  },
});

/** What a stream of `keys` keys and a reservation holds, folded without a store. */
export const folded = (keys: number): InventoryState => {
  const offerId = newId();
  let state = inventoryDecider.initialState;
  for (const command of [upload(offerId, keys), reserve(offerId, `${offerId}-oi`)])
    for (const e of inventoryDecider.decide(command, state)) state = inventoryDecider.evolve(state, e);
  return state;
};
