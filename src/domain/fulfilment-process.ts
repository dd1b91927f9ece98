import type { HealthReason } from './offer-health.js';
import type { OfferState } from './offer.js';
import type { OrderItem } from './order.js';
import { nextPollAt } from './supplier-schedule.js';
import {
  CANCEL_ATTEMPT_OFFSETS_MS,
  FAST_DELIVERY_MS,
  HEALTHCHECK_EVERY_MS,
  HEALTHCHECK_IN_COOLDOWN_EVERY_MS,
  ORDER_ATTEMPTS,
  ORDER_RETRY_MS,
  RESERVATION_TTL_MS,
} from './contract-timings.js';
import { step, workflow } from './workflow.js';

/**
 * The declared-stock contract as a workflow (src/domain/workflow.ts): what to do next given
 * the order as it stands, the step that is due and, after a call to the supplier, what it
 * answered. The runner (src/processes/declared-runner.ts) loads, calls and performs; this
 * module never does I/O and never reads the clock (every input carries the instant it was read at).
 *
 * The process keeps no state of its own: its state is the order, folded by the order
 * decider, and each durable timer's payload; `evolve` folds into it what an answer changed
 * on the order, for the inputs of the same run that follow. A step whose action is a call to
 * the supplier (`placeSupplierOrder`, `reserveAgain`, `pollItems`, `returnItems`,
 * `probeHealthcheck`) is decided again with the answer as the next input.
 *
 * Timings and attempts are the spec's table "Supplier-side timeouts and attempts"
 * (src/domain/supplier-schedule.ts).
 */

/** An order item as the process reads it. */
export type ProcessItem = Pick<OrderItem, 'orderItemId' | 'offerId' | 'source' | 'status' | 'supplierOrderedAt'>;

export interface FulfilmentState {
  orderId: string | null;
  items: readonly ProcessItem[];
}

/** Nothing known about an order: the steps that run from their timer's payload alone. */
export const initialState: FulfilmentState = { orderId: null, items: [] };

/** One POST /orders attempt (the `declared.order` timer's payload). */
export interface OrderAttempt {
  orderId: string;
  orderItemId: string;
  attempt: number;
  /** When the first POST /orders of this cycle was due: the `orderedAt` the supplier order records. */
  firstAt: string;
  /** This cycle follows a 410 and its fresh reservation: a second 410 is not renewed again. */
  renewed?: boolean;
}

/** One DELETE /orders/{id}/items attempt (the `declared.return` timer's payload). */
export interface ReturnAttempt {
  offerId: string;
  orderItemId: string;
  attempt: number;
}

export type SupplierOrderAnswer = 'accepted' | 'expired' | 'failed';
export type ItemsAnswer = 'ready' | 'pending' | 'bad';

export type FulfilmentInput =
  /** The buyer's payment is authorized: every declared item is ordered from its supplier. */
  | { type: 'PaymentAuthorized'; now: Date }
  | { type: 'OrderAttemptDue'; attempt: OrderAttempt; now: Date }
  | { type: 'SupplierOrderAnswered'; attempt: OrderAttempt; answer: SupplierOrderAnswer; now: Date }
  /** After a 410: whether the fresh reservation (POST /reservations) is held. */
  | { type: 'FreshReservationAnswered'; attempt: OrderAttempt; reservationId: string | null; now: Date }
  | { type: 'PollDue'; orderItemId: string; now: Date }
  | { type: 'ItemsPolled'; orderItemId: string; answer: ItemsAnswer; now: Date }
  | { type: 'ItemCancelled'; orderItemId: string; reason: string; now: Date }
  | { type: 'ItemRerouted'; orderItemId: string; now: Date }
  | { type: 'ReturnDue'; return: ReturnAttempt }
  /** `dueAt` is the attempt's due time: the next attempt counts from the first, not from now. */
  | { type: 'ReturnAnswered'; return: ReturnAttempt; returned: boolean; dueAt: Date }
  | { type: 'Refunded'; orderItemIds: readonly string[]; now: Date };

