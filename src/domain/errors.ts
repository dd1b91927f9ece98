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
  | 'payout_below_minimum'
  | 'ledger_chain_broken'
  | 'pricing_rule_active';

/**
 * One refused input of a command, named as the command's input names it (the spec's names:
 * `item_ids`, `form_fields.0.key`); the HTTP layer says where in the request it came from.
 */
export interface InputError {
  input: string;
  message: string;
}

/** A rule the request broke, named by its problem code. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    readonly detail: string,
    /** Extra members of the problem object, e.g. the failing probe result. */
    readonly extensions: Record<string, unknown> = {},
    /** The inputs that broke it, when the rule is about the input's values. */
    readonly inputs: readonly InputError[] = [],
  ) {
    super(`${code}: ${detail}`);
  }
}

/** `validation_failed` for these inputs, its detail naming each unless given. */
export const invalidInput = (
  inputs: readonly InputError[],
  detail = inputs.map((i) => `${i.input}: ${i.message}`).join('; '),
): DomainError => new DomainError('validation_failed', detail, {}, inputs);

export const assertNever = (value: never): never => {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
};
