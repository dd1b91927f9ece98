import { describe, expect, it } from 'vitest';
import { type InventoryEvent, inventoryDecider, type NewItem } from '../../src/domain/inventory.js';
import { givenFor } from '../support/given.js';

const given = givenFor(inventoryDecider);
const now = '2026-01-05T10:00:00.000Z';
const item = (n: number, fingerprint = `f${n}`): NewItem => ({ itemId: `i${n}`, index: n, kind: 'text', fingerprint, fileName: null, contentType: null });
const uploaded = (...items: NewItem[]): InventoryEvent => ({
  type: 'InventoryUploaded',
  data: { offerId: 'o1', items: items.map(({ index: _i, ...rest }) => rest), rejected: [], at: now },
});
const reserve = (orderItemId: string, quantity: number, lowStockThreshold = 0) => ({
  type: 'ReserveItems' as const,
  data: { offerId: 'o1', orderId: 'ord1', orderItemId, quantity, expiresAt: '2026-01-05T10:15:00.000Z', lowStockThreshold, now },
});

describe('Inventory', () => {
  it('refuses a key twice in one batch and a key already in stock; strict refuses the whole batch', () => {
    given(uploaded(item(1)))
      .when({ type: 'UploadInventory', data: { offerId: 'o1', mode: 'partial', items: [item(2, 'f1'), item(3), item(4, 'f3')], rejected: [], now } })
      .then([
        {
          type: 'InventoryUploaded',
          data: {
            offerId: 'o1',
            items: [{ itemId: 'i3', kind: 'text', fingerprint: 'f3', fileName: null, contentType: null }],
            rejected: [
              { index: 2, code: 'duplicate_key', message: "this key is already in the offer's stock" },
              { index: 4, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' },
            ],
            at: now,
          },
        },
      ]);
    given(uploaded(item(1)))
      .when({ type: 'UploadInventory', data: { offerId: 'o1', mode: 'strict', items: [item(2, 'f1')], rejected: [], now } })
      .thenThrows('inventory_rejected', { rejected: [{ index: 2, code: 'duplicate_key', message: "this key is already in the offer's stock" }] });
  });

  it('reserves the first uploaded keys, never more than available, once per order item', () => {
    const history = [uploaded(item(1), item(2), item(3))];
    given(...history)
      .when(reserve('oi1', 2))
      .then([{ type: 'InventoryReserved', data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1', 'i2'], expiresAt: '2026-01-05T10:15:00.000Z', at: now } }]);
    given(...history).when(reserve('oi1', 4)).thenThrows('out_of_stock', { available: 3 });
    const reserved: InventoryEvent = { type: 'InventoryReserved', data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1', 'i2'], expiresAt: '2026-01-05T10:15:00.000Z', at: now } };
    given(...history, reserved).when(reserve('oi1', 2)).then([]);
    given(...history, reserved).when(reserve('oi2', 2)).thenThrows('out_of_stock');
    expect(given(...history, reserved).state()).toMatchObject({ available: 1, reserved: 2, delivered: 0 });
  });

  it('emits stock_low when a reservation takes available stock to the threshold or below', () =>
    given(uploaded(item(1), item(2), item(3)))
      .when(reserve('oi1', 2, 1))
      .then([
        { type: 'InventoryReserved', data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1', 'i2'], expiresAt: '2026-01-05T10:15:00.000Z', at: now } },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 1, threshold: 1, at: now } },
      ]));

  it('delivers or releases a reservation once; released keys are available again', () => {
    const reserved: InventoryEvent = { type: 'InventoryReserved', data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], expiresAt: now, at: now } };
    const ref = { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], at: now };
    given(uploaded(item(1)), reserved).when({ type: 'DeliverReservation', data: { orderItemId: 'oi1', now } }).then([{ type: 'InventoryDelivered', data: ref }]);
    given(uploaded(item(1)), reserved, { type: 'InventoryDelivered', data: ref }).when({ type: 'ReleaseReservation', data: { orderItemId: 'oi1', now } }).then([]);
    given(uploaded(item(1)), reserved).when({ type: 'ReleaseReservation', data: { orderItemId: 'oi1', now } }).then([{ type: 'InventoryReleased', data: ref }]);
    expect(given(uploaded(item(1)), reserved, { type: 'InventoryReleased', data: ref }).state().available).toBe(1);
    given(uploaded(item(1)), reserved, { type: 'InventoryReleased', data: ref })
      .when({ type: 'DeliverReservation', data: { orderItemId: 'oi1', now } })
      .thenThrows('invalid_state');
  });

  it('removes and invalidates items by their status', () => {
    const reserved: InventoryEvent = { type: 'InventoryReserved', data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], expiresAt: now, at: now } };
    given(uploaded(item(1)), reserved).when({ type: 'RemoveItem', data: { offerId: 'o1', itemId: 'i1', lowStockThreshold: 0, now } }).thenThrows('invalid_state');
    given(uploaded(item(1))).when({ type: 'RemoveItem', data: { offerId: 'o1', itemId: 'nope', lowStockThreshold: 0, now } }).thenThrows('not_found');
    given(uploaded(item(1)), reserved)
      .when({ type: 'InvalidateItem', data: { offerId: 'o1', supplierId: 's1', itemId: 'i1', reason: null, lowStockThreshold: 0, now } })
      .thenThrows('invalid_state');
    given(uploaded(item(1), item(2)))
      .when({ type: 'InvalidateItem', data: { offerId: 'o1', supplierId: 's1', itemId: 'i2', reason: 'leaked', lowStockThreshold: 1, now } })
      .then([
        { type: 'InventoryItemInvalidated', data: { offerId: 'o1', supplierId: 's1', itemId: 'i2', previousStatus: 'available', reason: 'leaked', at: now } },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 1, threshold: 1, at: now } },
      ]);
  });
});
