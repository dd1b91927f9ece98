import type { Caller } from '../commands/context.js';
import { recordOutcome } from '../commands/declared.js';
import { onOrder } from '../commands/order-command.js';
import { loadOrder, refundOrder } from '../commands/orders.js';
import { executeTopup, topupOf, topupStatus, validateTopup } from '../commands/topup.js';
import type { OrderCommand, OrderItem } from '../domain/order.js';
import { type TopupAction, type TopupInput, type TopupState, topupWorkflow } from '../domain/topup-process.js';
import {
  callerOf,
  type FulfilmentEnv,
  itemIn,
  loadOffer,
  now,
  type OrderRun,
  orderOf,
  withOrder,
} from './order-run.js';
import type { Performed, Performers, Start, WorkflowRunner } from './workflow-runner.js';

type Act<K extends TopupAction['kind']> = (
  r: OrderRun,
  a: Extract<TopupAction, { kind: K }>,
) => Promise<Performed<TopupInput>>;

/** A top-up's outcome is correlated with its item, whichever step recorded it. */
const topupCaller = (item: OrderItem): Caller => ({ correlationId: `topup:${item.orderItemId}` });

const revalidate: Act<'revalidate'> = async (r, a) => {
  const item = itemIn(r, a.attempt.orderItemId);
  const offer = await loadOffer(r.deps, item.offerId);
  const wanted = {
    quantity: item.quantity,
    buyerCountry: orderOf(r).buyerCountry,
    formFields: topupOf(item).formFields,
  };
  const answer = offer ? await validateTopup(r.deps, offer, wanted, callerOf(r)) : ({ kind: 'unavailable' } as const);
  return { type: 'Revalidated', attempt: a.attempt, answer };
};

const recordRevalidation: Act<'recordRevalidation'> = async (r, a) => {
  const { orderItemId } = a.attempt;
  const command = (at: string): OrderCommand => ({
    type: 'RevalidateTopup',
    data: { orderItemId, operationId: a.operationId, accountLabel: a.accountLabel, now: at },
  });
  await onOrder(r.deps, orderOf(r).id, command, callerOf(r));
  // the execute that follows carries the fresh operation
  r.order = await loadOrder(r.deps, a.attempt.orderId);
  return { type: 'RevalidationRecorded', attempt: a.attempt, at: topupOf(itemIn(r, orderItemId)).validatedAt };
};

const executeTopupAct: Act<'executeTopup'> = async (r, a) => {
  const item = itemIn(r, a.attempt.orderItemId);
  const answer = await executeTopup(r.deps, orderOf(r).id, item, a.attempt.attempt);
  return { type: 'ExecuteAnswered', attempt: a.attempt, answer, now: now(r) };
};

const pollStatus: Act<'pollStatus'> = async (r, a) => {
  const answer = await topupStatus(r.deps, itemIn(r, a.orderItemId));
  return { type: 'StatusAnswered', orderItemId: a.orderItemId, firstAt: a.firstAt, answer, now: now(r) };
};

const completeTopup: Act<'completeTopup'> = async (r, a) => {
  const item = itemIn(r, a.orderItemId);
  const operationId = topupOf(item).operationId;
  const command = (at: string): OrderCommand => ({
    type: 'CompleteTopup',
    data: { orderItemId: item.orderItemId, operationId, receiptRef: a.receiptRef, now: at },
  });
  await onOrder(r.deps, orderOf(r).id, command, topupCaller(item));
};

const failTopup: Act<'failTopup'> = async (r, a) => {
  const item = itemIn(r, a.orderItemId);
  const { code, message, stage } = a;
  const operationId = topupOf(item).operationId;
  const command = (at: string): OrderCommand => ({
    type: 'FailTopup',
    data: { orderItemId: item.orderItemId, operationId, code, message, ...(stage && { stage }), now: at },
  });
  await onOrder(r.deps, orderOf(r).id, command, topupCaller(item));
};

/** The top-up calls and commands. */
const perform: Performers<OrderRun, TopupInput, TopupAction> = {
  revalidate,
  recordRevalidation,
  executeTopup: executeTopupAct,
  pollStatus,
  completeTopup,
  failTopup,
  refund: async (r, a) => void (await refundOrder(r.deps, orderOf(r).id, [a.orderItemId], callerOf(r))),
  recordOutcome: async (r, a) => void (await recordOutcome(r.deps, a.offerId, a.reason, a.cause, callerOf(r))),
};

/** The timers of the top-up contract, each the input it is. */
const start: Start<FulfilmentEnv, OrderRun, TopupInput> = {
  /** After capture: execute each top-up with its latest validation (re-validated when stale). */
  'topup.start': async (env, t) => [await withOrder(env, t, t.key), { type: 'PaymentCaptured', now: now(env) }],
  /** POST /topup/execute: 30 s, 3 attempts 10 s apart, then status polls until 15 minutes. */
  'topup.execute': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'ExecuteDue', attempt: t.payload, now: now(env) },
  ],
  /** GET /topup/operations/{id}: every 10 s for a minute, then every 30 s; unresolved at 15 minutes is a failure. */
  'topup.status': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'StatusDue', orderItemId: t.key, firstAt: t.payload.firstAt },
  ],
  /**
   * A definitive top-up failure: the buyer is refunded, the offer takes -25 and a cooldown.
   * A re-validation the supplier refused (or could not answer) refunds too, but no execute
   * failed: its validate outcome already counted (-2 for a timeout or 5xx, nothing for invalid).
   */
  'topup.failed': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'TopupFailed', orderItemId: t.key, executeFailed: t.payload.executeFailed ?? true },
  ],
};

/** The top-up contract: the decisions of src/domain/topup-process.ts, run. */
export const topupRunner: WorkflowRunner<FulfilmentEnv, OrderRun, TopupState, TopupInput, TopupAction> = {
  workflow: topupWorkflow,
  stateOf: (r) => {
    const order = orderOf(r);
    return { orderId: order.id, items: order.items };
  },
  perform,
  start,
};
