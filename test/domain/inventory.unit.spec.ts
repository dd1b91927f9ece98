import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InventoryEvent, inventoryDecider, type NewItem, stockLowCrossing } from '../../src/domain/inventory.js';
import { maskOf } from '../../src/domain/inventory-items.js';
import { keyFormatCheck } from '../../src/domain/product.js';
import { givenFor } from '../support/given.js';

const given = givenFor(inventoryDecider);
const now = '2026-01-05T10:00:00.000Z';
const item = (n: number, fingerprint = `f${n}`): NewItem => ({
  itemId: `i${n}`,
  index: n,
  kind: 'text',
  fingerprint,
  fileName: null,
  contentType: null,
  mask: '',
  size: null,
});
const uploaded = (...items: NewItem[]): InventoryEvent => ({
  type: 'InventoryUploaded',
  data: {
    offerId: 'o1',
    itemIds: items.map((i) => i.itemId),
    fingerprints: items.map((i) => i.fingerprint),
    masks: items.map((i) => i.mask),
    held: [],
    files: [],
    rejected: [],
    at: now,
  },
});
const reserve = (orderItemId: string, quantity: number, lowStockThreshold = 0) => ({
  type: 'ReserveItems' as const,
  data: {
    offerId: 'o1',
    orderId: 'ord1',
    orderItemId,
    quantity,
    expiresAt: '2026-01-05T10:15:00.000Z',
    lowStockThreshold,
    now,
  },
});

