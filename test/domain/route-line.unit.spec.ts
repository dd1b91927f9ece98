import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { type OfferEvent, offerDecider, type OfferState } from '../../src/domain/offer.js';
import { itemOf, provisionsAtOnce } from '../../src/domain/order-plan.js';
import { type LineRoute, type LineToRoute, routeLine, type SupplierAnswer } from '../../src/domain/routing.js';

const at = '2026-01-05T10:00:00.000Z';

/** An offer as its events leave it: created, then activated unless `active` is false. */
const offer = (
  id: string,
  stockMode: 'uploaded' | 'declared',
  o: { declaredStock?: number; active?: boolean; price?: number } = {},
): OfferState => {
  const events: OfferEvent[] = [
    {
      type: 'OfferCreated',
      data: {
        offerId: id,
        supplierId: `s-${id}`,
        productId: 'p1',
        stockMode,
        price: o.price ?? 1000,
        externalRef: `ref-${id}`,
        lowStockThreshold: 0,
        deliverySlaMinutes: stockMode === 'uploaded' ? 0 : 10,
        deliveryTime: stockMode === 'uploaded' ? 'instant' : 'within_10_minutes',
        declaredStock: stockMode === 'declared' ? (o.declaredStock ?? 0) : null,
        fulfilment: stockMode === 'declared' ? { baseUrl: 'https://supplier.example', secretSealed: 'sealed' } : null,
        at,
      },
    },
  ];
  if (o.active !== false) events.push({ type: 'OfferActivated', data: { offerId: id, health: 100, at } });
  const state = events.reduce(offerDecider.evolve, offerDecider.initialState);
  if (!state) throw new Error('no offer');
  return state;
};

/** Given these offers in routing order, each uploaded one holding `keys[id]` keys, and the suppliers' answers so far. */
const given = (offers: OfferState[], keys: Record<string, number> = {}, answers: SupplierAnswer[] = []) => ({
  when: (line: { quantity: number; topup?: boolean }) => {
    const toRoute: LineToRoute = { productId: 'p1', quantity: line.quantity, topup: line.topup ?? false, offers };
    const asked: string[] = [];
    const route = routeLine(toRoute, answers, (o, reached, remaining) => {
      asked.push(`${o.id}#${reached} for ${remaining}`);
      return keys[o.id] ?? 0;
    });
    return {
      then: (expected: LineRoute) => expect(route).toEqual(expected),
      thenKeysAsked: (expected: string[]) => expect(asked).toEqual(expected),
    };
  },
});

const held = (offerId: string, quantity: number, reservationId: string): SupplierAnswer => ({
  offerId,
  quantity,
  hold: { source: 'declared', reservationId },
});
const refused = (offerId: string, quantity: number): SupplierAnswer => ({ offerId, quantity, hold: null });

