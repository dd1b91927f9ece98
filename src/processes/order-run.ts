import type { CommandDeps } from '../commands/context.js';
import type { ReceivedItem } from '../commands/declared-items.js';
import { stateOf } from '../commands/handle.js';
import { loadOrder } from '../commands/orders.js';
import { offerStream } from '../commands/streams.js';
import { offerDecider } from '../domain/offer.js';
import type { OrderState } from '../domain/order.js';
import { required } from '../domain/required.js';
import { timerCaller } from './caller.js';
import type { DueTimer } from './timers.js';

/** What the supplier-hosted processes run with: the command dependencies and the ranking of a reroute. */
export interface FulfilmentEnv {
  deps: CommandDeps;
  rank: (productId: string) => Promise<string[]>;
}

/** One run of a due timer of an order's process: the order as loaded (read again after a change the next step needs). */
export interface OrderRun extends FulfilmentEnv {
  t: DueTimer;
  order: OrderState | null;
  /** The items of the poll that answered `ready`, for the delivery that follows. */
  received?: ReceivedItem[];
}

export const callerOf = (r: OrderRun) => timerCaller(r.t);
export const now = (r: { deps: CommandDeps }) => r.deps.clock.now();

export const orderOf = (r: OrderRun) => required(r.order, `the order of timer ${r.t.kind} ${r.t.key}`);

export const itemIn = (r: OrderRun, orderItemId: string) =>
  required(
    orderOf(r).items.find((i) => i.orderItemId === orderItemId),
    `order item ${orderItemId} in timer ${r.t.kind} ${r.t.key}`,
  );

export const loadOffer = async (deps: CommandDeps, offerId: string) =>
  await stateOf(deps, offerStream(offerId), offerDecider);

/** A run of a timer on the order `orderId`, as it stands now. */
export const withOrder = async (env: FulfilmentEnv, t: DueTimer, orderId: string): Promise<OrderRun> => ({
  ...env,
  t,
  order: await loadOrder(env.deps, orderId),
});
