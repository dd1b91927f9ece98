import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Gathered, Gatherer } from '../projections/projector.js';
import { traceContext } from '../tracing.js';
import type { TimerKind, TimerPayloads } from './timer-kinds.js';

export interface TimerRow {
  kind: string;
  key: string;
  due_at: Date | string;
  payload: string;
  created_at: Date | string;
  traceparent?: string | null;
}

/**
 * With tracing on, the active span's trace context (a request's, or the projection step
 * that scheduled the timer): the timer's run becomes a step of that trace. Nothing when off.
 */
export const traced = <R extends object>(rows: R[]): (R & { traceparent?: string })[] => {
  const traceparent = traceContext()?.['traceparent'];
  return traceparent ? rows.map((r) => ({ traceparent, ...r })) : rows;
};

/** Timer rows in one insert; keyed: a (kind, key) that exists (or comes twice) keeps the first. */
export const insertTimers = (db: Kysely<Database>, rows: TimerRow[]) =>
  db
    .insertInto('timers')
    .values(traced(rows))
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();

/**
 * What a process manager's reaction gathers: a timer to schedule, and the marks of work an
 * event shows done. A watchdog timer (`settledBy`) is left out when its mark comes in the
 * same batch: the work it watches is done, and its run would only find that out (an order
 * placed, paid and its sales posted in one write would otherwise leave four timers that run
 * for nothing, each a claim, a handler and a delete). Left out only within one batch, it is
 * kept whenever the mark comes later, so nothing a crash left undone goes unwatched.
 */
export interface Scheduled {
  row?: TimerRow;
  /** A mark that makes this timer moot when the same batch holds it. */
  settledBy?: string;
  /** Marks of the work this event shows done. */
  settles?: readonly string[];
}

/** Every timer a batch of events schedules, in one insert, but for the watchdogs it settled itself. */
const timerRows: Gatherer<Scheduled> = {
  write: async (db, scheduled) => {
    const settled = new Set(scheduled.flatMap((s) => s.settles ?? []));
    const rows = scheduled.flatMap((s) => (s.row && !(s.settledBy && settled.has(s.settledBy)) ? [s.row] : []));
    if (rows.length > 0) await insertTimers(db, rows);
  },
  dueAt: (s) => (s.row ? new Date(s.row.due_at) : undefined),
};

/**
 * A process manager's reaction to an event: a timer row written in the transaction of the
 * manager's checkpoint, so it happens exactly once. Keyed: a second schedule of the same
 * (kind, key) keeps the first. The rows of one batch are written together. A watchdog names
 * the mark that settles it (`Scheduled.settledBy`), and an event may mark work done.
 */
export const scheduleTimer = <K extends TimerKind>(
  kind: K,
  key: string,
  dueAt: Date | string,
  payload: TimerPayloads[K],
  marks: Pick<Scheduled, 'settledBy' | 'settles'> = {},
): Gathered<Scheduled> => ({
  gather: timerRows,
  row: { row: { kind, key, due_at: dueAt, payload: JSON.stringify(payload), created_at: dueAt }, ...marks },
});

/** An event that schedules nothing and shows work done (see `Scheduled`). */
export const settles = (...marks: string[]): Gathered<Scheduled> => ({ gather: timerRows, row: { settles: marks } });
