import type { CommandDeps } from '../commands/context.js';
import { stateOf } from '../commands/handle.js';
import { onBalance } from '../commands/ledger.js';
import { loadPayoutDestinations } from '../commands/payout-destinations.js';
import { balanceStream } from '../commands/streams.js';
import type { PayoutEvent } from '../domain/payout.js';
import { SANDBOX_FAILING_IBAN, SANDBOX_FAILURE_CODE } from '../domain/payout-destination.js';
import { projector } from '../projections/projector.js';
import { timerCaller } from './caller.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';

export const SANDBOX_BANK_TIMER = 'payout.sandbox-bank' as const;

/**
 * How long each step of the sandbox's bank takes: a payout is in transit this long after it
 * was requested, and paid (or refused by the test IBAN) this long after that. Short, so that
 * `payout.paid` can be seen while trying the sandbox, as in Stripe's test mode.
 */
export const SANDBOX_BANK_STEP_MS = 30_000;

/**
 * In the sandbox, a payout sent to a destination is carried by a simulated bank: in transit,
 * then paid, or failed with `account_closed` (its amount back in available) when it goes to
 * the documented test IBAN. Payouts without a destination, and every payout in production,
 * are moved by the payment rail's operator routes, as before.
 */
export const sandboxPayoutProcess = projector<PayoutEvent>({
  name: 'sandbox-payout-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    PayoutCreated: (db, e) => {
      const to = e.data.destination;
      if (e.metadata.mode !== 'test' || !to) return undefined;
      return scheduleTimer(
        SANDBOX_BANK_TIMER,
        e.data.payoutId,
        new Date(new Date(e.data.at).getTime() + SANDBOX_BANK_STEP_MS),
        { supplierId: e.data.supplierId, destinationId: to.destinationId },
      );
    },
  },
});

export const registerSandboxPayoutTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on(SANDBOX_BANK_TIMER, async (t) => {
    if (deps.env !== 'sandbox') return;
    const { supplierId, destinationId } = t.payload;
    const payoutId = t.key;
    const state = await stateOf(deps, balanceStream(supplierId), deps.ledger.decider);
    const payout = state.payouts.get(payoutId);
    const caller = timerCaller(t);
    // cancelled, or moved by the operator meanwhile: the bank has nothing left to do
    if (payout?.status === 'in_transit') {
      await onBalance(deps, supplierId, (now) => ({ type: 'MarkPayoutPaid', data: { payoutId, now } }), caller);
      return;
    }
    if (payout?.status !== 'pending') return;
    const destination = (await loadPayoutDestinations(deps, supplierId)).destinations.get(destinationId);
    if (destination?.iban === SANDBOX_FAILING_IBAN) {
      await onBalance(
        deps,
        supplierId,
        (now) => ({ type: 'FailPayout', data: { payoutId, failureCode: SANDBOX_FAILURE_CODE, now } }),
        caller,
      );
      return;
    }
    await onBalance(deps, supplierId, (now) => ({ type: 'MarkPayoutInTransit', data: { payoutId, now } }), caller);
    return { runAgainAt: new Date(deps.clock.now().getTime() + SANDBOX_BANK_STEP_MS) };
  });
};
