import type { Caller, CommandDeps } from '../commands/context.js';
import {
  disputeOrder,
  payOrder,
  placeOrder,
  provisionOrder,
  refundOrder,
  withOneReadModelWait,
} from '../commands/orders.js';
import { ownOffer } from '../commands/offers.js';
import { orderStream } from '../commands/streams.js';
import { DomainError } from '../domain/errors.js';
import type { OrderState } from '../domain/order.js';
import type { Timers } from './timers.js';

export const SANDBOX_SCENARIOS = ['paid', 'abandoned', 'refunded', 'disputed'] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];

export interface SandboxOrder {
  supplierId: string;
  offerId: string;
  quantity: number;
  buyerCountry: string;
  formFields?: Record<string, string>;
  scenario: SandboxScenario;
  /** The order's id and whether an earlier run may have placed it, from the request's operation. */
  orderId: string;
  resumed: boolean;
}

/**
 * A test order against the supplier's own active offer, taken as far as its scenario goes:
 * placed (abandoned), paid, then refunded or disputed. Only commands, in one request: the
 * read models are waited for once, at its end. A refund or dispute that must wait for the
 * supplier's delivery is left to the `sandbox.scenario` timer (src/processes/sandbox.ts).
 */
export const runSandboxOrder = async (
  deps: CommandDeps,
  timers: Timers,
  input: SandboxOrder,
  caller: Caller,
): Promise<OrderState> => {
  const offer = await ownOffer(deps, input.supplierId, input.offerId);
  if (offer.status !== 'active')
    throw new DomainError('invalid_state', `offer ${input.offerId} is ${offer.status}; activate it first`);
  const { scenario } = input;
  return withOneReadModelWait(deps, async (deps) => {
    let order = await placeOrder(
      deps,
      {
        orderId: input.orderId,
        resumed: input.resumed,
        lines: [{ productId: offer.productId, quantity: input.quantity }],
        buyerCountry: input.buyerCountry,
        formFields: input.formFields,
        // against the supplier's own offer only, whatever the market looks like
        rank: async () => [offer.id],
        // paid at once: placed and authorized in one write, and from uploaded stock
        // provisioned in it too
        authorize: scenario !== 'abandoned',
        provision: scenario !== 'abandoned',
      },
      caller,
    );
    // a run after a takeover may find the order placed but not yet authorized; a paid
    // one wrote its sale entries with its capture (or the ledger.post-sales timer does)
    if (scenario !== 'abandoned' && !order.paidAt)
      order = order.authorizedAt
        ? await provisionOrder(deps, order.id, caller)
        : await payOrder(deps, order.id, caller);
    if (scenario === 'refunded' || scenario === 'disputed') {
      // keys from uploaded stock are paid by now; declared stock and top-ups are paid
      // once the supplier delivered: the scenario then applies by itself (processes/sandbox.ts)
      const settled = order.paidAt !== null && order.items.every((i) => i.status !== 'reserved');
      if (!settled) await timers.schedule('sandbox.scenario', order.id, deps.clock.now(), { scenario });
      else if (scenario === 'refunded') order = await refundOrder(deps, order.id, undefined, caller);
      // a run after a takeover (the first run's process died) disputes once, not twice
      else if (!(await deps.store.readStream(orderStream(order.id))).some((e) => e.type === 'OrderDisputed'))
        order = await disputeOrder(deps, order.id, undefined, 'sandbox scenario', caller);
    }
    return order;
  });
};
