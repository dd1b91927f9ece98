import { comparePositions, formatPosition, type Line, type StoreHistory, type Witness } from './port.js';

/**
 * How a process tells that the store went back in time under it: it holds less than the
 * process saw. A failover with asynchronous replication loses the commits the new primary
 * never received; a restore from backup loses everything after the backup's moment. Either
 * way the server goes on, and so would a process that keeps its read positions, cached
 * states and read-your-writes fences from the lost history: its feed would skip the new
 * events whose positions fall below its own, and its caches would answer for streams the
 * store no longer has.
 *
 * - `witness_lost`: the event at the highest position the process read or wrote (its id at
 *   that position) is no longer stored. A restore keeps a prefix of the server's history, so
 *   while that event is there, so is everything the process saw before it.
 * - `head_behind`: the store's last event is below that position (the same loss, seen where
 *   no witness could be asked: a store that lost every event the process saw after its head).
 * - `wal_behind`: on the same system, database and timeline, the server's WAL is flushed
 *   less far than it was before (a crash keeps what was flushed): a copy of its files from
 *   an earlier moment was put back.
 *
 * A new line alone (timeline, system, database) is no rewind: a switchover and a failover
 * with synchronous replication change the timeline and lose nothing. It is where the
 * witness must be asked about before anything seen on the new line may stand for it
 * (rewind-watch.ts). Positions are (transaction id, sequence) pairs
 * taken again after a rewind from the restored counters, so the first events of the new
 * history often land exactly where lost ones were: the witness is an event's id, never its
 * position alone.
 */
export type RewindCause = 'witness_lost' | 'head_behind' | 'wal_behind';

export interface Rewind {
  cause: RewindCause;
  /** What was found, for the log and the operator. */
  detail: string;
}

/** What `now` says about the store, given the highest event this process saw and the previous reading. */
export const rewindOf = (
  seen: Witness | undefined,
  before: StoreHistory | undefined,
  now: StoreHistory,
): Rewind | undefined => {
  if (seen && now.witnessed === false)
    return {
      cause: 'witness_lost',
      detail: `event ${seen.id} at ${formatPosition(seen.position)}, which this instance read or wrote, is no longer stored`,
    };
  if (seen && comparePositions(seen.position, now.head) > 0)
    return {
      cause: 'head_behind',
      detail: `the store's last event is at ${formatPosition(now.head)}, below ${formatPosition(seen.position)}, which this instance read or wrote`,
    };
  const was = before?.line;
  const is = now.line;
  if (was && is && sameLine(was, is) && is.wal < was.wal)
    return {
      cause: 'wal_behind',
      detail: `the database's WAL is flushed to byte ${is.wal} of timeline ${is.timeline}, below byte ${was.wal} it had flushed before: its files were put back to an earlier moment`,
    };
  return undefined;
};

/** The same system, database and timeline: one history, on which the WAL only grows. */
export const sameLine = (a: Line, b: Line): boolean =>
  a.system === b.system && a.database === b.database && a.timeline === b.timeline;

/** Another line than `known`, or the same one gone back: nothing seen on it stands for what was seen before until checked. */
export const lineMoved = (known: Line, now: Line): boolean => !sameLine(known, now) || now.wal < known.wal;

/** A new system, database or timeline since `before`, said in words (a failover, a switchover, a restore); else undefined. */
export const lineChange = (before: StoreHistory | undefined, now: StoreHistory): string | undefined => {
  const was = before?.line;
  const is = now.line;
  if (!was || !is) return undefined;
  if (was.system !== is.system) return `database system ${was.system} is now ${is.system}`;
  if (was.database !== is.database) return `database oid ${was.database} is now ${is.database}`;
  if (was.timeline !== is.timeline) return `database timeline ${was.timeline} is now ${is.timeline}`;
  return undefined;
};

/** The higher of two witnesses by position (the first when equal). */
export const higher = (a: Witness | undefined, b: Witness): Witness =>
  !a || comparePositions(b.position, a.position) > 0 ? b : a;

/** Raised where a process finds a rewind in the middle of its work (a projection batch's check). */
export class RewindFound extends Error {
  constructor(readonly rewind: Rewind) {
    super(`the event store went back in time: ${rewind.detail}`);
  }
}
