import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMMISSION_MIN_FEE,
  COMMISSION_RATE_BPS,
  commissionFor,
  itemAmounts,
  roundHalfUpDiv,
} from '../../src/domain/money.js';

/** The spec's rule in BigInt, written independently: round_half_up(n / d) = floor((2n + d) / 2d) for n >= 0. */
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
const commissionRef = (gross: bigint) => {
  const c = halfUp(gross * 850n, 10_000n);
  return c > 5n ? c : 5n;
};

const MAX = Number.MAX_SAFE_INTEGER;
/** Largest gross whose gross * 850 is still a safe integer. */
const MAX_GROSS = Math.floor(MAX / COMMISSION_RATE_BPS);

describe('money (properties, against BigInt)', () => {
  it('the spec constants: 850 bps, 5 minor units minimum', () => {
    expect(COMMISSION_RATE_BPS).toBe(850);
    expect(COMMISSION_MIN_FEE).toBe(5);
  });

  it('roundHalfUpDiv equals floor((2n + d) / 2d) for every safe non-negative n and positive d', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: MAX }), fc.integer({ min: 0, max: 1_000_000 })),
        fc.oneof(fc.integer({ min: 1, max: MAX }), fc.integer({ min: 1, max: 20_000 })),
        (n, d) => {
          expect(roundHalfUpDiv(n, d)).toBe(Number(halfUp(BigInt(n), BigInt(d))));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('roundHalfUpDiv rounds exact halves up and everything else to the nearest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 1e6 }), (q, half) => {
        const d = 2 * half;
        expect(roundHalfUpDiv(q * d + half, d)).toBe(q + 1); // exactly q.5
        expect(roundHalfUpDiv(q * d + half - 1, d)).toBe(q); // just below the half
        expect(roundHalfUpDiv(q * d, d)).toBe(q);
      }),
    );
    expect([
      roundHalfUpDiv(5, 10),
      roundHalfUpDiv(4, 10),
      roundHalfUpDiv(15, 10),
      roundHalfUpDiv(14, 10),
      roundHalfUpDiv(0, 7),
    ]).toEqual([1, 0, 2, 1, 0]);
  });

  it('roundHalfUpDiv refuses what it cannot do exactly: negatives, zero or negative divisors, fractions, unsafe integers', () => {
    for (const [n, d] of [
      [-1, 10],
      [10, 0],
      [10, -3],
      [1.5, 10],
      [10, 2.5],
      [MAX + 1, 10],
      [10, MAX + 1],
      [Number.NaN, 10],
      [Number.POSITIVE_INFINITY, 10],
    ])
      expect(() => roundHalfUpDiv(n!, d!)).toThrow(RangeError);
  });

  it('commissionFor is max(round_half_up(gross * 850 / 10000), 5) for every gross it can compute exactly', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: MAX_GROSS }), fc.integer({ min: 0, max: 100_000 })), (gross) => {
        expect(commissionFor(gross)).toBe(Number(commissionRef(BigInt(gross))));
      }),
      { numRuns: 5000 },
    );
  });

  it('commissionFor refuses a gross too large to compute exactly instead of rounding it wrongly', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_GROSS + 1, max: MAX }), (gross) => {
        expect(() => commissionFor(gross)).toThrow(RangeError);
      }),
    );
  });

  it('commission never decreases as gross grows, and one more minor unit of gross adds at most one of commission', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_GROSS - 1 }), (gross) => {
        const step = commissionFor(gross + 1) - commissionFor(gross);
        expect(step === 0 || step === 1).toBe(true);
      }),
    );
  });

  it('commission examples at the edges of the minimum and of the rounding', () => {
    const table: [number, number][] = [
      [0, 5],
      [1, 5],
      [58, 5], // 4.93
      [64, 5], // 5.44
      [65, 6], // 5.525
      [100, 9], // 8.5, the half up
      [999, 85], // 84.915
      [1000, 85],
      [1100, 94], // 93.5
      [1999, 170], // 169.915
      [100_000_000, 8_500_000],
    ];
    expect(table.map(([gross]) => [gross, commissionFor(gross)])).toEqual(table);
  });

  it('itemAmounts: gross = unit_price * quantity, commission by the rule on gross, net = gross - commission', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        (unitPrice, quantity) => {
          const gross = BigInt(unitPrice) * BigInt(quantity);
          const commission = commissionRef(gross);
          expect(itemAmounts(unitPrice, quantity)).toEqual({
            unitPrice,
            quantity,
            gross: Number(gross),
            commission: Number(commission),
            net: Number(gross - commission),
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the commission is charged per item on its gross, so it is not the sum of per-unit commissions', () => {
    // 10 units at 1.00: 8.5% of 10.00 is 0.85, not 10 x max(0.085 -> 0.09, 0.05) = 0.90
    expect(itemAmounts(100, 10)).toEqual({ unitPrice: 100, quantity: 10, gross: 1000, commission: 85, net: 915 });
    expect(itemAmounts(1, 3)).toEqual({ unitPrice: 1, quantity: 3, gross: 3, commission: 5, net: -2 });
  });
});
