import type { BalanceCommand } from '../domain/balance.js';
import { orderDecider, type OrderState } from '../domain/order.js';
import { bugSwitch, faultPoint } from '../faults.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { balanceStream, orderStream } from './streams.js';

/** Spec: proceeds move from pending to available after 7 days in production, 10 minutes in the sandbox. */
export const holdingPeriodMs = (env: 'sandbox' | 'production') =>
  env === 'production' ? 7 * 24 * 60 * 60_000 : 10 * 60_000;

/** Every write to a supplier's ledger goes through here: each new entry is chained to the last and signed. */
export const onBalance = (
  deps: CommandDeps,
  supplierId: string,
  command: (now: string) => BalanceCommand,
  caller: Caller,
) => execute(deps, balanceStream(supplierId), deps.ledger.decider, command, caller);

/**
 * The `sale` entries a paid order earns: one per order item that was delivered (refunded
 * since or not), pending until delivery + holding period. Cancelled and failed items earned
 * nothing, nor did a top-up refunded undelivered.
 */
export const salesOf = (
  order: OrderState,
  env: CommandDeps['env'],
): { supplierId: string; credit: (now: string) => BalanceCommand }[] => {
  const paidAt = order.paidAt;
  if (!paidAt) return [];
  return order.items
    .filter((i) => i.status === 'delivered' || (i.status === 'refunded' && i.deliveredAt !== null))
    .map((item) => ({
      supplierId: item.supplierId,
      credit: (now) => ({
        type: 'CreditSale',
        data: {
          supplierId: item.supplierId,
          orderId: order.id,
          orderItemId: item.orderItemId,
          gross: item.gross,
          commission: item.commission,
          net: item.net,
          availableAt: new Date(new Date(item.deliveredAt ?? paidAt).getTime() + holdingPeriodMs(env)).toISOString(),
          now,
        },
      }),
    }));
};

/** After capture: the order's sale entries (`salesOf`), each a write of its own, for what a crash left unposted. */
export const postSales = async (deps: CommandDeps, orderId: string, caller: Caller) => {
  const order = await stateOf(deps, orderStream(orderId), orderDecider);
  if (!order) return;
  for (const sale of salesOf(order, deps.env)) {
    await onBalance(deps, sale.supplierId, sale.credit, caller);
    faultPoint('after-sale-credited');
  }
};

export const settleSale = (deps: CommandDeps, supplierId: string, orderItemId: string, caller: Caller) =>
  onBalance(deps, supplierId, (now) => ({ type: 'SettleSale', data: { orderItemId, now } }), caller);

/** Reversing entries for refunded items: from pending before settlement, from available after. */
export const postRefunds = async (
  deps: CommandDeps,
  items: { supplierId: string; orderItemId: string }[],
  caller: Caller,
) => {
  for (const item of items) {
    if (bugSwitch('skip-refund-entry')) continue; // the simulator's own test breaks this rule on purpose
    await onBalance(
      deps,
      item.supplierId,
      (now) => ({ type: 'DebitRefund', data: { orderItemId: item.orderItemId, now } }),
      caller,
    );
  }
};
