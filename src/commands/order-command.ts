import type { Step } from '../domain/decider.js';
import { type OrderCommand, orderDecider, type OrderState } from '../domain/order.js';
import { required } from '../domain/required.js';
import { type Caller, type CommandDeps, execute, executeSteps } from './context.js';
import type { Handled } from './handle.js';
import { orderStream } from './streams.js';

type OrderHandled = Handled<OrderState | null, unknown>;

/**
 * After a command the order exists: only PlaceOrder decides on no order, and it places one
 * (every other command refuses with not_found, and a step that gives nothing to do on no
 * order is asked only of an order loaded first).
 */
const placed = <R extends OrderHandled>(result: R, orderId: string): R & { state: OrderState } => ({
  ...result,
  state: required(result.state, `order ${orderId}`),
});

/** Runs one command on an order's stream: the order's commands and its processes share it. */
export const onOrder = async (
  deps: CommandDeps,
  orderId: string,
  command: (now: string) => OrderCommand,
  caller: Caller,
) => placed(await execute(deps, orderStream(orderId), orderDecider, command, caller), orderId);

/** Several steps of one request on an order's stream, appended together (see `executeSteps`). */
export const onOrderSteps = async (
  deps: CommandDeps,
  orderId: string,
  steps: (now: string) => readonly Step<OrderState | null, OrderCommand>[],
  caller: Caller,
) => placed(await executeSteps(deps, orderStream(orderId), orderDecider, steps, caller), orderId);