export type FulfilmentAction =
  | { kind: 'schedule'; timer: 'declared.order'; key: string; at: Date; payload: OrderAttempt }
  | { kind: 'schedule'; timer: 'declared.poll'; key: string; at: Date; payload: { orderId: string } }
  | { kind: 'schedule'; timer: 'declared.return'; key: string; at: Date; payload: ReturnAttempt }
  /** Runs the due timer again at `at` (the next poll of the same item). */
  | { kind: 'pollAgain'; at: Date }
  /** POST /orders; answers SupplierOrderAnswered. */
  | { kind: 'placeSupplierOrder'; attempt: OrderAttempt }
  /** POST /reservations for a fresh reservation after a 410; answers FreshReservationAnswered. */
  | { kind: 'reserveAgain'; attempt: OrderAttempt; expiresAt: string }
  | { kind: 'renewReservation'; orderItemId: string; reservationId: string }
  /** GET /orders/{id}/items; answers ItemsPolled. */
  | { kind: 'pollItems'; orderItemId: string }
  /** Hands the polled items to the buyer (the delivery's health outcome is `deliveryOutcome`). */
  | { kind: 'deliver'; orderItemId: string }
  /** Captures the payment once every item is provisioned. */
  | { kind: 'capture' }
  | { kind: 'recordOutcome'; offerId: string; reason: HealthReason; cause: string }
  | { kind: 'cancel'; orderItemId: string; reason: string }
  | { kind: 'reroute'; orderItemId: string }
  /** Hands over uploaded keys at once (a reroute to an uploaded-stock offer). */
  | { kind: 'provision' }
  /** DELETE /orders/{id}/items; answers ReturnAnswered. */
  | { kind: 'returnItems'; return: ReturnAttempt };

const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);

/** The first attempt of a POST /orders cycle, or a later one (keys tell cycles and attempts apart). */
const orderAttempt = (p: Omit<OrderAttempt, 'attempt'> & { attempt?: number }, at: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.order',
  key: `${p.orderItemId}:${p.renewed ? 'r' : ''}${p.attempt ?? 1}`,
  at,
  payload: { attempt: 1, ...p },
});

const pollNow = (orderId: string, orderItemId: string, now: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.poll',
  key: orderItemId,
  at: now,
  payload: { orderId },
});

const firstReturn = (offerId: string, orderItemId: string, now: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.return',
  key: `${orderItemId}:1`,
  at: now,
  payload: { offerId, orderItemId, attempt: 1 },
});

/** Items ready within 60 s of the first POST /orders earn the bigger bonus. */
export const deliveryOutcome = (orderedAt: Date, deliveredAt: Date): 'fast_delivery' | 'delivery' =>
  deliveredAt.getTime() - orderedAt.getTime() <= FAST_DELIVERY_MS ? 'fast_delivery' : 'delivery';

const itemOf = (state: FulfilmentState, orderItemId: string) => state.items.find((i) => i.orderItemId === orderItemId);

type Decide<T extends FulfilmentInput['type']> = (
  input: Extract<FulfilmentInput, { type: T }>,
  state: FulfilmentState,
) => FulfilmentAction[];

/** The first attempt of a new POST /orders cycle for an item, due now. */
const startCycle = (state: FulfilmentState, orderItemId: string, now: Date) =>
  orderAttempt({ orderId: state.orderId!, orderItemId, firstAt: now.toISOString() }, now);

const paymentAuthorized: Decide<'PaymentAuthorized'> = (input, state) =>
  state.items
    .filter((i) => i.source === 'declared' && i.status === 'reserved' && !i.supplierOrderedAt)
    .map((i) => startCycle(state, i.orderItemId, input.now));

const orderAttemptDue: Decide<'OrderAttemptDue'> = (input, state) => {
  const item = itemOf(state, input.attempt.orderItemId);
  if (!item || item.status !== 'reserved') return [];
  // ordered already, by a run that died before scheduling the polls: schedule them now (keyed, so harmless twice)
  if (item.supplierOrderedAt) return [pollNow(input.attempt.orderId, item.orderItemId, input.now)];
  return [{ kind: 'placeSupplierOrder', attempt: input.attempt }];
};

