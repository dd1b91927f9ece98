import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Gathered, Gatherer } from '../projections/projector.js';
import type { TimerKind, TimerPayloads } from './timer-kinds.js';

export interface TimerRow {
  kind: string;
  key: string;
  due_at: Date | string;
  payload: string;
  created_at: Date | string;
}

/** Timer rows in one insert; keyed: a (kind, key) that exists (or comes twice) keeps the first. */
export const insertTimers = (db: Kysely<Database>, rows: TimerRow[]) =>
  db
    .insertInto('timers')
    .values(rows)
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();

/** Every timer a batch of events schedules, in one insert. */
const timerRows: Gatherer<TimerRow> = { write: insertTimers, dueAt: (row) => new Date(row.due_at) };

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
