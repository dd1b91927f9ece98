import type { Gathered, Gatherer } from '../projections/projector.js';
import type { TimerKind, TimerPayloads } from './timer-kinds.js';

interface TimerRow {
  kind: string;
  key: string;
  due_at: Date | string;
  payload: string;
  created_at: Date | string;
}

/** Every timer a batch of events schedules, in one insert (a repeated (kind, key) keeps the first). */
const timerRows: Gatherer<TimerRow> = {
  write: (db, rows) =>
    db
      .insertInto('timers')
      .values(rows)
      .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
      .execute(),
};

/**
 * A process manager's reaction to an event: a timer row written in the transaction of the
 * manager's checkpoint, so it happens exactly once. Keyed: a second schedule of the same
 * (kind, key) keeps the first. The rows of one batch are written together.
 */
export const scheduleTimer = <K extends TimerKind>(
  kind: K,
  key: string,
  dueAt: Date | string,
  payload: TimerPayloads[K],
): Gathered<TimerRow> => ({
  gather: timerRows,
  row: { kind, key, due_at: dueAt, payload: JSON.stringify(payload), created_at: dueAt },
});
