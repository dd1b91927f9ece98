import { disputeOrder, loadOrder, refundOrder } from '../commands/orders.js';
import type { CommandDeps } from '../commands/context.js';
import { timerCaller } from './caller.js';
import type { Timers } from './timers.js';
import { orderStream } from '../commands/streams.js';

/** How often a waiting sandbox scenario looks at its order again. */
export const SCENARIO_RECHECK_MS = 30_000;

/**
 * Sandbox scenarios `refunded` and `disputed` on declared-stock and top-up offers: the
 * order is paid only once the supplier delivered (polls, the allocation window) or the
 * top-up ran, so the refund or dispute waits for that moment, then applies once. An order
 * that ends unpaid (cancelled, expired) has nothing to refund or dispute.
 */
export const registerSandboxTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on('sandbox.scenario', async (t) => {
    const { scenario } = t.payload;
    const order = await loadOrder(deps, t.key);
    if (['cancelled', 'expired', 'refunded'].includes(order.status)) return;
    // paid, and no item still waiting for the supplier (a top-up refunds once it ran)
    const settled = order.paidAt !== null && order.items.every((i) => i.status !== 'reserved');
    if (!settled) return { runAgainAt: new Date(deps.clock.now().getTime() + SCENARIO_RECHECK_MS) };
    const caller = timerCaller(t);
    if (scenario === 'refunded') await refundOrder(deps, order.id, undefined, caller);
    else {
      // a dispute is not idempotent by itself: a re-run after a crash finds the first one
      const events = await deps.store.readStream(orderStream(order.id));
      if (!events.some((e) => e.type === 'OrderDisputed'))
        await disputeOrder(deps, order.id, undefined, 'sandbox scenario', caller);
    }
  });
};