describe('Inventory', () => {
  it('refuses a key twice in one batch and a key already in stock; strict refuses the whole batch', () => {
    given(uploaded(item(1)))
      .when({
        type: 'UploadInventory',
        data: { offerId: 'o1', mode: 'partial', items: [item(2, 'f1'), item(3), item(4, 'f3')], rejected: [], now },
      })
      .then([
        {
          type: 'InventoryUploaded',
          data: {
            offerId: 'o1',
            itemIds: ['i3'],
            fingerprints: ['f3'],
            masks: [''],
            held: [],
            files: [],
            rejected: [
              { index: 2, code: 'duplicate_key', message: "this key is already in the offer's stock" },
              { index: 4, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' },
            ],
            at: now,
          },
        },
      ]);
    given(uploaded(item(1)))
      .when({
        type: 'UploadInventory',
        data: { offerId: 'o1', mode: 'strict', items: [item(2, 'f1')], rejected: [], now },
      })
      .thenThrows('inventory_rejected', {
        rejected: [{ index: 2, code: 'duplicate_key', message: "this key is already in the offer's stock" }],
      });
  });

  it('reserves the first uploaded keys, never more than available, once per order item', () => {
    const history = [uploaded(item(1), item(2), item(3))];
    given(...history)
      .when(reserve('oi1', 2))
      .then([
        {
          type: 'InventoryReserved',
          data: {
            offerId: 'o1',
            orderId: 'ord1',
            orderItemId: 'oi1',
            itemIds: ['i1', 'i2'],
            expiresAt: '2026-01-05T10:15:00.000Z',
            at: now,
          },
        },
      ]);
    given(...history)
      .when(reserve('oi1', 4))
      .thenThrows('out_of_stock', { available: 3 });
    const reserved: InventoryEvent = {
      type: 'InventoryReserved',
      data: {
        offerId: 'o1',
        orderId: 'ord1',
        orderItemId: 'oi1',
        itemIds: ['i1', 'i2'],
        expiresAt: '2026-01-05T10:15:00.000Z',
        at: now,
      },
    };
    given(...history, reserved)
      .when(reserve('oi1', 2))
      .then([]);
    given(...history, reserved)
      .when(reserve('oi2', 2))
      .thenThrows('out_of_stock');
    expect(given(...history, reserved).state()).toMatchObject({ available: 1, reserved: 2, delivered: 0 });
  });

  it('emits stock_low when a reservation takes available stock to the threshold or below', () =>
    given(uploaded(item(1), item(2), item(3)))
      .when(reserve('oi1', 2, 1))
      .then([
        {
          type: 'InventoryReserved',
          data: {
            offerId: 'o1',
            orderId: 'ord1',
            orderItemId: 'oi1',
            itemIds: ['i1', 'i2'],
            expiresAt: '2026-01-05T10:15:00.000Z',
            at: now,
          },
        },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 1, threshold: 1, at: now } },
      ]));

  it('delivers or releases a reservation once; released keys are available again', () => {
    const reserved: InventoryEvent = {
      type: 'InventoryReserved',
      data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], expiresAt: now, at: now },
    };
    const ref = { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], at: now };
    given(uploaded(item(1)), reserved)
      .when({ type: 'DeliverReservation', data: { orderItemId: 'oi1', now } })
      .then([{ type: 'InventoryDelivered', data: ref }]);
    given(uploaded(item(1)), reserved, { type: 'InventoryDelivered', data: ref })
      .when({ type: 'ReleaseReservation', data: { orderItemId: 'oi1', now } })
      .then([]);
    given(uploaded(item(1)), reserved)
      .when({ type: 'ReleaseReservation', data: { orderItemId: 'oi1', now } })
      .then([{ type: 'InventoryReleased', data: ref }]);
    expect(given(uploaded(item(1)), reserved, { type: 'InventoryReleased', data: ref }).state().available).toBe(1);
    given(uploaded(item(1)), reserved, { type: 'InventoryReleased', data: ref })
      .when({ type: 'DeliverReservation', data: { orderItemId: 'oi1', now } })
      .thenThrows('invalid_state');
  });

  it('removes and invalidates items by their status', () => {
    const reserved: InventoryEvent = {
      type: 'InventoryReserved',
      data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], expiresAt: now, at: now },
    };
    given(uploaded(item(1)), reserved)
      .when({ type: 'RemoveItem', data: { offerId: 'o1', itemId: 'i1', lowStockThreshold: 0, now } })
      .thenThrows('invalid_state');
    given(uploaded(item(1)))
      .when({ type: 'RemoveItem', data: { offerId: 'o1', itemId: 'nope', lowStockThreshold: 0, now } })
      .thenThrows('not_found');
    given(uploaded(item(1)), reserved)
      .when({
        type: 'InvalidateItem',
        data: { offerId: 'o1', supplierId: 's1', itemId: 'i1', reason: null, lowStockThreshold: 0, now },
      })
      .thenThrows('invalid_state');
    given(uploaded(item(1), item(2)))
      .when({
        type: 'InvalidateItem',
        data: { offerId: 'o1', supplierId: 's1', itemId: 'i2', reason: 'leaked', lowStockThreshold: 1, now },
      })
      .then([
        {
          type: 'InventoryItemInvalidated',
          data: {
            offerId: 'o1',
            supplierId: 's1',
            itemId: 'i2',
            previousStatus: 'available',
            reason: 'leaked',
            at: now,
          },
        },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 1, threshold: 1, at: now } },
      ]);
  });

  it("strict lists the validator's refusals and the duplicates together, by index; partial stores the rest", () => {
    const invalid = { index: 1, code: 'invalid_value', message: 'value must not be blank' };
    const upload = (mode: 'strict' | 'partial') => ({
      type: 'UploadInventory' as const,
      data: { offerId: 'o1', mode, items: [item(0, 'f1'), item(2), item(3, 'f2')], rejected: [invalid], now },
    });
    const duplicates = [
      { index: 0, code: 'duplicate_key', message: "this key is already in the offer's stock" },
      invalid,
      { index: 3, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' },
    ];
    given(uploaded(item(1)))
      .when(upload('strict'))
      .thenThrows('inventory_rejected', { rejected: duplicates });
    given(uploaded(item(1)))
      .when(upload('partial'))
      .then([
        {
          type: 'InventoryUploaded',
          data: {
            offerId: 'o1',
            itemIds: ['i2'],
            fingerprints: ['f2'],
            masks: [''],
            held: [],
            files: [],
            rejected: duplicates,
            at: now,
          },
        },
      ]);
  });

  it('a partial upload with nothing valid is recorded with its refusals and changes no stock', () => {
    const none: InventoryEvent = {
      type: 'InventoryUploaded',
      data: {
        offerId: 'o1',
        itemIds: [],
        fingerprints: [],
        masks: [],
        held: [],
        files: [],
        rejected: [{ index: 0, code: 'invalid_kind', message: 'x' }],
        at: now,
      },
    };
    given(uploaded(item(1)))
      .when({
        type: 'UploadInventory',
        data: {
          offerId: 'o1',
          mode: 'partial',
          items: [],
          rejected: [{ index: 0, code: 'invalid_kind', message: 'x' }],
          now,
        },
      })
      .then([none]);
    expect(given(uploaded(item(1)), none).state()).toMatchObject({ available: 1, reserved: 0, delivered: 0 });
  });

  it('a removed key may come back; a delivered or invalidated one stays known', () => {
    const removed: InventoryEvent = { type: 'InventoryItemRemoved', data: { offerId: 'o1', itemId: 'i1', at: now } };
    const again = {
      type: 'UploadInventory' as const,
      data: { offerId: 'o1', mode: 'strict' as const, items: [item(5, 'f1')], rejected: [], now },
    };
    given(uploaded(item(1)), removed)
      .when(again)
      .then([
        {
          type: 'InventoryUploaded',
          data: {
            offerId: 'o1',
            itemIds: ['i5'],
            fingerprints: ['f1'],
            masks: [''],
            held: [],
            files: [],
            rejected: [],
            at: now,
          },
        },
      ]);
    const ref = { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'] };
    given(
      uploaded(item(1)),
      { type: 'InventoryReserved', data: { ...ref, expiresAt: now, at: now } },
      { type: 'InventoryDelivered', data: { ...ref, at: now } },
    )
      .when(again)
      .thenThrows('inventory_rejected');
    given(uploaded(item(1)), {
      type: 'InventoryItemInvalidated',
      data: { offerId: 'o1', supplierId: 's1', itemId: 'i1', previousStatus: 'available', reason: null, at: now },
    })
      .when(again)
      .thenThrows('inventory_rejected');
    // a removed item is gone: deleting it again is not_found
    given(uploaded(item(1)), removed)
      .when({ type: 'RemoveItem', data: { offerId: 'o1', itemId: 'i1', lowStockThreshold: 0, now } })
      .thenThrows('not_found');
    expect(given(uploaded(item(1), item(2)), removed).state()).toMatchObject({ available: 1 });
  });

  it('removing an available item at the threshold emits stock_low; removing below it does not', () => {
    const remove = (itemId: string) => ({
      type: 'RemoveItem' as const,
      data: { offerId: 'o1', itemId, lowStockThreshold: 1, now },
    });
    given(uploaded(item(1), item(2)))
      .when(remove('i2'))
      .then([
        { type: 'InventoryItemRemoved', data: { offerId: 'o1', itemId: 'i2', at: now } },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 1, threshold: 1, at: now } },
      ]);
    given(uploaded(item(1), item(2)), { type: 'InventoryItemRemoved', data: { offerId: 'o1', itemId: 'i2', at: now } })
      .when(remove('i1'))
      .then([{ type: 'InventoryItemRemoved', data: { offerId: 'o1', itemId: 'i1', at: now } }]);
  });

  it('a reservation of exactly what is available empties the stock and crosses a threshold of 0', () =>
    given(uploaded(item(1), item(2)))
      .when(reserve('oi1', 2, 0))
      .then([
        {
          type: 'InventoryReserved',
          data: {
            offerId: 'o1',
            orderId: 'ord1',
            orderItemId: 'oi1',
            itemIds: ['i1', 'i2'],
            expiresAt: '2026-01-05T10:15:00.000Z',
            at: now,
          },
        },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 0, threshold: 0, at: now } },
      ]));

  it('property: stock_low fires exactly when available goes from above the threshold to at or below it', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), (before, after, threshold) => {
        const events = stockLowCrossing('o1', before, after, threshold, now);
        expect(events).toEqual(
          before > threshold && after <= threshold
            ? [{ type: 'OfferStockLow', data: { offerId: 'o1', available: after, threshold, at: now } }]
            : [],
        );
      }),
    );
  });

  it('property: counts always match the items, whatever sequence of uploads, reservations, deliveries, releases and removals', () => {
    type Step =
      | { kind: 'upload'; n: number }
      | { kind: 'reserve'; q: number }
      | { kind: 'deliver' }
      | { kind: 'release' }
      | { kind: 'remove'; pick: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('upload' as const), n: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('reserve' as const), q: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('deliver' as const) }),
      fc.record({ kind: fc.constant('release' as const) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(20) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let state = inventoryDecider.initialState;
        let next = 0;
        let orderItems = 0;
        const run = (command: Parameters<typeof inventoryDecider.decide>[0]) => {
          try {
            for (const e of inventoryDecider.decide(command, state)) state = inventoryDecider.evolve(state, e);
          } catch {
            // refused commands change nothing
          }
        };
        for (const s of steps) {
          if (s.kind === 'upload')
            run({
              type: 'UploadInventory',
              data: {
                offerId: 'o1',
                mode: 'strict',
                items: Array.from({ length: s.n }, () => item(next++)),
                rejected: [],
                now,
              },
            });
          if (s.kind === 'reserve') run(reserve(`oi${++orderItems}`, s.q));
          if (s.kind === 'deliver') run({ type: 'DeliverReservation', data: { orderItemId: `oi${orderItems}`, now } });
          if (s.kind === 'release') run({ type: 'ReleaseReservation', data: { orderItemId: `oi${orderItems}`, now } });
          if (s.kind === 'remove')
            run({ type: 'RemoveItem', data: { offerId: 'o1', itemId: `i${s.pick}`, lowStockThreshold: 0, now } });
          const statuses = [...state.items.values()].map((i) => i.status);
          expect([state.available, state.reserved, state.delivered]).toEqual([
            statuses.filter((x) => x === 'available').length,
            statuses.filter((x) => x === 'reserved').length,
            statuses.filter((x) => x === 'delivered').length,
          ]);
          // a key is never in two reservations that hold or delivered it
          const held = [...state.reservations.values()].filter((r) => r.state !== 'released').flatMap((r) => r.itemIds);
          expect(new Set(held).size).toBe(held.length);
        }
      }),
    );
  });
  it('property: a reservation takes the first uploaded keys still available, and a state never changes whatever is folded from it', () => {
    type Step =
      | { kind: 'upload'; fingerprints: number[] }
      | { kind: 'reserve'; q: number }
      | { kind: 'deliver' | 'release'; pick: number }
      | { kind: 'remove' | 'invalidate'; pick: number }
      | { kind: 'branch'; pick: number };
    const pick = fc.nat(40);
    const step: fc.Arbitrary<Step> = fc.oneof(
      // fingerprints from a small pool: removed keys come back, duplicates are refused
      fc.record({
        kind: fc.constant('upload' as const),
        fingerprints: fc.array(fc.nat(30), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant('reserve' as const), q: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constantFrom('deliver' as const, 'release' as const), pick }),
      fc.record({ kind: fc.constantFrom('remove' as const, 'invalidate' as const), pick }),
      fc.record({ kind: fc.constant('branch' as const), pick }),
    );
    type State = ReturnType<typeof inventoryDecider.evolve>;
    const byKey = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : 1));
    const view = (s: State) => ({
      items: byKey(s.items.entries()),
      fingerprints: byKey(s.fingerprints.entries()),
      reservations: byKey(s.reservations.entries()),
      order: [...s.order],
      nextAvailable: s.nextAvailable,
      returned: [...s.returned],
      counts: [s.available, s.reserved, s.delivered],
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const states: { state: State; seen: ReturnType<typeof view> }[] = [];
        let state = inventoryDecider.initialState;
        let next = 0;
        let orderItems = 0;
        const run = (command: Parameters<typeof inventoryDecider.decide>[0]) => {
          let events: InventoryEvent[] = [];
          try {
            events = inventoryDecider.decide(command, state);
          } catch {
            // refused commands change nothing
          }
          for (const e of events) state = inventoryDecider.evolve(state, e);
          return events;
        };
        for (const s of steps) {
          if (s.kind === 'branch' && states.length > 0) state = states[s.pick % states.length]!.state;
          if (s.kind === 'upload')
            run({
              type: 'UploadInventory',
              data: {
                offerId: 'o1',
                mode: 'partial',
                items: s.fingerprints.map((f) => item(next++, `f${f}`)),
                rejected: [],
                now,
              },
            });
          if (s.kind === 'reserve') {
            // the reference: every item in upload order, the first available ones
            const expected = [...state.items.entries()]
              .filter(([, i]) => i.status === 'available')
              .sort(([, a], [, b]) => a.position - b.position)
              .slice(0, s.q)
              .map(([id]) => id);
            const [reserved] = run(reserve(`oi${++orderItems}`, s.q));
            if (reserved?.type === 'InventoryReserved') expect(reserved.data.itemIds).toEqual(expected);
            else expect(expected.length).toBeLessThan(s.q);
          }
          if (s.kind === 'deliver' || s.kind === 'release')
            run({
              type: s.kind === 'deliver' ? 'DeliverReservation' : 'ReleaseReservation',
              data: { orderItemId: `oi${(s.pick % Math.max(orderItems, 1)) + 1}`, now },
            });
          if (s.kind === 'remove')
            run({ type: 'RemoveItem', data: { offerId: 'o1', itemId: `i${s.pick}`, lowStockThreshold: 0, now } });
          if (s.kind === 'invalidate')
            run({
              type: 'InvalidateItem',
              data: { offerId: 'o1', supplierId: 's1', itemId: `i${s.pick}`, reason: null, lowStockThreshold: 0, now },
            });
          // the upload order is the items by position; below the cursor only `returned` is available
          const items = [...state.items.entries()];
          expect([...state.order]).toEqual(items.sort(([, a], [, b]) => a.position - b.position).map(([id]) => id));
          const availableBelow = items
            .filter(([, i]) => i.status === 'available' && i.position < state.nextAvailable)
            .map(([, i]) => i.position)
            .sort((a, b) => a - b);
          expect(state.returned).toEqual(availableBelow);
          const statuses = items.map(([, i]) => i.status);
          expect([state.available, state.reserved, state.delivered]).toEqual([
            statuses.filter((x) => x === 'available').length,
            statuses.filter((x) => x === 'reserved').length,
            statuses.filter((x) => x === 'delivered').length,
          ]);
          states.push({ state, seen: view(state) });
        }
        // every state folded on, or branched from, still reads as it did when it was made
        for (const { state: s, seen } of states) expect(view(s)).toEqual(seen);
      }),
    );
  });
});

