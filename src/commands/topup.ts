import { DomainError } from '../domain/errors.js';
import { offerDecider, type OfferState } from '../domain/offer.js';
import type { OrderItem } from '../domain/order.js';
import { required } from '../domain/required.js';
import { sandboxPath, VALIDATE_CODES } from '../domain/topup.js';
import { newId } from '../ids.js';
import { callSupplier } from '../outbound/supplier-calls.js';
import type { Caller, CommandDeps } from './context.js';
import { recordOutcome } from './declared.js';
import { stateOf } from './handle.js';
import { endpointOf } from './offers.js';
import { offerStream } from './streams.js';

export type ValidateResult =
  | { kind: 'valid'; operationId: string; accountLabel: string }
  | { kind: 'invalid'; code: string; message: string }
  | { kind: 'unavailable' };

const callOf = (deps: CommandDeps, offer: OfferState) => ({
  endpoint: endpointOf(deps, offer, deps.clock.now()),
  deps: { clock: deps.clock, policy: deps.targets, metrics: deps.metrics },
});

/**
 * POST /topup/validate (10 s, no retry). A timeout or 5xx blocks checkout on this offer
 * and costs 2 health points; an invalid answer refuses the checkout with the supplier's code.
 */
export const validateTopup = async (
  deps: CommandDeps,
  offer: OfferState,
  input: { quantity: number; buyerCountry: string; formFields: Record<string, string> },
  caller: Caller,
): Promise<ValidateResult> => {
  const operationId = newId();
  if (deps.env === 'sandbox' && sandboxPath(input.formFields) === 'invalid_user')
    return { kind: 'invalid', code: 'invalid_user_id', message: 'sandbox: no account with that ID (user_id 999999)' };
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'POST',
    '/topup/validate',
    {
      operation_id: operationId,
      offer_id: offer.id,
      external_ref: offer.terms.externalRef,
      product_id: offer.productId,
      quantity: input.quantity,
      buyer_country: input.buyerCountry,
      form_fields: input.formFields,
    },
    deps.timeouts.validateMs,
    callDeps,
  );
  const body = outcome.kind === 'answer' ? (outcome.body as Record<string, unknown> | undefined) : undefined;
  if (outcome.kind === 'answer' && outcome.status === 200 && body) {
    if (body.valid === true && typeof body.account_label === 'string')
      return { kind: 'valid', operationId, accountLabel: body.account_label.slice(0, 200) };
    if (body.valid === false) {
      const code = VALIDATE_CODES.includes(body.code as (typeof VALIDATE_CODES)[number]) ? String(body.code) : 'other';
      return {
        kind: 'invalid',
        code,
        message:
          typeof body.message === 'string' ? body.message.slice(0, 500) : 'the account cannot receive this top-up',
      };
    }
  }
  if (outcome.kind === 'failure' || (outcome.kind === 'answer' && outcome.status >= 500))
    await recordOutcome(deps, offer.id, 'topup_validate_failure', operationId, caller);
  return { kind: 'unavailable' };
};

export const topupRefused = (code: string, message: string) =>
  new DomainError('topup_invalid', `the supplier refused this account: ${message}`, {
    supplier_code: code,
    supplier_message: message,
  });

export type ExecuteResult =
  | { kind: 'completed'; receiptRef: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'processing' }
  /** timeout, 5xx, or an answer we cannot read: retry, then poll */
  | { kind: 'unknown' };

const readResult = (status: number, body: unknown): ExecuteResult => {
  const b = (body ?? {}) as Record<string, unknown>;
  if (
    (status === 200 || status === 201) &&
    b.status === 'completed' &&
    typeof b.receipt_ref === 'string' &&
    b.receipt_ref.length <= 128
  )
    return { kind: 'completed', receiptRef: b.receipt_ref };
  if ((status === 200 || status === 201) && b.status === 'failed')
    return {
      kind: 'failed',
      code: typeof b.code === 'string' ? b.code.slice(0, 64) : 'topup_failed',
      message: typeof b.message === 'string' ? b.message.slice(0, 500) : '',
    };
  if ((status === 200 || status === 202) && b.status === 'processing') return { kind: 'processing' };
  return { kind: 'unknown' };
};

/** A top-up item's validated operation (a top-up item is placed with one). */
export const topupOf = (item: OrderItem) =>
  required(item.topup, `the top-up operation of order item ${item.orderItemId}`);

/** One attempt of POST /topup/execute (30 s), idempotent on operation_id at the supplier. */
export const executeTopup = async (
  deps: CommandDeps,
  orderId: string,
  item: OrderItem,
  attempt: number,
): Promise<ExecuteResult> => {
  const topup = topupOf(item);
  const path = deps.env === 'sandbox' ? sandboxPath(topup.formFields) : null;
  if (path === 'execute_fails')
    return { kind: 'failed', code: 'topup_failed', message: 'sandbox: the top-up failed (user_id 888888)' };
  const offer = await stateOf(deps, offerStream(item.offerId), offerDecider);
  if (!offer) return { kind: 'unknown' };
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'POST',
    '/topup/execute',
    {
      operation_id: topup.operationId,
      order_id: orderId,
      offer_id: item.offerId,
      external_ref: item.externalRef,
      quantity: item.quantity,
      form_fields: topup.formFields,
    },
    deps.timeouts.executeMs,
    callDeps,
  );
  // sandbox 777777: the first answer is treated as lost (a timeout), so the retry must
  // be recognised by the supplier as a replay: the top-up happens once
  if (path === 'first_execute_lost' && attempt === 1) return { kind: 'unknown' };
  return outcome.kind === 'answer' ? readResult(outcome.status, outcome.body) : { kind: 'unknown' };
};

/** GET /topup/operations/{operation_id}. */
export const topupStatus = async (deps: CommandDeps, item: OrderItem): Promise<ExecuteResult> => {
  const offer = await stateOf(deps, offerStream(item.offerId), offerDecider);
  if (!offer) return { kind: 'unknown' };
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'GET',
    `/topup/operations/${encodeURIComponent(topupOf(item).operationId)}`,
    undefined,
    deps.timeouts.statusMs,
    callDeps,
  );
  return outcome.kind === 'answer'
    ? readResult(outcome.status === 200 ? 200 : outcome.status, outcome.body)
    : { kind: 'unknown' };
};
