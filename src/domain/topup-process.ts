import type { OrderItem } from './order.js';
import {
  EXECUTE_ATTEMPTS,
  EXECUTE_RETRY_MS,
  STALE_VALIDATION_MS,
  STATUS_EARLY_EVERY_MS,
  STATUS_EARLY_FOR_MS,
  STATUS_LATE_EVERY_MS,
  TOPUP_WINDOW_MS,
} from './contract-timings.js';
import { workflow } from './workflow.js';

/**
 * The top-up contract after payment as a workflow: execute (re-validated when stale),
 * retries, status polls until the 15-minute window closes, and what a definitive failure
 * costs. Same shape as the declared-stock process (src/domain/fulfilment-process.ts): the
 * state is the order, each input carries the instant it was read at, and a call's answer
 * is decided as the next input (run by src/processes/topup-runner.ts).
 */

export type TopupItem = Pick<OrderItem, 'orderItemId' | 'offerId' | 'source' | 'status'> & {
  topup?: Pick<NonNullable<OrderItem['topup']>, 'validatedAt'> | null;
};

export interface TopupState {
  orderId: string;
  items: readonly TopupItem[];
}

/** One POST /topup/execute attempt (the `topup.execute` timer's payload). */
export interface ExecuteAttempt {
  orderId: string;
  orderItemId: string;
  attempt: number;
  /** When the first attempt was due: the 15-minute window runs from it. */
  firstAt: string;
}

/** What the supplier said about the operation (execute or status poll). */
export type TopupAnswer =
  | { kind: 'completed'; receiptRef: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'processing' }
  /** timeout, 5xx, or an answer that cannot be read */
  | { kind: 'unknown' };

/** POST /topup/validate again before a stale execution. */
export type RevalidationAnswer =
  | { kind: 'valid'; operationId: string; accountLabel: string }
  | { kind: 'invalid'; code: string }
  | { kind: 'unavailable' };

export type TopupInput =
  /** The payment is captured: every top-up item is executed. */
  | { type: 'PaymentCaptured'; now: Date }
  | { type: 'ExecuteDue'; attempt: ExecuteAttempt; now: Date }
  | { type: 'Revalidated'; attempt: ExecuteAttempt; answer: RevalidationAnswer }
  /** The fresh validation is recorded on the order; `at` is the instant it records. */
  | { type: 'RevalidationRecorded'; attempt: ExecuteAttempt; at: string }
  | { type: 'ExecuteAnswered'; attempt: ExecuteAttempt; answer: TopupAnswer; now: Date }
  | { type: 'StatusDue'; orderItemId: string; firstAt: string }
  | { type: 'StatusAnswered'; orderItemId: string; firstAt: string; answer: TopupAnswer; now: Date }
  /** OrderItemTopupFailed: `executeFailed` is false when the re-validation refused it. */
  | { type: 'TopupFailed'; orderItemId: string; executeFailed: boolean };

export type TopupAction =
  | { kind: 'schedule'; timer: 'topup.execute'; key: string; at: Date; payload: ExecuteAttempt }
  | { kind: 'schedule'; timer: 'topup.status'; key: string; at: Date; payload: { orderId: string; firstAt: string } }
  | { kind: 'pollAgain'; at: Date }
  /** POST /topup/validate; answers Revalidated. */
  | { kind: 'revalidate'; attempt: ExecuteAttempt }
  /** Records the fresh operation on the order; answers RevalidationRecorded. */
  | { kind: 'recordRevalidation'; attempt: ExecuteAttempt; operationId: string; accountLabel: string }
  /** POST /topup/execute; answers ExecuteAnswered. */
  | { kind: 'executeTopup'; attempt: ExecuteAttempt }
  /** GET /topup/operations/{id}; answers StatusAnswered. */
  | { kind: 'pollStatus'; orderItemId: string; firstAt: string }
  | { kind: 'completeTopup'; orderItemId: string; receiptRef: string }
  | { kind: 'failTopup'; orderItemId: string; code: string; message: string; stage?: 'revalidation' }
  | { kind: 'refund'; orderItemId: string }
  | { kind: 'recordOutcome'; offerId: string; reason: 'topup_execute_failed'; cause: string };

const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);
const itemOf = (state: TopupState, orderItemId: string) => state.items.find((i) => i.orderItemId === orderItemId);

/** completed and failed are definitive, whether execute or a status poll said so. */
const definitive = (orderItemId: string, answer: TopupAnswer): TopupAction[] | null => {
  if (answer.kind === 'completed') return [{ kind: 'completeTopup', orderItemId, receiptRef: answer.receiptRef }];
  if (answer.kind === 'failed') return [{ kind: 'failTopup', orderItemId, code: answer.code, message: answer.message }];
  return null;
};

type Decide<T extends TopupInput['type']> = (
  input: Extract<TopupInput, { type: T }>,
  state: TopupState,
) => TopupAction[];

const executeAt = (p: ExecuteAttempt, at: Date): TopupAction => ({
  kind: 'schedule',
  timer: 'topup.execute',
  key: `${p.orderItemId}:${p.attempt}`,
  at,
  payload: p,
});