describe('Inventory corrections and reviews', () => {
  const sold: InventoryEvent[] = [
    {
      type: 'InventoryReserved',
      data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], expiresAt: now, at: now },
    },
    {
      type: 'InventoryDelivered',
      data: { offerId: 'o1', orderId: 'ord1', orderItemId: 'oi1', itemIds: ['i1'], at: now },
    },
  ];
  const withdraw = (itemIds: string[], lowStockThreshold = 0) => ({
    type: 'WithdrawItems' as const,
    data: { offerId: 'o1', itemIds, lowStockThreshold, now },
  });

  it('withdraws the available items of a selection, once each, and leaves a sold one as it is', () => {
    given(uploaded(item(1), item(2), item(3)), ...sold)
      .when(withdraw(['i1', 'i2', 'i2', 'i3', 'nope'], 1))
      .then([
        { type: 'InventoryItemsWithdrawn', data: { offerId: 'o1', itemIds: ['i2', 'i3'], at: now } },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 0, threshold: 1, at: now } },
      ]);
    given(uploaded(item(1)), ...sold)
      .when(withdraw(['i1']))
      .thenThrows('invalid_state');
  });

  it('a withdrawn key leaves the stock and may come back; its counts follow at once', () => {
    const state = [
      uploaded(item(1), item(2)),
      { type: 'InventoryItemsWithdrawn', data: { offerId: 'o1', itemIds: ['i1'], at: now } } as InventoryEvent,
    ].reduce(inventoryDecider.evolve, inventoryDecider.initialState);
    expect(state.available).toBe(1);
    expect(state.items.get('i1')?.status).toBe('removed');
    const again = inventoryDecider.decide(
      { type: 'UploadInventory', data: { offerId: 'o1', mode: 'strict', items: [item(5, 'f1')], rejected: [], now } },
      state,
    );
    expect(again[0]?.type === 'InventoryUploaded' && again[0].data.itemIds).toEqual(['i5']);
  });

  it('stores a key another supplier holds under review: never reserved, not counted as available', () => {
    const collidesWith = { itemId: 'x9', offerId: 'o2', supplierId: 's2' };
    const events = inventoryDecider.decide(
      {
        type: 'UploadInventory',
        data: { offerId: 'o1', mode: 'strict', items: [item(1), { ...item(2), collidesWith }], rejected: [], now },
      },
      inventoryDecider.initialState,
    );
    expect(events[0]?.type === 'InventoryUploaded' && events[0].data.held).toEqual([{ place: 1, ...collidesWith }]);
    const state = events.reduce(inventoryDecider.evolve, inventoryDecider.initialState);
    expect([state.available, state.items.get('i2')?.status]).toEqual([1, 'held']);
    given(...events)
      .when(reserve('oi1', 2))
      .thenThrows('out_of_stock', { available: 1 });
  });

  it('holds available items only, and a cleared review puts them back for sale', () => {
    const hold = {
      type: 'HoldItems' as const,
      data: {
        offerId: 'o1',
        itemIds: ['i1', 'i2'],
        reason: 'key_collision' as const,
        collidesWith: { itemId: 'x9', offerId: 'o2', supplierId: 's2' },
        lowStockThreshold: 0,
        now,
      },
    };
    given(uploaded(item(1), item(2)), ...sold)
      .when(hold)
      .then([
        {
          type: 'InventoryItemsHeld',
          data: {
            offerId: 'o1',
            itemIds: ['i2'],
            reason: 'key_collision',
            collidesWith: hold.data.collidesWith,
            at: now,
          },
        },
        { type: 'OfferStockLow', data: { offerId: 'o1', available: 0, threshold: 0, at: now } },
      ]);
    const held: InventoryEvent = {
      type: 'InventoryItemsHeld',
      data: { offerId: 'o1', itemIds: ['i2'], reason: 'operator', collidesWith: null, at: now },
    };
    given(uploaded(item(1), item(2)), held)
      .when({ type: 'ClearReview', data: { offerId: 'o1', itemIds: ['i1', 'i2'], now } })
      .then([{ type: 'InventoryReviewCleared', data: { offerId: 'o1', itemIds: ['i2'], at: now } }]);
    given(uploaded(item(1), item(2)), held)
      .when(withdraw(['i2']))
      .then([{ type: 'InventoryItemsWithdrawn', data: { offerId: 'o1', itemIds: ['i2'], at: now } }]);
  });
});

