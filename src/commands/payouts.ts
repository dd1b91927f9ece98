import { DomainError } from '../domain/errors.js';
import { PAYOUT_MINIMUM, type PayoutMethod, type PayoutTrigger, refusedLedger } from '../domain/payout.js';
import { type PayoutSchedule, payoutScheduleDecider } from '../domain/payout-schedule.js';
import { destinationFor, maskedDestination } from '../domain/payout-destination.js';
import { newId } from '../ids.js';
import { loadPayoutDestinations } from './payout-destinations.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { onBalance } from './ledger.js';
import { balanceStream, payoutScheduleStream } from './streams.js';

export const createPayout = async (
  deps: CommandDeps,
  supplierId: string,
  input: { amount: number; method?: PayoutMethod; destinationId?: string; trigger?: PayoutTrigger; payoutId?: string },
  caller: Caller,
) => {
  const payoutId = input.payoutId ?? `po_${newId()}`;
  // the destination named, else the default (or the newest of the method asked for); a
  // supplier with none pays out by method alone, as before destinations existed
  const to = destinationFor(await loadPayoutDestinations(deps, supplierId), input);
  const method = to?.method ?? input.method ?? 'sepa_bank_transfer';
  const destination = to ? { destinationId: to.destinationId, masked: maskedDestination(to) } : undefined;
  // money leaves on the ledger as stored now, every entry checked, not on a state cached
  // from before someone wrote to the database
  const refused = await deps.ledger.firstRefused(supplierId);
  if (refused) throw refusedLedger(refused);
  await onBalance(
    deps,
    supplierId,
    (now) => ({
      type: 'CreatePayout',
      data: {
        supplierId,
        payoutId,
        amount: input.amount,
        method,
        trigger: input.trigger ?? 'manual',
        ...(destination && { destination }),
        now,
      },
    }),
    caller,
  );
  return payoutId;
};

export type PayoutTransition = 'in_transit' | 'paid' | 'failed' | 'cancelled';

/**
 * Moves along the lifecycle (the operator's, the sandbox bank's, or a supplier cancelling its
 * own: `supplierId` then limits it to that supplier's payouts); the payout's supplier is read
 * from the payouts read model.
 */
export const movePayout = async (
  deps: CommandDeps,
  payoutId: string,
  to: PayoutTransition,
  failureCode: string | null,
  caller: Caller,
  supplierId?: string,
) => {
  let q = deps.db.selectFrom('payouts').select(['supplier_id']).where('id', '=', payoutId);
  if (supplierId) q = q.where('supplier_id', '=', supplierId);
  const row = await q.executeTakeFirst();
  if (!row) throw new DomainError('not_found', `no payout ${payoutId}`);
  await onBalance(
    deps,
    row.supplier_id,
    (now) =>
      to === 'in_transit'
        ? { type: 'MarkPayoutInTransit', data: { payoutId, now } }
        : to === 'paid'
          ? { type: 'MarkPayoutPaid', data: { payoutId, now } }
          : to === 'failed'
            ? { type: 'FailPayout', data: { payoutId, failureCode: failureCode ?? 'could_not_process', now } }
            : { type: 'CancelPayout', data: { payoutId, now } },
    caller,
  );
  return row.supplier_id;
};

export const setPayoutSchedule = async (deps: CommandDeps, schedule: PayoutSchedule, caller: Caller) => {
  const { state } = await execute(
    deps,
    payoutScheduleStream(schedule.supplierId),
    payoutScheduleDecider,
    (now) => ({ type: 'SetPayoutSchedule' as const, data: { ...schedule, now } }),
    caller,
  );
  return state;
};

export const loadPayoutSchedule = async (deps: CommandDeps, supplierId: string) =>
  await stateOf(deps, payoutScheduleStream(supplierId), payoutScheduleDecider);

/**
 * One scheduled run: the whole available balance, when it reaches the schedule's minimum.
 * The payout id is derived from the run, so a run repeated after a crash creates none twice.
 */
export const runScheduledPayout = async (deps: CommandDeps, supplierId: string, runAt: Date, caller: Caller) => {
  const schedule = await loadPayoutSchedule(deps, supplierId);
  if (!schedule || schedule.interval === 'manual') return { schedule, payoutId: null };
  const state = await stateOf(deps, balanceStream(supplierId), deps.ledger.decider);
  // a ledger holding a refused entry pays nothing out (a request is told why)
  const refused = state.refused ?? (await deps.ledger.firstRefused(supplierId));
  if (refused) return { schedule, payoutId: null, refused };
  const payoutId = `po_${schedule.interval}_${runAt.toISOString().slice(0, 10).replace(/-/g, '')}_${supplierId}`;
  if (state.payouts.has(payoutId)) return { schedule, payoutId };
  if (state.available < Math.max(schedule.minimumAmount, PAYOUT_MINIMUM)) return { schedule, payoutId: null };
  await createPayout(
    deps,
    supplierId,
    { amount: state.available, method: schedule.method, trigger: schedule.interval, payoutId },
    caller,
  );
  return { schedule, payoutId };
};
