import type { DomainErrorCode } from '../domain/errors.js';

/**
 * Every problem code the service answers with, its HTTP status and title. The same table
 * feeds the error handler, the OpenAPI document and the `/api/v1/errors` page.
 */
export const problemCodes = {
  malformed_json: { status: 400, title: 'Malformed JSON body' },
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  not_found: { status: 404, title: 'Not found' },
  offer_exists: { status: 409, title: 'Offer already exists' },
  stock_mode_mismatch: { status: 409, title: 'Stock mode mismatch' },
  invalid_state: { status: 409, title: 'Invalid state' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  supplier_exists: { status: 409, title: 'Supplier already exists' },
  product_exists: { status: 409, title: 'Product already exists' },
  out_of_stock: { status: 409, title: 'Out of stock' },
  insufficient_available_balance: { status: 409, title: 'Insufficient available balance' },
  certification_required: { status: 409, title: 'Go-live certification required' },
  pricing_rule_active: { status: 409, title: 'Price set by a pricing rule' },
  ledger_chain_broken: { status: 409, title: "The ledger's hash chain is broken" },
  request_timeout: { status: 408, title: 'Request timeout' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  validation_failed: { status: 422, title: 'Validation failed' },
  topup_invalid: { status: 422, title: 'Top-up account refused by the supplier' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused with another request' },
  product_not_sellable: { status: 422, title: 'Product not sellable' },
  inventory_rejected: { status: 422, title: 'Inventory rejected' },
  fulfilment_unreachable: { status: 422, title: 'Fulfilment unreachable' },
  payout_below_minimum: { status: 422, title: 'Payout below the minimum' },
  rate_limited: { status: 429, title: 'Rate limit exceeded' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemCodes;

// every code a domain rule can break has its row here: one added to DomainErrorCode and
// not to this table does not compile (it would otherwise answer 500 at run time)
export const domainCodes: Record<DomainErrorCode, { status: number; title: string }> = problemCodes;
