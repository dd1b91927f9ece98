import { faultPoint } from '../faults.js';
import type { Caller, CommandDeps } from '../commands/context.js';
import { deliverDeclared, rerouteItem } from '../commands/declared-flow.js';
import {
  orderFromSupplier,
  pollSupplierItems,
  recordOutcome,
  reserveDeclared,
  returnSupplierItems,
} from '../commands/declared.js';
import type { ReceivedItem } from '../commands/declared-items.js';
import { load } from '../commands/handle.js';
import { postSales } from '../commands/ledger.js';
import { endpointOf } from '../commands/offers.js';
import { captureIfProvisioned, loadOrder, provisionOrder, refundOrder } from '../commands/orders.js';
import { executeTopup, topupOf, topupStatus, validateTopup } from '../commands/topup.js';
import { execute } from '../commands/context.js';
import {
  decide,
  decideHealthcheck,
  type FulfilmentAction,
  type FulfilmentInput,
  type FulfilmentState,
  initialState,
} from '../domain/fulfilment-process.js';
import { HEALTHCHECK_EVERY_MS } from '../domain/contract-timings.js';
import { type OfferCommand, type OfferEvent, offerDecider } from '../domain/offer.js';
import {
  type ItemSource,
  type OrderCommand,
  type OrderEvent,
  type OrderItem,
  type OrderState,
} from '../domain/order.js';
import { required } from '../domain/required.js';
import { decideTopup, type TopupAction, type TopupInput, type TopupState } from '../domain/topup-process.js';
import { projector } from '../projections/projector.js';
import { probeHealthcheck } from '../outbound/fulfilment-client.js';
import { scheduleTimer } from './schedule.js';
import type { DueTimer, TimerOutcome, Timers } from './timers.js';
import { offerStream } from '../commands/streams.js';
import { onOrder } from '../commands/order-command.js';

/** Events recorded before they named their items' sources may hold any. */
const holds = (sources: ItemSource[] | undefined, source: ItemSource) =>
  sources === undefined || sources.includes(source);

const later = (at: string, ms: number) => new Date(new Date(at).getTime() + ms);

/**
 * The supplier-hosted contracts as a process: declared stock (order, poll, allocation
 * window, return, reroute), top-ups (execute, status polls, failure refunds) and the
 * healthchecks behind offer health. Every step is a durable timer; every timing is the
 * spec's (src/outbound/supplier-timeouts.ts).
 */
export const fulfilmentProcess = projector<OrderEvent | OfferEvent>({
  name: 'fulfilment-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    // an order that says it holds no declared stock (or no top-up) has nothing for these to start
    OrderPaymentAuthorized: (db, e) =>
      holds(e.data.sources, 'declared') ? scheduleTimer('declared.start', e.data.orderId, e.data.at, {}) : undefined,
    OrderItemRerouted: (db, e) =>
      scheduleTimer('declared.rerouted', e.data.item.orderItemId, e.data.at, { orderId: e.data.orderId }),
    OrderItemCancelled: (db, e) =>
      scheduleTimer('declared.cancelled', e.data.orderItemId, e.data.at, {
        orderId: e.data.orderId,
        reason: e.data.reason,
      }),
    OrderPaid: (db, e) =>
      holds(e.data.sources, 'topup') ? scheduleTimer('topup.start', e.data.orderId, e.data.at, {}) : undefined,
    OrderItemTopupCompleted: (db, e) =>
      scheduleTimer('topup.post-sale', e.data.orderItemId, e.data.at, { orderId: e.data.orderId }),
    OrderItemTopupFailed: (db, e) =>
      scheduleTimer('topup.failed', e.data.orderItemId, e.data.at, {
        orderId: e.data.orderId,
        executeFailed: e.data.stage !== 'revalidation',
      }),
    OrderRefunded: (db, e) =>
      scheduleTimer('declared.refunded', e.data.refundId, e.data.at, {
        orderId: e.data.orderId,
        orderItemIds: e.data.items.map((i) => i.orderItemId),
      }),
    OfferActivated: (db, e) =>
      scheduleTimer('offer.healthcheck', e.data.offerId, later(e.data.at, HEALTHCHECK_EVERY_MS), {}),
  },
});

/** One run of a due timer: the order as loaded (read again after a change the next step needs). */
interface Run {
  t: DueTimer;
  order: OrderState | null;
  /** The items of the poll that answered `ready`, for the delivery that follows. */
  received?: ReceivedItem[];
}

type Next<I> = I | { runAgainAt: Date } | undefined;

/**
 * Performs each decided action in order. A call's answer comes back as the next input and
 * is decided at once, against the order as the run knows it; the run's outcome is the last
 * `pollAgain` (the timer runs again then) or nothing (done).
 */
