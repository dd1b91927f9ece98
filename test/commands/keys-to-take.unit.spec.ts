import { describe, expect, it } from 'vitest';
import { keysToTake } from '../../src/commands/order-steps.js';
import { inventoryDecider, type InventoryEvent } from '../../src/domain/inventory.js';

/** An offer's inventory as its events leave it. */
const inventoryAfter = (events: InventoryEvent[]) =>
  events.reduce(inventoryDecider.evolve, inventoryDecider.initialState);

const at = '2026-03-01T09:00:00.000Z';
const uploaded = (n: number): InventoryEvent => ({
  type: 'InventoryUploaded',
  data: {
    offerId: 'off-1',
    itemIds: Array.from({ length: n }, (_, i) => `itm-${i}`),
    fingerprints: Array.from({ length: n }, (_, i) => `fp-${i}`),
    masks: Array.from({ length: n }, () => ''),
    held: [],
    files: [],
    rejected: [],
    at,
  },
});
const reserved = (orderItemId: string, itemIds: string[]): InventoryEvent => ({
  type: 'InventoryReserved',
  data: { offerId: 'off-1', orderId: 'ord-1', orderItemId, itemIds, expiresAt: at, at },
});
const released = (orderItemId: string, itemIds: string[]): InventoryEvent => ({
  type: 'InventoryReleased',
  data: { offerId: 'off-1', orderId: 'ord-1', orderItemId, itemIds, at },
});

describe('keys a checkout line takes from an offer', () => {
  it('takes what is available, up to what the line still needs', () => {
    expect(keysToTake(inventoryAfter([uploaded(3)]), 'oi-1', 2)).toBe(2);
    expect(keysToTake(inventoryAfter([uploaded(3)]), 'oi-1', 5)).toBe(3);
    expect(keysToTake(inventoryAfter([]), 'oi-1', 1)).toBe(0);
  });

  it("takes up an earlier run's reservation under the same item as it is, though nothing is available", () => {
    const state = inventoryAfter([uploaded(1), reserved('oi-1', ['itm-0'])]);
    expect(state.available).toBe(0);
    expect(keysToTake(state, 'oi-1', 1)).toBe(1);
    // another item of the order sees no stock
    expect(keysToTake(state, 'oi-2', 1)).toBe(0);
  });

  it('takes no more of an earlier reservation than the line needs, nor more than it holds', () => {
    const state = inventoryAfter([uploaded(5), reserved('oi-1', ['itm-0', 'itm-1'])]);
    expect(keysToTake(state, 'oi-1', 1)).toBe(1);
    expect(keysToTake(state, 'oi-1', 4)).toBe(2);
  });

  it('counts a released reservation as gone: what is available again', () => {
    const state = inventoryAfter([uploaded(2), reserved('oi-1', ['itm-0']), released('oi-1', ['itm-0'])]);
    expect(keysToTake(state, 'oi-1', 2)).toBe(2);
  });
});
