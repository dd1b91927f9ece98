import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMISSION_MIN_FEE, COMMISSION_RATE_BPS, commissionFor, itemAmounts } from '../../src/domain/money.js';
import { startTestService, type TestService } from '../support/harness.js';
import { eur, keys, specCommission, type Supplier, uploadedOffer, troubles } from './fixtures.js';

/**
 * Spec: commission = max(round_half_up(gross * 850 / 10000), 5) per order item, net = gross -
 * commission, gross = unit_price * quantity; order totals are sums over items. Checked against
 * an independent BigInt formula (test/orders/fixtures.ts).
 */
describe('commission', () => {
  // every gross the API can produce: unit price up to 1,000,000.00 EUR, quantity up to 100
  const grossArb = fc.integer({ min: 0, max: 100_000_000 * 100 });

  it('is the spec rule for every gross amount', () => {
    expect([COMMISSION_RATE_BPS, COMMISSION_MIN_FEE]).toEqual([850, 5]);
    fc.assert(
      fc.property(grossArb, (gross) => {
        expect(BigInt(commissionFor(gross))).toBe(specCommission(BigInt(gross)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rounds exact halves up (gross = 200k + 100 gives x.5) and everything else to the nearest unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 49_999_999 }), (k) => {
        const gross = 200 * k + 100; // gross * 850 / 10000 = 17k + 8.5
        expect(commissionFor(gross)).toBe(17 * k + 9);
        expect(commissionFor(gross - 1)).toBe(Number(specCommission(BigInt(gross - 1))));
      }),
    );
    expect([1, 4, 5, 58, 59, 60, 100, 999, 1000, 3998].map(commissionFor)).toEqual([5, 5, 5, 5, 5, 5, 9, 85, 85, 340]);
  });

  it('gives item amounts with gross = unit price x quantity and net = gross - commission', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 100 }), (unitPrice, quantity) => {
        const gross = BigInt(unitPrice) * BigInt(quantity);
        const commission = specCommission(gross);
        expect(itemAmounts(unitPrice, quantity)).toEqual({
          unitPrice,
          quantity,
          gross: Number(gross),
          commission: Number(commission),
          net: Number(gross - commission),
        });
      }),
      { numRuns: 20_000 },
    );
  });

  it('has the minimum fee apply even above the gross: a 3-cent item nets -2 (the rule as written)', () => {
    expect(itemAmounts(3, 1)).toEqual({ unitPrice: 3, quantity: 1, gross: 3, commission: 5, net: -2 });
  });
});

describe('order amounts over HTTP', () => {
  let svc: TestService;
  let supplier: Supplier;
  const offers: { productId: string; offerId: string }[] = [];

  beforeAll(async () => {
    svc = await startTestService({ limits: { writes: 10_000, sync: 10_000, bulk: 100, per_supplier: 100_000 } });
    supplier = await svc.newSupplier('Amounts');
    for (let i = 0; i < 4; i++) {
      const product = await svc.newProduct({ name: `Amounts ${i}` });
      const { offerId } = await uploadedOffer(supplier, product.id, { price: 100, values: keys(`AM${i}`, 400) });
      offers.push({ productId: product.id, offerId });
    }
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  it('prices every item by the rule and totals the order over its items, as placed and as the supplier reads it', async () => {
    const line = fc.record({
      offer: fc.integer({ min: 0, max: 3 }),
      price: fc.integer({ min: 1, max: 100_000_000 }),
      quantity: fc.integer({ min: 1, max: 15 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(line, { minLength: 1, maxLength: 4, selector: (l) => l.offer }),
        async (lines) => {
          for (const l of lines) {
            const res = await supplier.api.put(`/offers/${offers[l.offer]!.offerId}/price`, { price: eur(l.price) });
            expect(res.status, res.text).toBe(200);
          }
          const placed = await svc.operator.post('/orders', {
            items: lines.map((l) => ({ product_id: offers[l.offer]!.productId, quantity: l.quantity })),
            buyer_country: 'DE',
          });
          expect(placed.status, placed.text).toBe(201);
          const expected = lines.map((l) => {
            const gross = BigInt(l.price) * BigInt(l.quantity);
            const commission = specCommission(gross);
            return {
              unit: l.price,
              quantity: l.quantity,
              gross: Number(gross),
              commission: Number(commission),
              net: Number(gross - commission),
            };
          });
          const got = placed.body.items.map((i: any) => ({
            unit: i.unit_price.amount,
            quantity: i.quantity,
            gross: i.gross.amount,
            commission: i.commission.amount,
            net: i.net.amount,
          }));
          expect(got).toEqual(expected);
          const sum = (k: 'gross' | 'commission' | 'net') => eur(expected.reduce((s, e) => s + e[k], 0));
          expect(placed.body.totals).toEqual({ gross: sum('gross'), commission: sum('commission'), net: sum('net') });
          const read = await supplier.api.get(`/orders/${placed.body.id}`);
          expect(read.body.items).toEqual(placed.body.items);
          expect(read.body.totals).toEqual(placed.body.totals);
        },
      ),
      { numRuns: 20 },
    );
  });
});
