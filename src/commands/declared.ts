import type { ReceivedItem } from './declared-items.js';
import { parseReadyItems } from './declared-items.js';
import { DomainError } from '../domain/errors.js';
import type { HealthReason } from '../domain/offer-health.js';
import { type OfferCommand, offerDecider, type OfferState } from '../domain/offer.js';
import { type OrderItem, type OrderState } from '../domain/order.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import { itemsAnswerBytes } from '../outbound/answer-limits.js';
import { callSupplier, codeOf } from '../outbound/supplier-calls.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { endpointOf } from './offers.js';
import { RESERVATION_ATTEMPTS, RESERVATION_RETRY_MS } from '../domain/contract-timings.js';
import { offerStream } from './streams.js';
import { eur } from '../domain/money.js';
import { onOrder } from './order-command.js';

/**
 * The declared-stock contract, step by step: each function makes one call (or one
 * attempt) to the supplier's systems and records what it learned. The schedule between
 * steps (retries, polls, the allocation window) lives in src/processes/fulfilment.ts.
 */

/**
 * Records one health outcome. `cause` names what it is about (an order item, a
 * reservation, a validation): the outcome's identity is `reason:cause`, which the offer
 * applies once only, so a step re-run after a crash cannot apply it twice.
 */
export const recordOutcome = async (
  deps: CommandDeps,
  offerId: string,
  reason: HealthReason,
  cause: string,
  caller: Caller,
) => {
  const result = await execute(
    deps,
    offerStream(offerId),
    offerDecider,
    (now): OfferCommand => ({ type: 'RecordOutcome', data: { reason, outcomeId: `${reason}:${cause}`, now } }),
    caller,
  );
  faultPoint('after-health-outcome');
  return result;
};

const callOf = (deps: CommandDeps, offer: OfferState) => ({
  endpoint: endpointOf(deps, offer, deps.clock.now()),
  deps: { clock: deps.clock, policy: deps.targets, metrics: deps.metrics },
});

export type ReservationResult =
  { held: true; reservationId: string } | { held: false; reason: 'out_of_stock' | 'region_blocked' | 'failure' };

/**
 * POST /reservations at checkout: 10 s, 2 attempts 2 s apart. `409 out_of_stock` costs 2
 * health points, any other failure 5 (after both attempts); `region_blocked` costs nothing.
 * Either way the caller goes on to the next offer.
 */
export const reserveDeclared = async (
  deps: CommandDeps,
  offer: OfferState,
  input: { quantity: number; buyerCountry: string; expiresAt: string },
  caller: Caller,
): Promise<ReservationResult> => {
  const reservationId = newId();
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const body = {
    reservation_id: reservationId,
    offer_id: offer.id,
    external_ref: offer.terms.externalRef,
    product_id: offer.productId,
    quantity: input.quantity,
    buyer_country: input.buyerCountry,
    expires_at: input.expiresAt,
  };
  for (let attempt = 1; attempt <= RESERVATION_ATTEMPTS; attempt++) {
    const outcome = await callSupplier(endpoint, 'POST', '/reservations', body, deps.timeouts.reservationMs, callDeps);
    if (outcome.kind === 'answer') {
      if (outcome.status === 201 || outcome.status === 200) return { held: true, reservationId };
      if (outcome.status === 409 && codeOf(outcome.body) === 'out_of_stock') {
        await recordOutcome(deps, offer.id, 'out_of_stock', reservationId, caller);
        return { held: false, reason: 'out_of_stock' };
      }
      if (outcome.status === 409 && codeOf(outcome.body) === 'region_blocked')
        return { held: false, reason: 'region_blocked' };
    }
    if (attempt < RESERVATION_ATTEMPTS) await deps.clock.sleep(RESERVATION_RETRY_MS);
  }
  await recordOutcome(deps, offer.id, 'call_failure', reservationId, caller);
  return { held: false, reason: 'failure' };
};

export type SupplierOrderResult = 'accepted' | 'expired' | 'failed';

/**
 * One attempt of POST /orders: `201 accepted`, `202 pending_stock` and a `409` duplicate
 * all mean the supplier has the sale; `410 reservation_expired` asks for a fresh
 * reservation; anything else is a failed attempt.
 */
