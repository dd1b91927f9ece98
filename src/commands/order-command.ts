import type { Step } from '../domain/decider.js';
import { type OrderCommand, orderDecider, type OrderState } from '../domain/order.js';
import { type Caller, type CommandDeps, execute, executeSteps } from './context.js';
import { orderStream } from './streams.js';

/** Runs one command on an order's stream: the order's commands and its processes share it. */
export const onOrder = (deps: CommandDeps, orderId: string, command: (now: string) => OrderCommand, caller: Caller) =>
  execute(deps, orderStream(orderId), orderDecider, command, caller);

/** Several steps of one request on an order's stream, appended together (see `executeSteps`). */
export const onOrderSteps = (
  deps: CommandDeps,
  orderId: string,
  steps: (now: string) => readonly Step<OrderState | null, OrderCommand>[],
  caller: Caller,
) => executeSteps(deps, orderStream(orderId), orderDecider, steps, caller);
