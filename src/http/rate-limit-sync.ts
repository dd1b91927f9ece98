import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { WINDOW_SECONDS } from './limits.js';

/** One bucket's count in one window, as one instance sends it and gets it back. */
export interface WindowDelta {
  bucket: string;
  windowStart: number;
  /** Hits this instance admitted since its last delivered flush; 0 only asks for the total. */
  delta: number;
  /**
   * Change to the budget this instance holds in the window: negative for budget it gives back
   * (unused, no longer needed), positive for hits it admitted while it could not claim.
   */
  granted: number;
}

export interface WindowTotal {
  bucket: string;
  windowStart: number;
  /** Every instance's hits delivered so far, this flush's included. */
  hits: number;
  /** The budget every instance holds in the window (claimed, less what was given back). */
  granted: number;
}

/**
 * Adds each delta to the shared count and answers the shared totals of every window asked
 * for, in one statement. Rows are locked in one order (bucket, then window): two instances
 * flushing overlapping buckets never wait on each other crosswise. A window asked for with
 * no change that no instance counted yet has no row and no total (it is 0).
 */
export const exchangeCounts = async (db: Kysely<Database>, sent: WindowDelta[]): Promise<WindowTotal[]> => {
  if (sent.length === 0) return [];
  const { rows } = await sql<{ bucket: string; window_start: number; hits: number; granted: number }>`
    with sent as (
      select * from unnest(
        ${sent.map((s) => s.bucket)}::text[],
        ${sent.map((s) => s.windowStart)}::bigint[],
        ${sent.map((s) => s.delta)}::integer[],
        ${sent.map((s) => s.granted)}::integer[]
      ) as s(bucket, window_start, delta, granted)
    ), counted as (
      insert into rate_limit_hits as r (bucket, window_start, hits, granted)
      select bucket, window_start, delta, greatest(granted, 0) from sent
      where delta <> 0 or granted <> 0 order by bucket, window_start
      on conflict (bucket, window_start) do update
      set hits = r.hits + excluded.hits,
          granted = greatest(r.granted + (
            select s.granted from sent s where s.bucket = excluded.bucket and s.window_start = excluded.window_start
          ), 0)
      returning r.bucket, r.window_start, r.hits, r.granted
    )
    select bucket, window_start, hits, granted from counted
    union all
    select r.bucket, r.window_start, r.hits, r.granted
    from sent s join rate_limit_hits r using (bucket, window_start)
    where s.delta = 0 and s.granted = 0`.execute(db);
  return rows.map((r) => ({ bucket: r.bucket, windowStart: Number(r.window_start), hits: r.hits, granted: r.granted }));
};

/** One bucket's budget asked for in one window. */
export interface BudgetClaim {
  bucket: string;
  windowStart: number;
  /** Seconds into the window at the earliest request the budget is for. */
  elapsed: number;
  limit: number;
  /** The most this instance asks for; the database hands out less near the limit. */
  want: number;
  /** This instance's unused budget of the previous window, given back first. */
  giveBack: number;
}

export interface BudgetAnswer {
  bucket: string;
  windowStart: number;
  /** Budget handed to this instance now: 0 when the window's budget is spent. */
  given: number;
  /** Every instance's budget in the window, this claim's included. */
  granted: number;
  /** Every instance's budget in the previous window, the one the sliding window weighs. */
  previous: number;
}

/**
 * Hands out budget for each bucket and window in one statement (the function `rate_limit_claim` of
 * migration 025), never more than the sliding window allows across every instance: a claim
 * takes at most an eighth of what is left (at least 1), so the slices shrink toward the
 * limit and the last requests take one each.
 */
export const claimBudget = async (db: Kysely<Database>, claims: BudgetClaim[]): Promise<BudgetAnswer[]> => {
  if (claims.length === 0) return [];
  const { rows } = await sql<{
    bucket: string;
    window_start: string;
    given: number;
    granted: number;
    previous: number;
  }>`
    select claimed_bucket as bucket, claimed_window as window_start, given, granted, previous
    from rate_limit_claim(
      ${claims.map((c) => c.bucket)}::text[],
      ${claims.map((c) => c.windowStart)}::bigint[],
      ${claims.map((c) => c.elapsed)}::double precision[],
      ${claims.map((c) => c.limit)}::integer[],
      ${claims.map((c) => c.want)}::integer[],
      ${claims.map((c) => c.giveBack)}::integer[]
    )`.execute(db);
  return rows.map((r) => ({
    bucket: r.bucket,
    windowStart: Number(r.window_start),
    given: r.given,
    granted: r.granted,
    previous: r.previous,
  }));
};

/** Forgets windows that can no longer count (the hourly maintenance). */
export const purgeSpentWindows = async (db: Kysely<Database>, now: Date): Promise<void> => {
  const cutoff = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS - WINDOW_SECONDS;
  await db.deleteFrom('rate_limit_hits').where('window_start', '<', cutoff).execute();
};