describe('What a supplier sees of a key', () => {
  it('shows at most the first 2 and last 4 characters, and never more than 3 in 8 characters of a short key', () => {
    expect(maskOf('ABCDE-FGHIJ-KLMNO-PQRST-12345')).toEqual({ mask: 'AB••••••••••2345', head: 'AB', tail: '2345' });
    expect(maskOf('ABCDEFGHIJKL').mask).toBe('A••••••••JKL');
    expect(maskOf('ABCDEFGH').mask).toBe('A•••••GH');
    expect(maskOf('ABCD').mask).toBe('•••D');
    expect(maskOf('abc').mask).toBe('•••');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (key) => {
        const { head, tail } = maskOf(key);
        const shown = [...head].length + [...tail].length;
        expect(shown).toBeLessThanOrEqual(6);
        expect(shown * 8).toBeLessThanOrEqual([...key].length * 3);
      }),
    );
  });
});

describe('A product key format', () => {
  const format = keyFormatCheck({
    pattern: '[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
    minLength: 17,
    maxLength: 17,
    description: '3 groups of 5 capital letters or digits, joined by dashes',
  });

  it('takes a key that fits whole, and names the format in words for one that does not', () => {
    expect(format('AAAAA-BBBBB-12345')).toBeUndefined();
    const words = "does not match the product's key format: 3 groups of 5 capital letters or digits, joined by dashes";
    for (const key of ['AAAAA-BBBBB-1234', 'xAAAAA-BBBBB-12345', 'aaaaa-bbbbb-12345', 'AAAAA-BBBBB-12345 '])
      expect(format(key)).toBe(words);
    expect(keyFormatCheck(null)('anything')).toBeUndefined();
  });
});
