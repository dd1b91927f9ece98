/**
 * The spec's problem codes a domain rule can break. The HTTP layer maps each to its status
 * in one table (src/http/problem-codes.ts), which must name every one of them: a code
 * added here and not there does not compile.
 */
export type DomainErrorCode =
  | 'not_found'
  | 'invalid_state'
  | 'validation_failed'
  | 'offer_exists'
  | 'supplier_exists'
  | 'product_exists'
  | 'product_not_sellable'
  | 'stock_mode_mismatch'
  | 'out_of_stock'
  | 'inventory_rejected'
  | 'fulfilment_unreachable'
  | 'topup_invalid'
  | 'certification_required'
  | 'insufficient_available_balance'
  | 'payout_below_minimum';

/** A rule the request broke, named by its problem code. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    readonly detail: string,
    /** Extra members of the problem object, e.g. the failing probe result. */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

export const assertNever = (value: never): never => {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
};