export const orderFromSupplier = async (
  deps: CommandDeps,
  order: OrderState,
  item: OrderItem,
  orderedAt: string,
  caller: Caller,
): Promise<SupplierOrderResult> => {
  const offer = await stateOf(deps, offerStream(item.offerId), offerDecider);
  if (!offer) throw new DomainError('not_found', `offer ${item.offerId} not found`);
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'POST',
    '/orders',
    {
      // the supplier contract's order is one order item: one offer's share of the order
      order_id: item.orderItemId,
      reservation_id: item.reservationId,
      offer_id: item.offerId,
      external_ref: item.externalRef,
      quantity: item.quantity,
      unit_price: eur(item.unitPrice),
      buyer_country: order.buyerCountry,
      marketplace_order_id: order.id,
    },
    deps.timeouts.orderMs,
    callDeps,
  );
  if (outcome.kind !== 'answer') return 'failed';
  const pendingStock = outcome.status === 202;
  if (outcome.status === 201 || outcome.status === 409 || pendingStock) {
    await onOrder(
      deps,
      order.id,
      (now) => ({
        type: 'RecordSupplierOrder',
        data: {
          orderItemId: item.orderItemId,
          supplierStatus: pendingStock ? 'pending_stock' : 'accepted',
          orderedAt,
          now,
        },
      }),
      caller,
    );
    return 'accepted';
  }
  if (outcome.status === 410) return 'expired';
  return 'failed';
};

export type PollResult =
  { kind: 'ready'; items: ReceivedItem[] } | { kind: 'pending' } | { kind: 'bad'; detail: string };

/** One poll of GET /orders/{order_id}/items. */
export const pollSupplierItems = async (deps: CommandDeps, item: OrderItem): Promise<PollResult> => {
  const offer = await stateOf(deps, offerStream(item.offerId), offerDecider);
  if (!offer) return { kind: 'bad', detail: 'offer gone' };
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'GET',
    `/orders/${encodeURIComponent(item.orderItemId)}/items`,
    undefined,
    deps.timeouts.pollMs,
    callDeps,
    { maxAnswerBytes: itemsAnswerBytes(item.quantity) },
  );
  if (outcome.kind !== 'answer') return { kind: 'bad', detail: outcome.detail };
  if (outcome.status !== 200) return { kind: 'bad', detail: `HTTP ${outcome.status}` };
  const body = outcome.body as { status?: unknown; items?: unknown };
  if (body?.status === 'pending') return { kind: 'pending' };
  if (body?.status !== 'ready') return { kind: 'bad', detail: 'status is neither ready nor pending' };
  const parsed = parseReadyItems(body.items, item.quantity);
  return parsed.ok ? { kind: 'ready', items: parsed.items } : { kind: 'bad', detail: parsed.detail };
};

/** DELETE /orders/{order_id}/items: the supplier takes the stock back (`405`: not supported, fine too). */
export const returnSupplierItems = async (
  deps: CommandDeps,
  offerId: string,
  orderItemId: string,
): Promise<boolean> => {
  const offer = await stateOf(deps, offerStream(offerId), offerDecider);
  if (!offer?.fulfilment) return true;
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  const outcome = await callSupplier(
    endpoint,
    'DELETE',
    `/orders/${encodeURIComponent(orderItemId)}/items`,
    undefined,
    deps.timeouts.cancelMs,
    callDeps,
  );
  return outcome.kind === 'answer' && (outcome.status === 200 || outcome.status === 405 || outcome.status === 404);
};

/** DELETE /reservations/{id}: early release, best effort (the reservation expires anyway). */
export const releaseSupplierReservation = async (deps: CommandDeps, offerId: string, reservationId: string) => {
  const offer = await stateOf(deps, offerStream(offerId), offerDecider);
  if (!offer?.fulfilment) return;
  const { endpoint, deps: callDeps } = callOf(deps, offer);
  await callSupplier(
    endpoint,
    'DELETE',
    `/reservations/${encodeURIComponent(reservationId)}`,
    undefined,
    deps.timeouts.reservationMs,
    callDeps,
  );
};
