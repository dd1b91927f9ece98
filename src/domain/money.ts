/** Money is integer minor units of EUR, the only currency of API v1. */
export interface Money {
  amount: number;
  currency: 'EUR';
}

export const eur = (amount: number): Money => ({ amount, currency: 'EUR' });

/**
 * The largest amount a request may name (a price, a payout, a schedule's minimum):
 * 1,000,000.00 EUR. Far past any digital good or a marketplace seller's single transfer,
 * and small enough that every sum the ledger makes of such amounts (an order's 50 lines of
 * 100 units, their commission at 850 bps, a balance over millions of entries) stays an exact
 * integer in a JavaScript number and a Postgres bigint.
 */
export const MAX_AMOUNT = 100_000_000;

export const COMMISSION_RATE_BPS = 850;
export const COMMISSION_MIN_FEE = 5;

/**
 * round_half_up(gross * rate / 10000) in integers: no floating point ever touches money.
 * For non-negative gross, floor((gross * rate * 2 + 10000) / 20000) rounds halves up.
 */
export const roundHalfUpDiv = (numerator: number, denominator: number): number => {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0 || numerator < 0)
    throw new RangeError('roundHalfUpDiv takes a non-negative safe integer and a positive one');
  const q = Math.floor(numerator / denominator);
  const r = numerator - q * denominator;
  return 2 * r >= denominator ? q + 1 : q;
};

/** The spec's commission per order item: max(round_half_up(gross * 850 / 10000), 5). */
export const commissionFor = (gross: number): number =>
  Math.max(roundHalfUpDiv(gross * COMMISSION_RATE_BPS, 10_000), COMMISSION_MIN_FEE);

export interface ItemAmounts {
  unitPrice: number;
  quantity: number;
  gross: number;
  commission: number;
  net: number;
}

/** gross = unit_price * quantity; commission by the rule; net = gross - commission. */
export const itemAmounts = (unitPrice: number, quantity: number): ItemAmounts => {
  const gross = unitPrice * quantity;
  const commission = commissionFor(gross);
  return { unitPrice, quantity, gross, commission, net: gross - commission };
};