const supplierOrderAnswered: Decide<'SupplierOrderAnswered'> = (input, state) => {
  const p = input.attempt;
  const item = itemOf(state, p.orderItemId);
  if (!item) return [];
  if (input.answer === 'accepted') return [pollNow(p.orderId, item.orderItemId, input.now)];
  // 410: one fresh reservation plus order cycle, then failover (a failed renewal costs no health)
  if (input.answer === 'expired' && !p.renewed)
    return [{ kind: 'reserveAgain', attempt: p, expiresAt: plus(input.now, RESERVATION_TTL_MS).toISOString() }];
  if (input.answer === 'failed' && p.attempt < ORDER_ATTEMPTS)
    return [orderAttempt({ ...p, attempt: p.attempt + 1 }, plus(input.now, ORDER_RETRY_MS))];
  return [
    { kind: 'recordOutcome', offerId: item.offerId, reason: 'call_failure', cause: item.orderItemId },
    {
      kind: 'cancel',
      orderItemId: item.orderItemId,
      reason: input.answer === 'expired' ? 'reservation_expired' : 'supplier_order_failed',
    },
  ];
};

const freshReservationAnswered: Decide<'FreshReservationAnswered'> = (input) => {
  const p = input.attempt;
  if (input.reservationId === null)
    return [{ kind: 'cancel', orderItemId: p.orderItemId, reason: 'reservation_expired' }];
  return [
    { kind: 'renewReservation', orderItemId: p.orderItemId, reservationId: input.reservationId },
    orderAttempt({ ...p, attempt: 1, renewed: true }, input.now),
  ];
};

const pollDue: Decide<'PollDue'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item || !item.supplierOrderedAt) return [];
  // delivered by a poll that stopped before its capture (a crash in between): this poll's
  // timer runs again, and the capture is still owed (it changes nothing once made)
  if (item.status === 'delivered') return [{ kind: 'capture' }];
  if (item.status !== 'reserved') return [];
  return [{ kind: 'pollItems', orderItemId: item.orderItemId }];
};

const itemsPolled: Decide<'ItemsPolled'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item?.supplierOrderedAt) return [];
  if (input.answer === 'ready') return [{ kind: 'deliver', orderItemId: item.orderItemId }, { kind: 'capture' }];
  // pending, or an answer that cannot be used: poll on while the window is open
  const next = nextPollAt(new Date(item.supplierOrderedAt).getTime(), input.now.getTime());
  if (next !== null) return [{ kind: 'pollAgain', at: new Date(next) }];
  // the allocation window closed without items
  return [
    { kind: 'recordOutcome', offerId: item.offerId, reason: 'missed_window', cause: item.orderItemId },
    { kind: 'cancel', orderItemId: item.orderItemId, reason: 'missed_window' },
  ];
};

const itemCancelled: Decide<'ItemCancelled'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item) return [];
  const actions: FulfilmentAction[] = [];
  // after POST /orders failed on every attempt the supplier may still have recorded the
  // sale (a timeout says nothing): the DELETE tells it to withhold the keys either way
  if (item.source === 'declared' && (item.supplierOrderedAt || input.reason === 'supplier_order_failed'))
    actions.push(firstReturn(item.offerId, item.orderItemId, input.now));
  // a top-up is never rerouted (the buyer's account was validated at one supplier); an expired order is over
  if (item.source !== 'topup' && input.reason !== 'order_expired')
    actions.push({ kind: 'reroute', orderItemId: item.orderItemId });
  actions.push({ kind: 'capture' });
  return actions;
};

const itemRerouted: Decide<'ItemRerouted'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item || item.status !== 'reserved') return [];
  if (item.source === 'uploaded') return [{ kind: 'provision' }];
  return [startCycle(state, item.orderItemId, input.now)];
};

const returnAnswered: Decide<'ReturnAnswered'> = (input) => {
  const p = input.return;
  if (input.returned) return [];
  const offset = CANCEL_ATTEMPT_OFFSETS_MS[p.attempt];
  if (offset === undefined) return []; // best effort: given up after the last attempt
  const first = input.dueAt.getTime() - CANCEL_ATTEMPT_OFFSETS_MS[p.attempt - 1]!;
  return [
    {
      kind: 'schedule',
      timer: 'declared.return',
      key: `${p.orderItemId}:${p.attempt + 1}`,
      at: new Date(first + offset),
      payload: { ...p, attempt: p.attempt + 1 },
    },
  ];
};