const paymentCaptured: Decide<'PaymentCaptured'> = (input, state) =>
  state.items
    .filter((i) => i.source === 'topup' && i.status === 'reserved')
    .map((i) =>
      executeAt(
        { orderId: state.orderId, orderItemId: i.orderItemId, attempt: 1, firstAt: input.now.toISOString() },
        input.now,
      ),
    );

const executeDue: Decide<'ExecuteDue'> = (input, state) => {
  const p = input.attempt;
  const item = itemOf(state, p.orderItemId);
  if (!item?.topup || item.status !== 'reserved') return [];
  // the supplier validated the account more than 15 minutes ago: ask again before money moves
  if (p.attempt === 1 && input.now.getTime() - new Date(item.topup.validatedAt).getTime() > STALE_VALIDATION_MS)
    return [{ kind: 'revalidate', attempt: p }];
  return [{ kind: 'executeTopup', attempt: p }];
};

const revalidated: Decide<'Revalidated'> = (input) => {
  const a = input.answer;
  if (a.kind === 'valid')
    return [
      { kind: 'recordRevalidation', attempt: input.attempt, operationId: a.operationId, accountLabel: a.accountLabel },
    ];
  return [
    {
      kind: 'failTopup',
      orderItemId: input.attempt.orderItemId,
      code: a.kind === 'invalid' ? a.code : 'validation_unavailable',
      message: 'the account could not be validated again before execution',
      stage: 'revalidation',
    },
  ];
};

const revalidationRecorded: Decide<'RevalidationRecorded'> = (input, state) =>
  itemOf(state, input.attempt.orderItemId)?.topup ? [{ kind: 'executeTopup', attempt: input.attempt }] : [];

const executeAnswered: Decide<'ExecuteAnswered'> = (input) => {
  const p = input.attempt;
  const done = definitive(p.orderItemId, input.answer);
  if (done) return done;
  // timeout or 5xx: 3 attempts 10 s apart (execute is idempotent on operation_id)
  if (input.answer.kind === 'unknown' && p.attempt < EXECUTE_ATTEMPTS)
    return [executeAt({ ...p, attempt: p.attempt + 1 }, plus(input.now, EXECUTE_RETRY_MS))];
  // processing, or every attempt unanswered: poll the status
  return [
    {
      kind: 'schedule',
      timer: 'topup.status',
      key: p.orderItemId,
      at: plus(input.now, STATUS_EARLY_EVERY_MS),
      payload: { orderId: p.orderId, firstAt: p.firstAt },
    },
  ];
};

const statusDue: Decide<'StatusDue'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item?.topup || item.status !== 'reserved') return [];
  return [{ kind: 'pollStatus', orderItemId: item.orderItemId, firstAt: input.firstAt }];
};

const statusAnswered: Decide<'StatusAnswered'> = (input) => {
  const done = definitive(input.orderItemId, input.answer);
  if (done) return done;
  const first = new Date(input.firstAt).getTime();
  const elapsed = input.now.getTime() - first;
  if (elapsed >= TOPUP_WINDOW_MS)
    return [
      { kind: 'failTopup', orderItemId: input.orderItemId, code: 'unresolved', message: 'no result within 15 minutes' },
    ];
  const every = elapsed < STATUS_EARLY_FOR_MS ? STATUS_EARLY_EVERY_MS : STATUS_LATE_EVERY_MS;
  // the last poll falls on the window's end, not after it
  return [{ kind: 'pollAgain', at: new Date(Math.min(input.now.getTime() + every, first + TOPUP_WINDOW_MS)) }];
};

/**
 * The buyer is refunded; the offer takes -25 and a cooldown, unless no execute failed (a
 * refused re-validation: its validate outcome already counted).
 */
const topupFailed: Decide<'TopupFailed'> = (input, state) => {
  const item = itemOf(state, input.orderItemId);
  if (!item) return [];
  const refund: TopupAction = { kind: 'refund', orderItemId: item.orderItemId };
  if (!input.executeFailed) return [refund];
  return [
    refund,
    { kind: 'recordOutcome', offerId: item.offerId, reason: 'topup_execute_failed', cause: item.orderItemId },
  ];
};

/** The fresh validation is on the order now: the execute that follows counts its age from it. */
const revalidatedAt = (
  state: TopupState,
  input: Extract<TopupInput, { type: 'RevalidationRecorded' }>,
): TopupState => ({
  ...state,
  items: state.items.map((i) =>
    i.orderItemId === input.attempt.orderItemId && i.topup ? { ...i, topup: { validatedAt: input.at } } : i,
  ),
});

/** The top-up contract after payment: one decision per input, and what an answer changes in the state. */
export const topupWorkflow = workflow<TopupInput, TopupState, TopupAction>({
  name: 'topup',
  initialState: { orderId: '', items: [] },
  decide: {
    PaymentCaptured: paymentCaptured,
    ExecuteDue: executeDue,
    Revalidated: revalidated,
    RevalidationRecorded: revalidationRecorded,
    ExecuteAnswered: executeAnswered,
    StatusDue: statusDue,
    StatusAnswered: statusAnswered,
    TopupFailed: topupFailed,
  },
  evolve: { RevalidationRecorded: revalidatedAt },
});

export const decideTopup = topupWorkflow.decide;
