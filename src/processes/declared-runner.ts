import type { OrderCommand } from '../domain/order.js';
import { deliverDeclared, rerouteItem } from '../commands/declared-flow.js';
import {
  orderFromSupplier,
  pollSupplierItems,
  recordOutcome,
  reserveDeclared,
  returnSupplierItems,
} from '../commands/declared.js';
import { captureIfProvisioned, provisionOrder } from '../commands/orders.js';
import { onOrder } from '../commands/order-command.js';
import {
  declaredWorkflow,
  type FulfilmentAction,
  type FulfilmentInput,
  type FulfilmentState,
  initialState,
} from '../domain/fulfilment-process.js';
import { required } from '../domain/required.js';
import { faultPoint } from '../faults.js';
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

type Act<K extends FulfilmentAction['kind']> = (
  r: OrderRun,
  a: Extract<FulfilmentAction, { kind: K }>,
) => Promise<Performed<FulfilmentInput>>;

const placeSupplierOrder: Act<'placeSupplierOrder'> = async (r, a) => {
  const item = itemIn(r, a.attempt.orderItemId);
  const answer = await orderFromSupplier(r.deps, orderOf(r), item, a.attempt.firstAt, callerOf(r));
  faultPoint('after-supplier-call');
  return { type: 'SupplierOrderAnswered', attempt: a.attempt, answer, now: now(r) };
};

const reserveAgain: Act<'reserveAgain'> = async (r, a) => {
  const item = itemIn(r, a.attempt.orderItemId);
  const offer = await loadOffer(r.deps, item.offerId);
  const wanted = { quantity: item.quantity, buyerCountry: orderOf(r).buyerCountry, expiresAt: a.expiresAt };
  const held = offer ? await reserveDeclared(r.deps, offer, wanted, callerOf(r)) : { held: false as const };
  const reservationId = held.held ? held.reservationId : null;
  return { type: 'FreshReservationAnswered', attempt: a.attempt, reservationId, now: now(r) };
};

const renewReservation: Act<'renewReservation'> = async (r, a) => {
  const renew = (at: string): OrderCommand => ({
    type: 'RenewReservation',
    data: { orderItemId: a.orderItemId, reservationId: a.reservationId, now: at },
  });
  await onOrder(r.deps, orderOf(r).id, renew, callerOf(r));
};

const pollItems: Act<'pollItems'> = async (r, a) => {
  const result = await pollSupplierItems(r.deps, itemIn(r, a.orderItemId));
  if (result.kind === 'ready') r.received = result.items;
  return { type: 'ItemsPolled', orderItemId: a.orderItemId, answer: result.kind, now: now(r) };
};

const deliver: Act<'deliver'> = async (r, a) => {
  const received = required(r.received, `the polled items of order item ${a.orderItemId}`);
  await deliverDeclared(r.deps, orderOf(r), itemIn(r, a.orderItemId), received, callerOf(r));
};

/** A cancellation is correlated with its item, whichever step made it. */
const cancel: Act<'cancel'> = async (r, a) => {
  const command = (at: string): OrderCommand => ({
    type: 'CancelItem',
    data: { orderItemId: itemIn(r, a.orderItemId).orderItemId, reason: a.reason, now: at },
  });
  await onOrder(r.deps, orderOf(r).id, command, { correlationId: `cancel:${a.orderItemId}` });
};

const returnItems: Act<'returnItems'> = async (r, a) => {
  const returned = await returnSupplierItems(r.deps, a.return.offerId, a.return.orderItemId);
  return { type: 'ReturnAnswered', return: a.return, returned, dueAt: r.t.dueAt };
};

/** The declared-stock calls and commands; a return's run has no order, and only the actions on an order read it. */
const perform: Performers<OrderRun, FulfilmentInput, FulfilmentAction> = {
  placeSupplierOrder,
  reserveAgain,
  renewReservation,
  pollItems,
  deliver,
  capture: async (r) => void (await captureIfProvisioned(r.deps, orderOf(r).id, callerOf(r))),
  recordOutcome: async (r, a) => void (await recordOutcome(r.deps, a.offerId, a.reason, a.cause, callerOf(r))),
  cancel,
  reroute: async (r, a) =>
    void (await rerouteItem(r.deps, orderOf(r).id, itemIn(r, a.orderItemId), r.rank, callerOf(r))),
  provision: async (r) => void (await provisionOrder(r.deps, orderOf(r).id, callerOf(r))),
  returnItems,
};

/** The timers of the declared-stock contract, each the input it is. */
const start: Start<FulfilmentEnv, OrderRun, FulfilmentInput> = {
  /** After authorization: ask each declared item's supplier to convert its reservation. */
  'declared.start': async (env, t) => [await withOrder(env, t, t.key), { type: 'PaymentAuthorized', now: now(env) }],
  /** POST /orders: 10 s, 3 attempts 5 s apart; 410 gets one fresh reservation plus order cycle. */
  'declared.order': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'OrderAttemptDue', attempt: t.payload, now: now(env) },
  ],
  /** Polls at +0, +5, +15, +30 s, then every 60 s, inside the 10-minute window. */
  'declared.poll': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'PollDue', orderItemId: t.key, now: now(env) },
  ],
  /** A cancelled declared item: take the stock back at the supplier, then reroute or let the buyer off. */
  'declared.cancelled': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'ItemCancelled', orderItemId: t.key, reason: t.payload.reason, now: now(env) },
  ],
  /** A rerouted item: uploaded keys are handed over at once, declared ones go through the contract. */
  'declared.rerouted': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'ItemRerouted', orderItemId: t.key, now: now(env) },
  ],
  /** DELETE /orders/{id}/items: 10 s, 3 attempts over an hour; 405 is an answer too. */
  'declared.return': async (env, t) => [
    { ...env, t, order: null },
    { type: 'ReturnDue', return: t.payload },
  ],
  /** A refund of declared keys tells the supplier to withhold them. */
  'declared.refunded': async (env, t) => [
    await withOrder(env, t, t.payload.orderId),
    { type: 'Refunded', orderItemIds: t.payload.orderItemIds, now: now(env) },
  ],
};

/** The declared-stock contract: the decisions of src/domain/fulfilment-process.ts, run. */
export const declaredRunner: WorkflowRunner<
  FulfilmentEnv,
  OrderRun,
  FulfilmentState,
  FulfilmentInput,
  FulfilmentAction
> = {
  workflow: declaredWorkflow,
  stateOf: (r) => (r.order ? { orderId: r.order.id, items: r.order.items } : initialState),
  perform,
  start,
};
