import type { Kysely } from 'kysely';
import type { CommandDeps } from '../commands/context.js';
import { runScheduledPayout } from '../commands/payouts.js';
import type { Database } from '../db/schema.js';
import { nextPayoutRun, type PayoutScheduleEvent } from '../domain/payout-schedule.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { projector } from '../projections/projector.js';
import { timerCaller } from './caller.js';
import type { Timers } from './timers.js';

export const PAYOUT_TIMER = 'payout.schedule' as const;

/**
 * A schedule's runs are one durable timer per supplier, moved (not added) when the schedule
 * changes, written in the same transaction as this process's checkpoint.
 */
const reschedule = async (db: Kysely<Database>, e: RecordedEvent<PayoutScheduleEvent['data']>) => {
  const { supplierId, interval, at } = e.data;
  if (interval === 'manual')
    return db.deleteFrom('timers').where('kind', '=', PAYOUT_TIMER).where('key', '=', supplierId).execute();
  const due = nextPayoutRun(interval, new Date(at));
  const row = { due_at: due, payload: JSON.stringify({}), claimed_by: null, claimed_until: null, attempts: 0 };
  return db
    .insertInto('timers')
    .values({ kind: PAYOUT_TIMER, key: supplierId, ...row, created_at: at })
    .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet(row))
    .execute();
};

export const payoutProcess = projector<PayoutScheduleEvent>({
  name: 'payout-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: { PayoutScheduleSet: reschedule },
});

export const registerPayoutTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on(PAYOUT_TIMER, async (t) => {
    const { schedule, refused } = await runScheduledPayout(deps, t.key, t.dueAt, timerCaller(t));
    if (refused)
      timers.log.error(
        { supplierId: t.key, entryId: refused.entryId },
        `scheduled payout not made: the ledger holds an entry it refused, which ${refused.reason}`,
      );
    if (!schedule || schedule.interval === 'manual') return;
    // after a long stop, the next run is the next one from now: missed runs are not made up one by one
    const now = deps.clock.now();
    return { runAgainAt: nextPayoutRun(schedule.interval, t.dueAt > now ? t.dueAt : now) };
  });
};
