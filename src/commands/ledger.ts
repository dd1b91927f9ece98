import { type BalanceCommand, chainedBalanceDecider } from '../domain/balance.js';
import { orderDecider } from '../domain/order.js';
import { bugSwitch, faultPoint } from '../faults.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { load } from './handle.js';
import { balanceStream, orderStream } from './streams.js';

/** Spec: proceeds move from pending to available after 7 days in production, 10 minutes in the sandbox. */
export const holdingPeriodMs = (env: 'sandbox' | 'production') =>
  env === 'production' ? 7 * 24 * 60 * 60_000 : 10 * 60_000;

/** Every write to a supplier's ledger goes through here: each new entry is chained to the last. */
export const onBalance = (
  deps: CommandDeps,
  supplierId: string,
  command: (now: string) => BalanceCommand,
  caller: Caller,
) => execute(deps, balanceStream(supplierId), chainedBalanceDecider, command, caller);

/** After capture: one `sale` entry per order item, pending until delivery + holding period. */
export const postSales = async (deps: CommandDeps, orderId: string, caller: Caller) => {
  const { state: order } = await load(deps.store, orderStream(orderId), orderDecider, deps.states);
  if (!order?.paidAt) return;
  for (const item of order.items) {
    if (item.status !== 'delivered' && item.status !== 'refunded') continue; // cancelled and failed items earned nothing
    // a refunded item earned a sale only if it was delivered first (a failed top-up is refunded undelivered)
    if (item.status === 'refunded' && item.deliveredAt === null) continue;
    const deliveredAt = new Date(item.deliveredAt ?? order.paidAt).getTime();
    const availableAt = new Date(deliveredAt + holdingPeriodMs(deps.env)).toISOString();
    await onBalance(
      deps,
      item.supplierId,
      (now) => ({
        type: 'CreditSale',
        data: {
          supplierId: item.supplierId,
          orderId,
          orderItemId: item.orderItemId,
          gross: item.gross,
          commission: item.commission,
          net: item.net,
          availableAt,
          now,
        },
      }),
      caller,
    );
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
