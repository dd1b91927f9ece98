import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { WINDOW_SECONDS } from './limits.js';

export interface Bucket {
  name: string;
  limit: number;
}

export interface Verdict {
  allowed: boolean;
  /** The bucket closest to its limit: its numbers go into the X-RateLimit headers. */
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends; when refused, when a request passes again. */
  reset: number;
  /** Seconds until a request would be allowed again (only when refused). */
  retryAfter: number;
}

/**
 * Sliding-window counter over two fixed 60-second windows: the previous window's count,
 * weighted by how much of it still lies inside the last 60 seconds, plus the current one.
 * The counts live in Postgres so every instance shares them; one statement per request
 * counts every bucket it touches. A refused request is not counted.
 */
export class RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  async hit(buckets: Bucket[], now: Date): Promise<Verdict> {
    const seconds = now.getTime() / 1000;
    const windowStart = Math.floor(seconds / WINDOW_SECONDS) * WINDOW_SECONDS;
    const weight = 1 - (seconds - windowStart) / WINDOW_SECONDS; // share of the previous window still counted
    // every statement takes the buckets' row locks in one order (sorted by name): two
    // requests sharing a supplier bucket but not a token bucket must never wait on each other crosswise
    const names = buckets.map((b) => b.name).sort();
    const { rows } = await sql<{ bucket: string; hits: number; prev: number }>`
      with counted as (
        insert into rate_limit_hits (bucket, window_start, hits)
        select b, ${windowStart}, 1 from unnest(${names}::text[]) as b order by b
        on conflict (bucket, window_start) do update set hits = rate_limit_hits.hits + 1
        returning bucket, hits
      )
      select c.bucket, c.hits, coalesce(p.hits, 0) as prev
      from counted c left join rate_limit_hits p on p.bucket = c.bucket and p.window_start = ${windowStart - WINDOW_SECONDS}`.execute(
      this.db,
    );

    const states = buckets.map((b) => {
      const row = rows.find((r) => r.bucket === b.name)!;
      const used = Math.floor(row.prev * weight) + row.hits;
      return { ...b, hits: row.hits, prev: row.prev, used };
    });
    const over = states.filter((s) => s.used > s.limit);
    const tightest = (over.length > 0 ? over : states).reduce((a, b) => (b.limit - b.used < a.limit - a.used ? b : a));
    const reset = windowStart + WINDOW_SECONDS;

    if (over.length === 0) {
      return {
        allowed: true,
        limit: tightest.limit,
        remaining: Math.max(0, tightest.limit - tightest.used),
        reset,
        retryAfter: 0,
      };
    }
    await sql`
      update rate_limit_hits r set hits = r.hits - 1
      from (
        select bucket from rate_limit_hits
        where window_start = ${windowStart} and bucket = any(${names}::text[])
        order by bucket for update
      ) locked
      where r.window_start = ${windowStart} and r.bucket = locked.bucket`.execute(this.db);
    const retryAfter = Math.max(
      ...over.map((s) => secondsUntilFree(s.limit, s.hits - 1, s.prev, seconds - windowStart)),
    );
    // refused: the reset is when a request passes again, as Retry-After says (that can be
    // after the current window ends, while the full one still weighs in as the previous)
    return { allowed: false, limit: tightest.limit, remaining: 0, reset: Math.ceil(seconds + retryAfter), retryAfter };
  }

  /** Forgets windows that can no longer count. */
  async purge(now: Date): Promise<void> {
    const cutoff = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS - WINDOW_SECONDS;
    await this.db.deleteFrom('rate_limit_hits').where('window_start', '<', cutoff).execute();
  }
}

/**
 * Whole seconds until prev * weight(t) + hits + 1 <= limit, where weight falls linearly to
 * zero at the window's end; after that the current count becomes the previous one.
 */
export const secondsUntilFree = (limit: number, hits: number, prev: number, elapsed: number): number => {
  const W = WINDOW_SECONDS;
  const room = limit - hits - 1;
  if (room >= 0 && prev > 0) {
    // need floor(prev * (1 - t/W)) <= room; prev * (1 - t/W) < room + 1 is enough
    const t = W * (1 - (room + 1) / prev);
    return Math.max(1, Math.ceil(t - elapsed + 1e-9));
  }
  if (room >= 0) return 1;
  // this window alone is full: wait for the next one, where `hits` is weighted down
  const untilNext = W - elapsed;
  const t = W * (1 - limit / Math.max(hits, 1));
  return Math.max(1, Math.ceil(untilNext + Math.max(0, t) + 1e-9));
};