const runWith = <S, I, A>(
  decideNext: (input: I, state: S) => A[],
  stateOf: (run: Run) => S,
  perform: (run: Run, action: A) => Promise<Next<I>>,
) =>
  async function run(r: Run, input: I): Promise<TimerOutcome> {
    let outcome: TimerOutcome = undefined;
    for (const action of decideNext(input, stateOf(r))) {
      const next = await perform(r, action);
      if (next === undefined) continue;
      if (typeof next === 'object' && next !== null && 'runAgainAt' in next) outcome = next;
      else outcome = (await run(r, next)) ?? outcome;
    }
    return outcome;
  };

/**
 * The runner of the supplier-hosted contracts: loads the order, calls the supplier and the
 * commands, and leaves every decision (attempts, polls, the allocation window, reroutes,
 * returns, health outcomes, top-up retries and status polls) to the pure processes in
 * src/domain/fulfilment-process.ts and src/domain/topup-process.ts.
 */
// eslint-disable-next-line max-lines-per-function -- the runner of the fulfilment process: one timer kind per call
export const registerFulfilmentTimers = (
  timers: Timers,
  deps: CommandDeps,
  rank: (productId: string) => Promise<string[]>,
) => {
  const caller = (kind: string, key: string): Caller => ({ correlationId: `${kind}:${key}` });
  const callerOf = (r: Run) => caller(r.t.kind, r.t.key);
  const now = () => deps.clock.now();
  const orderOf = (r: Run) => required(r.order, `the order of timer ${r.t.kind} ${r.t.key}`);
  const itemIn = (r: Run, orderItemId: string) =>
    required(
      orderOf(r).items.find((i) => i.orderItemId === orderItemId),
      `order item ${orderItemId} in timer ${r.t.kind} ${r.t.key}`,
    );
  const loadOffer = async (offerId: string) =>
    (await load(deps.store, offerStream(offerId), offerDecider, deps.states)).state;

  const cancel = (orderId: string, item: OrderItem, reason: string) =>
    onOrder(
      deps,
      orderId,
      (at): OrderCommand => ({ type: 'CancelItem', data: { orderItemId: item.orderItemId, reason, now: at } }),
      {
        correlationId: `cancel:${item.orderItemId}`,
      },
    );

  // eslint-disable-next-line max-lines-per-function -- performs the declared-stock process's actions, one case per action
  const performDeclared = async (r: Run, a: FulfilmentAction): Promise<Next<FulfilmentInput>> => {
    // a return's run has no order (`declared.return`): only the actions on an order read it
    switch (a.kind) {
      case 'schedule':
        return void (await timers.schedule(a.timer, a.key, a.at, a.payload));
      case 'pollAgain':
        return { runAgainAt: a.at };
      case 'placeSupplierOrder': {
        const answer = await orderFromSupplier(
          deps,
          orderOf(r),
          itemIn(r, a.attempt.orderItemId),
          a.attempt.firstAt,
          callerOf(r),
        );
        faultPoint('after-supplier-call');
        return { type: 'SupplierOrderAnswered', attempt: a.attempt, answer, now: now() };
      }
      case 'reserveAgain': {
        const item = itemIn(r, a.attempt.orderItemId);
        const offer = await loadOffer(item.offerId);
        const held = offer
          ? await reserveDeclared(
              deps,
              offer,
              { quantity: item.quantity, buyerCountry: orderOf(r).buyerCountry, expiresAt: a.expiresAt },
              callerOf(r),
            )
          : { held: false as const };
        return {
          type: 'FreshReservationAnswered',
          attempt: a.attempt,
          reservationId: held.held ? held.reservationId : null,
          now: now(),
        };
      }
      case 'renewReservation':
        return void (await onOrder(
          deps,
          orderOf(r).id,
          (at): OrderCommand => ({
            type: 'RenewReservation',
            data: { orderItemId: a.orderItemId, reservationId: a.reservationId, now: at },
          }),
          callerOf(r),
        ));
      case 'pollItems': {
        const result = await pollSupplierItems(deps, itemIn(r, a.orderItemId));
        if (result.kind === 'ready') r.received = result.items;
        return { type: 'ItemsPolled', orderItemId: a.orderItemId, answer: result.kind, now: now() };
      }
      case 'deliver':
        return void (await deliverDeclared(
          deps,
          orderOf(r),
          itemIn(r, a.orderItemId),
          required(r.received, `the polled items of order item ${a.orderItemId}`),
          callerOf(r),
        ));
      case 'capture':
        return void (await captureIfProvisioned(deps, orderOf(r).id, callerOf(r)));
      case 'recordOutcome':
        return void (await recordOutcome(deps, a.offerId, a.reason, a.cause, callerOf(r)));
      case 'cancel':
        return void (await cancel(orderOf(r).id, itemIn(r, a.orderItemId), a.reason));
      case 'reroute':
        return void (await rerouteItem(deps, orderOf(r).id, itemIn(r, a.orderItemId), rank, callerOf(r)));
      case 'provision':
        return void (await provisionOrder(deps, orderOf(r).id, callerOf(r)));
      case 'returnItems': {
        const returned = await returnSupplierItems(deps, a.return.offerId, a.return.orderItemId);
        return { type: 'ReturnAnswered', return: a.return, returned, dueAt: r.t.dueAt };
      }
    }
  };
  const declared = runWith(
    decide,
    (r): FulfilmentState => (r.order ? { orderId: r.order.id, items: r.order.items } : initialState),
    performDeclared,
  );

  /** After authorization: ask each declared item's supplier to convert its reservation. */
  timers.on('declared.start', async (t) =>
    declared({ t, order: await loadOrder(deps, t.key) }, { type: 'PaymentAuthorized', now: now() }),
  );

  /** POST /orders: 10 s, 3 attempts 5 s apart; 410 gets one fresh reservation plus order cycle. */
  timers.on('declared.order', async (t) => {
    const p = t.payload;
    return declared(
      { t, order: await loadOrder(deps, p.orderId) },
      { type: 'OrderAttemptDue', attempt: p, now: now() },
    );
  });

  /** Polls at +0, +5, +15, +30 s, then every 60 s, inside the 10-minute window. */
  timers.on('declared.poll', async (t) => {
    const { orderId } = t.payload;
    return declared({ t, order: await loadOrder(deps, orderId) }, { type: 'PollDue', orderItemId: t.key, now: now() });
  });

  /** A cancelled declared item: take the stock back at the supplier, then reroute or let the buyer off. */
  timers.on('declared.cancelled', async (t) => {
    const { orderId, reason } = t.payload;
    return declared(
      { t, order: await loadOrder(deps, orderId) },
      { type: 'ItemCancelled', orderItemId: t.key, reason, now: now() },
    );
  });

  /** A rerouted item: uploaded keys are handed over at once, declared ones go through the contract. */
  timers.on('declared.rerouted', async (t) => {
    const { orderId } = t.payload;
    return declared(
      { t, order: await loadOrder(deps, orderId) },
      { type: 'ItemRerouted', orderItemId: t.key, now: now() },
    );
  });

  /** DELETE /orders/{id}/items: 10 s, 3 attempts over an hour; 405 is an answer too. */
  timers.on('declared.return', async (t) => declared({ t, order: null }, { type: 'ReturnDue', return: t.payload }));

  /** A refund of declared keys tells the supplier to withhold them. */
  timers.on('declared.refunded', async (t) => {
    const { orderId, orderItemIds } = t.payload;
    return declared({ t, order: await loadOrder(deps, orderId) }, { type: 'Refunded', orderItemIds, now: now() });
  });

  const topupCaller = (item: OrderItem): Caller => ({ correlationId: `topup:${item.orderItemId}` });
  // eslint-disable-next-line max-lines-per-function -- performs the top-up process's actions, one case per action
  const performTopup = async (r: Run, a: TopupAction): Promise<Next<TopupInput>> => {
    switch (a.kind) {
      case 'schedule':
        return void (await timers.schedule(a.timer, a.key, a.at, a.payload));
      case 'pollAgain':
        return { runAgainAt: a.at };
      case 'revalidate': {
        const item = itemIn(r, a.attempt.orderItemId);
        const offer = await loadOffer(item.offerId);
        const fresh = offer
          ? await validateTopup(
              deps,
              offer,
              { quantity: item.quantity, buyerCountry: orderOf(r).buyerCountry, formFields: topupOf(item).formFields },
              callerOf(r),
            )
          : ({ kind: 'unavailable' } as const);
        return { type: 'Revalidated', attempt: a.attempt, answer: fresh };
      }
      case 'recordRevalidation': {
        await onOrder(
          deps,
          orderOf(r).id,
          (at): OrderCommand => ({
            type: 'RevalidateTopup',
            data: {
              orderItemId: a.attempt.orderItemId,
              operationId: a.operationId,
              accountLabel: a.accountLabel,
              now: at,
            },
          }),
          callerOf(r),
        );
        // the execute that follows carries the fresh operation
        r.order = await loadOrder(deps, a.attempt.orderId);
        return { type: 'RevalidationRecorded', attempt: a.attempt };
      }
      case 'executeTopup': {
        const answer = await executeTopup(deps, orderOf(r).id, itemIn(r, a.attempt.orderItemId), a.attempt.attempt);
        return { type: 'ExecuteAnswered', attempt: a.attempt, answer, now: now() };
      }
      case 'pollStatus': {
        const answer = await topupStatus(deps, itemIn(r, a.orderItemId));
        return { type: 'StatusAnswered', orderItemId: a.orderItemId, firstAt: a.firstAt, answer, now: now() };
      }
      case 'completeTopup': {
        const item = itemIn(r, a.orderItemId);
        return void (await onOrder(
          deps,
          orderOf(r).id,
          (at): OrderCommand => ({
            type: 'CompleteTopup',
            data: {
              orderItemId: item.orderItemId,
              operationId: topupOf(item).operationId,
              receiptRef: a.receiptRef,
              now: at,
            },
          }),
          topupCaller(item),
        ));
      }
      case 'failTopup': {
        const item = itemIn(r, a.orderItemId);
        const { code, message, stage } = a;
        return void (await onOrder(
          deps,
          orderOf(r).id,
          (at): OrderCommand => ({
            type: 'FailTopup',
            data: {
              orderItemId: item.orderItemId,
              operationId: topupOf(item).operationId,
              code,
              message,
              ...(stage && { stage }),
              now: at,
            },
          }),
          topupCaller(item),
        ));
      }
      case 'refund':
        return void (await refundOrder(deps, orderOf(r).id, [a.orderItemId], callerOf(r)));
      case 'recordOutcome':
        return void (await recordOutcome(deps, a.offerId, a.reason, a.cause, callerOf(r)));
    }
  };
  const topups = runWith(
    decideTopup,
    (r): TopupState => {
      const order = orderOf(r);
      return { orderId: order.id, items: order.items };
    },
    performTopup,
  );

  /** After capture: execute each top-up with its latest validation (re-validated when stale). */
  timers.on('topup.start', async (t) =>
    topups({ t, order: await loadOrder(deps, t.key) }, { type: 'PaymentCaptured', now: now() }),
  );

  /** POST /topup/execute: 30 s, 3 attempts 10 s apart, then status polls until 15 minutes. */
  timers.on('topup.execute', async (t) => {
    const p = t.payload;
    return topups({ t, order: await loadOrder(deps, p.orderId) }, { type: 'ExecuteDue', attempt: p, now: now() });
  });

  /** GET /topup/operations/{id}: every 10 s for a minute, then every 30 s; unresolved at 15 minutes is a failure. */
  timers.on('topup.status', async (t) => {
    const { orderId, firstAt } = t.payload;
    return topups({ t, order: await loadOrder(deps, orderId) }, { type: 'StatusDue', orderItemId: t.key, firstAt });
  });

  timers.on('topup.post-sale', async (t) => postSales(deps, t.payload.orderId, caller(t.kind, t.key)));

  /**
   * A definitive top-up failure: the buyer is refunded, the offer takes -25 and a cooldown.
   * A re-validation the supplier refused (or could not answer) refunds too, but no execute
   * failed: its validate outcome already counted (-2 for a timeout or 5xx, nothing for invalid).
   */
  timers.on('topup.failed', async (t) => {
    const { orderId, executeFailed = true } = t.payload;
    return topups(
      { t, order: await loadOrder(deps, orderId) },
      { type: 'TopupFailed', orderItemId: t.key, executeFailed },
    );
  });

  /** Healthchecks: every 5 minutes while active, every 10 in cooldown; the offer decides what a result means. */
  timers.on('offer.healthcheck', async (t) => {
    const offer = await loadOffer(t.key);
    // no offer is never probed (the decision says so too)
    if (!offer || decideHealthcheck({ type: 'HealthcheckDue', offer }).length === 0) return;
    const probe = await probeHealthcheck(endpointOf(deps, offer, now()), {
      clock: deps.clock,
      policy: deps.targets,
      timeoutMs: deps.timeouts.healthcheckMs,
      metrics: deps.metrics,
    });
    faultPoint('after-supplier-call');
    const result = await execute(
      deps,
      offerStream(offer.id),
      offerDecider,
      (at): OfferCommand => ({
        type: 'RecordScheduledHealthcheck',
        data: { probe, runId: t.dueAt.toISOString(), now: at },
      }),
      caller(t.kind, t.key),
    );
    const [next] = decideHealthcheck({ type: 'HealthcheckRecorded', offer: result.state, now: now() });
    return next?.kind === 'pollAgain' ? { runAgainAt: next.at } : undefined;
  });
};
