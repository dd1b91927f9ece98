import { type OrderCommand, orderDecider } from '../domain/order.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { orderStream } from './streams.js';

/** Runs one command on an order's stream: the order's commands and its processes share it. */
export const onOrder = (deps: CommandDeps, orderId: string, command: (now: string) => OrderCommand, caller: Caller) =>
  execute(deps, orderStream(orderId), orderDecider, command, caller);
