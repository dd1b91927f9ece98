import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { WINDOW_SECONDS } from './limits.js';

/** One bucket's count in one window, as one instance sends it and gets it back. */
export interface WindowDelta {
  bucket: string;
  windowStart: number;
  /** Hits this instance admitted since its last delivered flush; 0 only asks for the total. */
  delta: number;
}

export interface WindowTotal {
  bucket: string;
  windowStart: number;
  /** Every instance's hits delivered so far, this flush's included. */
  hits: number;
}

/**
 * Adds each delta to the shared count and answers the shared totals of every window asked
 * for, in one statement. Rows are locked in one order (bucket, then window): two instances
 * flushing overlapping buckets never wait on each other crosswise. A window asked for with
 * delta 0 that no instance counted yet has no row and no total (it is 0).
 */
export const exchangeCounts = async (db: Kysely<Database>, sent: WindowDelta[]): Promise<WindowTotal[]> => {
  if (sent.length === 0) return [];
  const { rows } = await sql<{ bucket: string; window_start: number; hits: number }>`
    with sent as (
      select * from unnest(
        ${sent.map((s) => s.bucket)}::text[],
        ${sent.map((s) => s.windowStart)}::bigint[],
        ${sent.map((s) => s.delta)}::integer[]
      ) as s(bucket, window_start, delta)
    ), counted as (
      insert into rate_limit_hits as r (bucket, window_start, hits)
      select bucket, window_start, delta from sent where delta > 0 order by bucket, window_start
      on conflict (bucket, window_start) do update set hits = r.hits + excluded.hits
      returning r.bucket, r.window_start, r.hits
    )
    select bucket, window_start, hits from counted
    union all
    select r.bucket, r.window_start, r.hits
    from sent s join rate_limit_hits r using (bucket, window_start)
    where s.delta = 0`.execute(db);
  return rows.map((r) => ({ bucket: r.bucket, windowStart: Number(r.window_start), hits: r.hits }));
};

/** Forgets windows that can no longer count (the hourly maintenance). */
export const purgeSpentWindows = async (db: Kysely<Database>, now: Date): Promise<void> => {
  const cutoff = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS - WINDOW_SECONDS;
  await db.deleteFrom('rate_limit_hits').where('window_start', '<', cutoff).execute();
};