/** A refund of declared keys tells the supplier to withhold them. */
const refunded: Decide<'Refunded'> = (input, state) =>
  state.items
    .filter((i) => input.orderItemIds.includes(i.orderItemId) && i.source === 'declared')
    .map((i) => firstReturn(i.offerId, i.orderItemId, input.now));

/**
 * The supplier accepted the order: the order records the cycle's first time as the item's
 * `supplierOrderedAt` (kept if it holds one), which the polls and the allocation window count from.
 */
const supplierOrdered = (
  state: FulfilmentState,
  input: Extract<FulfilmentInput, { type: 'SupplierOrderAnswered' }>,
): FulfilmentState =>
  input.answer !== 'accepted'
    ? state
    : {
        ...state,
        items: state.items.map((i) =>
          i.orderItemId === input.attempt.orderItemId
            ? { ...i, supplierOrderedAt: i.supplierOrderedAt ?? input.attempt.firstAt }
            : i,
        ),
      };

/** The declared-stock contract: one decision per input, and what an answer changes in the state. */
export const declaredWorkflow = workflow<FulfilmentInput, FulfilmentState, FulfilmentAction>({
  name: 'declared-stock',
  initialState,
  decide: {
    PaymentAuthorized: paymentAuthorized,
    OrderAttemptDue: orderAttemptDue,
    SupplierOrderAnswered: supplierOrderAnswered,
    FreshReservationAnswered: freshReservationAnswered,
    PollDue: pollDue,
    ItemsPolled: itemsPolled,
    ItemCancelled: itemCancelled,
    ItemRerouted: itemRerouted,
    ReturnDue: (input) => [{ kind: 'returnItems', return: input.return }],
    ReturnAnswered: returnAnswered,
    Refunded: refunded,
  },
  evolve: { SupplierOrderAnswered: supplierOrdered },
});

export const decide = declaredWorkflow.decide;

/** The offer as the healthcheck step reads it. */
export type HealthcheckOffer = Pick<OfferState, 'stockMode' | 'status' | 'cooldownUntil'>;

export type HealthcheckInput =
  | { type: 'HealthcheckDue'; offer: HealthcheckOffer | null }
  /** The probe's result is recorded on the offer, which decides what it means; `offer` is the state after. */
  | { type: 'HealthcheckRecorded'; offer: HealthcheckOffer | null; now: Date };

export type HealthcheckAction = { kind: 'probeHealthcheck' } | { kind: 'pollAgain'; at: Date };

type HealthcheckState = HealthcheckOffer | null;

/**
 * GET /healthcheck: every 5 minutes while active, every 10 in cooldown; an inactive offer is
 * not probed. Each input carries the offer as it was read (due) or as the probe's result left it.
 */
export const healthcheckWorkflow = workflow<HealthcheckInput, HealthcheckState, HealthcheckAction>({
  name: 'healthcheck',
  initialState: null,
  decide: {
    HealthcheckDue: (_, offer) =>
      offer && offer.stockMode === 'declared' && offer.status === 'active' ? [{ kind: 'probeHealthcheck' }] : [],
    HealthcheckRecorded: (input, offer) =>
      !offer || offer.status !== 'active'
        ? []
        : [
            {
              kind: 'pollAgain',
              at: plus(
                input.now,
                offer.cooldownUntil !== null ? HEALTHCHECK_IN_COOLDOWN_EVERY_MS : HEALTHCHECK_EVERY_MS,
              ),
            },
          ],
  },
  evolve: { HealthcheckDue: (_, input) => input.offer, HealthcheckRecorded: (_, input) => input.offer },
});

/** One healthcheck input decided against the offer it carries. */
export const decideHealthcheck = (input: HealthcheckInput): HealthcheckAction[] =>
  step(healthcheckWorkflow, healthcheckWorkflow.initialState, input).actions;
