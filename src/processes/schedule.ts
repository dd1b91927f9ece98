import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TimerKind, TimerPayloads } from './timer-kinds.js';

/**
 * Writes a timer row inside the caller's transaction: a process manager's reaction to an
 * event is recorded atomically with its checkpoint, so it happens exactly once. Keyed:
 * a second schedule of the same (kind, key) keeps the first.
 */
export const scheduleTimer = <K extends TimerKind>(
  db: Kysely<Database>,
  kind: K,
  key: string,
  dueAt: Date | string,
  payload: TimerPayloads[K],
) =>
  db
    .insertInto('timers')
    .values({ kind, key, due_at: dueAt, payload: JSON.stringify(payload), created_at: dueAt })
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();