describe('routing a checkout line', () => {
  const a = offer('a', 'uploaded');
  const b = offer('b', 'uploaded');
  const c = offer('c', 'uploaded');

  it('takes as many keys as the best offer holds, the rest from the next, and asks no further', () => {
    given([a, b, c], { a: 2, b: 5, c: 5 })
      .when({ quantity: 4 })
      .then({
        kind: 'routed',
        shares: [
          { offer: a, quantity: 2, hold: null, reached: 0 },
          { offer: b, quantity: 2, hold: null, reached: 1 },
        ],
      });
    given([a, b, c], { a: 2, b: 5, c: 5 }).when({ quantity: 4 }).thenKeysAsked(['a#0 for 4', 'b#1 for 2']);
  });

  it('passes over an inactive offer without looking at its keys, and an offer with none', () => {
    const draft = offer('draft', 'uploaded', { active: false });
    given([draft, a, b], { draft: 9, a: 0, b: 3 })
      .when({ quantity: 3 })
      .then({ kind: 'routed', shares: [{ offer: b, quantity: 3, hold: null, reached: 2 }] });
    given([draft, a, b], { draft: 9, a: 0, b: 3 }).when({ quantity: 3 }).thenKeysAsked(['a#1 for 3', 'b#2 for 3']);
  });

  it('is short with out_of_stock when the offers together cannot cover it', () => {
    given([a, b], { a: 1, b: 1 })
      .when({ quantity: 3 })
      .then({
        kind: 'short',
        error: new DomainError('out_of_stock', 'not enough stock for product p1: 2 of 3 available', {
          product_id: 'p1',
        }),
      });
  });

  describe('declared stock', () => {
    const d = offer('d', 'declared', { declaredStock: 2 });
    const e = offer('e', 'declared', { declaredStock: 10 });

    it('asks the supplier for what it declares, at most what is left, before its share counts', () => {
      given([a, d, e], { a: 1 }).when({ quantity: 5 }).then({ kind: 'ask', offer: d, quantity: 2 });
      given([a, d, e], { a: 1 }, [held('d', 2, 'r-d')])
        .when({ quantity: 5 })
        .then({ kind: 'ask', offer: e, quantity: 2 });
    });

    it("holds a share with the supplier's reservation; a refusal passes the offer over", () => {
      given([a, d, e], { a: 1 }, [held('d', 2, 'r-d'), held('e', 2, 'r-e')])
        .when({ quantity: 5 })
        .then({
          kind: 'routed',
          shares: [
            { offer: a, quantity: 1, hold: null, reached: 0 },
            { offer: d, quantity: 2, hold: { source: 'declared', reservationId: 'r-d' }, reached: 1 },
            { offer: e, quantity: 2, hold: { source: 'declared', reservationId: 'r-e' }, reached: 2 },
          ],
        });
      given([d, e], {}, [refused('d', 2), held('e', 4, 'r-e')])
        .when({ quantity: 4 })
        .then({
          kind: 'routed',
          shares: [{ offer: e, quantity: 4, hold: { source: 'declared', reservationId: 'r-e' }, reached: 1 }],
        });
    });

    it('an answer for another quantity does not count: the supplier is asked again', () => {
      given([a, d], { a: 0 }, [held('d', 1, 'r-d')])
        .when({ quantity: 2 })
        .then({ kind: 'ask', offer: d, quantity: 2 });
    });

    it('passes over an offer declaring no stock without asking its supplier', () => {
      const empty = offer('empty', 'declared', { declaredStock: 0 });
      given([empty], {})
        .when({ quantity: 1 })
        .then({
          kind: 'short',
          error: new DomainError('out_of_stock', 'not enough stock for product p1: 0 of 1 available', {
            product_id: 'p1',
          }),
        });
    });
  });

  describe('a top-up', () => {
    const d = offer('d', 'declared', { declaredStock: 0 });
    const topup = {
      operationId: 'op-1',
      accountLabel: 'Alex',
      formFields: { user_id: '42' },
      validatedAt: at,
      receiptRef: null,
    };

    it('goes whole to the first declared offer, whatever it declares; uploaded offers are passed over', () => {
      given([a, d], { a: 9 }).when({ quantity: 3, topup: true }).then({ kind: 'ask', offer: d, quantity: 3 });
      given([a, d], { a: 9 }).when({ quantity: 3, topup: true }).thenKeysAsked([]);
      given([a, d], { a: 9 }, [{ offerId: 'd', quantity: 3, hold: { source: 'topup', topup } }])
        .when({ quantity: 3, topup: true })
        .then({ kind: 'routed', shares: [{ offer: d, quantity: 3, hold: { source: 'topup', topup }, reached: 1 }] });
    });
  });
});

describe('the order items of a plan', () => {
  const a = offer('a', 'uploaded', { price: 1500 });
  const d = offer('d', 'declared', { declaredStock: 3, price: 1400 });
  const base = { productId: 'p1', quantity: 2, inventoryItemIds: [] };

  it('an uploaded share holds its reserved keys; a declared one its reservation; a top-up its operation', () => {
    expect(itemOf({ offer: a, quantity: 2, hold: null }, 'i1', ['k1', 'k2'])).toEqual({
      ...base,
      orderItemId: 'i1',
      offerId: 'a',
      supplierId: 's-a',
      externalRef: 'ref-a',
      unitPrice: 1500,
      source: 'uploaded',
      reservationId: null,
      inventoryItemIds: ['k1', 'k2'],
    });
    expect(itemOf({ offer: d, quantity: 2, hold: { source: 'declared', reservationId: 'r1' } }, 'i2', [])).toEqual({
      ...base,
      orderItemId: 'i2',
      offerId: 'd',
      supplierId: 's-d',
      externalRef: 'ref-d',
      unitPrice: 1400,
      source: 'declared',
      reservationId: 'r1',
    });
    const topup = { operationId: 'op', accountLabel: 'Alex', formFields: {}, validatedAt: at, receiptRef: null };
    expect(itemOf({ offer: d, quantity: 2, hold: { source: 'topup', topup } }, 'i3', [])).toEqual({
      ...base,
      orderItemId: 'i3',
      offerId: 'd',
      supplierId: 's-d',
      externalRef: 'ref-d',
      unitPrice: 1400,
      source: 'topup',
      reservationId: null,
      topup,
    });
  });

  it('hands over and captures in the placement only where every item is uploaded keys', () => {
    expect(provisionsAtOnce([{ source: 'uploaded' }, { source: 'uploaded' }])).toBe(true);
    expect(provisionsAtOnce([{ source: 'uploaded' }, { source: 'declared' }])).toBe(false);
    expect(provisionsAtOnce([{ source: 'topup' }])).toBe(false);
  });
});
