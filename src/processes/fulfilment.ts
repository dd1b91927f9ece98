import type { CommandDeps } from '../commands/context.js';
import { postSales } from '../commands/ledger.js';
import { HEALTHCHECK_EVERY_MS } from '../domain/contract-timings.js';
import type { OfferEvent } from '../domain/offer.js';
import type { ItemSource, OrderEvent } from '../domain/order.js';
import { projector } from '../projections/projector.js';
import { timerCaller } from './caller.js';
import { declaredRunner } from './declared-runner.js';
import { healthcheckRunner } from './healthcheck-runner.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';
import { topupRunner } from './topup-runner.js';
import { registerWorkflow } from './workflow-runner.js';

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

/**
 * The runners of the supplier-hosted contracts: each loads the order (or offer), calls the
 * supplier and the commands, and leaves every decision (attempts, polls, the allocation
 * window, reroutes, returns, health outcomes, top-up retries and status polls) to the pure
 * workflows of src/domain/fulfilment-process.ts and src/domain/topup-process.ts, all run by
 * the one interpreter of workflow-runner.ts.
 */
export const registerFulfilmentTimers = (
  timers: Timers,
  deps: CommandDeps,
  rank: (productId: string) => Promise<string[]>,
) => {
  registerWorkflow(timers, declaredRunner, { deps, rank });
  registerWorkflow(timers, topupRunner, { deps, rank });
  registerWorkflow(timers, healthcheckRunner, deps);
  timers.on('topup.post-sale', async (t) => postSales(deps, t.payload.orderId, timerCaller(t)));
};
