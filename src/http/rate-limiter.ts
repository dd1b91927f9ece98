import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { WINDOW_SECONDS } from './limits.js';
import { exchangeCounts, purgeSpentWindows, type WindowDelta } from './rate-limit-sync.js';

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
 * How often an instance adds its hits to the shared counts and takes the others' back. A
 * request never waits for it; it bounds how late an instance sees the others' hits
 * (docs/decisions.md, "Rate limits counted in memory").
 */
export const FLUSH_EVERY_MS = 250;

/** One bucket's count in one window as this instance sees it. */
interface Count {
  /** The shared total the last delivered flush answered (every instance's delivered hits). */
  shared: number;
  /** Hits of a flush under way: counted here until its total arrives, kept if it fails. */
  sending: number;
  /** Hits admitted since, not yet sent. */
  pending: number;
}

const seen = (c: Count) => c.shared + c.sending + c.pending;
const windowOf = (seconds: number) => Math.floor(seconds / WINDOW_SECONDS) * WINDOW_SECONDS;

export interface RateLimiterOptions {
  log?: Pick<Logger, 'warn' | 'info'>;
  flushEveryMs?: number;
}

/**
 * The previous window's count still inside the last 60 seconds, `elapsed` seconds into the
 * current window: count * (1 - elapsed / 60), rounded down. Multiplied before dividing, so a
 * boundary at a whole second is exact (1 - 54/60 is a hair under 0.1 in floating point).
 */
const weighed = (count: number, elapsed: number) => Math.floor((count * (WINDOW_SECONDS - elapsed)) / WINDOW_SECONDS);

/**
 * Sliding-window counter over two fixed 60-second windows: the previous window's count,
 * weighted by how much of it still lies inside the last 60 seconds, plus the current one.
 * A request is decided from memory alone; the counts are shared by every instance through
 * Postgres, on a timer (`start`), never on a request's path. A refused request is not counted.
 */
export class RateLimiter {
  /** window start (unix seconds) → bucket → count */
  private readonly windows = new Map<number, Map<string, Count>>();
  private timer: NodeJS.Timeout | undefined;
  private flushes: Promise<boolean> = Promise.resolve(true);
  private flushesQueued = 0;
  private failing = false;

  constructor(
    private readonly db: Kysely<Database>,
    /** The service's clock: which windows are spent (the windows of a hit follow its `now`). */
    private readonly clock: Clock,
    private readonly options: RateLimiterOptions = {},
  ) {}

  hit(buckets: Bucket[], now: Date): Verdict {
    const seconds = now.getTime() / 1000;
    const windowStart = windowOf(seconds);
    const elapsed = seconds - windowStart;
    // every request passes here: the common case (no bucket over) allocates nothing but its
    // verdict; a refusal takes the longer way below
    let tightest = 0;
    let room = Infinity;
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      const used =
        weighed(seen(this.count(b.name, windowStart - WINDOW_SECONDS)), elapsed) +
        seen(this.count(b.name, windowStart)) +
        1;
      if (used > b.limit) return this.refuse(buckets, seconds, windowStart, elapsed);
      if (b.limit - used < room) {
        tightest = i;
        room = b.limit - used;
      }
    }
    for (const b of buckets) this.count(b.name, windowStart).pending += 1;
    return {
      allowed: true,
      limit: buckets[tightest]!.limit,
      remaining: Math.max(0, room),
      reset: windowStart + WINDOW_SECONDS,
      retryAfter: 0,
    };
  }

  private refuse(buckets: Bucket[], seconds: number, windowStart: number, elapsed: number): Verdict {
    const states = buckets.map((b) => {
      const current = this.count(b.name, windowStart);
      const hits = seen(current) + 1; // this request included
      const prev = seen(this.count(b.name, windowStart - WINDOW_SECONDS));
      return { ...b, current, hits, prev, used: weighed(prev, elapsed) + hits };
    });
    const over = states.filter((s) => s.used > s.limit);
    const tightest = (over.length > 0 ? over : states).reduce((a, b) => (b.limit - b.used < a.limit - a.used ? b : a));
    const retryAfter = Math.max(...over.map((s) => secondsUntilFree(s.limit, s.hits - 1, s.prev, elapsed)));
    // refused: the reset is when a request passes again, as Retry-After says (that can be
    // after the current window ends, while the full one still weighs in as the previous)
    return { allowed: false, limit: tightest.limit, remaining: 0, reset: Math.ceil(seconds + retryAfter), retryAfter };
  }

  /** Flushes every `flushEveryMs` until `stop`; the timer keeps no process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.flushesQueued === 0) void this.flush(); // a slow flush is not queued up behind
    }, this.options.flushEveryMs ?? FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and delivers what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /**
   * Adds this instance's hits to the shared counts and takes every instance's totals back,
   * for each bucket this instance met in the current or previous window. One at a time.
   * Never throws: false when the database did not take the hits, which then wait for the
   * next flush while requests go on being decided from memory.
   */
  flush(): Promise<boolean> {
    this.flushesQueued += 1;
    const run = this.flushes.then(() => this.exchange()).finally(() => (this.flushesQueued -= 1));
    this.flushes = run;
    return run;
  }

  /** Forgets windows that can no longer count, in the shared table (hourly maintenance). */
  purge(now: Date): Promise<void> {
    return purgeSpentWindows(this.db, now);
  }

  /** How many (bucket, window) counts this instance holds: what each flush sends or asks for. */
  tracked(): number {
    let n = 0;
    for (const counts of this.windows.values()) n += counts.size;
    return n;
  }

  private count(bucket: string, windowStart: number): Count {
    let counts = this.windows.get(windowStart);
    if (!counts) this.windows.set(windowStart, (counts = new Map<string, Count>()));
    let count = counts.get(bucket);
    if (!count) counts.set(bucket, (count = { shared: 0, sending: 0, pending: 0 }));
    return count;
  }

  private async exchange(): Promise<boolean> {
    // a window before the previous one weighs nothing any more: forget it, unsent hits too
    const oldest = windowOf(this.clock.now().getTime() / 1000) - WINDOW_SECONDS;
    for (const windowStart of this.windows.keys()) if (windowStart < oldest) this.windows.delete(windowStart);
    const sent: (WindowDelta & { count: Count })[] = [];
    for (const [windowStart, counts] of this.windows)
      for (const [bucket, count] of counts) {
        count.sending = count.pending;
        count.pending = 0;
        sent.push({ bucket, windowStart, delta: count.sending, count });
      }
    try {
      const totals = await exchangeCounts(this.db, sent);
      const byKey = new Map(totals.map((t) => [`${t.windowStart} ${t.bucket}`, t.hits]));
      for (const s of sent) {
        s.count.shared = byKey.get(`${s.windowStart} ${s.bucket}`) ?? 0;
        s.count.sending = 0;
      }
      if (this.failing) this.options.log?.info('rate limit counts shared again');
      this.failing = false;
      return true;
    } catch (error) {
      for (const s of sent) {
        s.count.pending += s.count.sending;
        s.count.sending = 0;
      }
      // once per outage, not every flush
      if (!this.failing) this.options.log?.warn({ err: error }, 'rate limit counts not shared; deciding from memory');
      this.failing = true;
      return false;
    }
  }
}

/**
 * Whole seconds until prev * weight(t) + hits + 1 <= limit, where weight falls linearly to
 * zero at the window's end; after that the current count becomes the previous one. The
 * closed form gives the second; it is then checked with the very arithmetic `hit` decides
 * by (floating point may put an exact boundary a hair either side of it).
 */
export const secondsUntilFree = (limit: number, hits: number, prev: number, elapsed: number): number => {
  const W = WINDOW_SECONDS;
  const first = (from: number, free: (s: number) => boolean) => {
    let s = Math.max(1, from - 1);
    while (!free(s)) s++;
    return s;
  };
  const room = limit - hits - 1;
  if (room >= 0 && prev > 0) {
    // need floor(prev * (1 - t/W)) <= room; at the window's end it holds (the weight is 0)
    const t = W * (1 - (room + 1) / prev);
    return first(Math.ceil(t - elapsed), (s) => elapsed + s >= W || weighed(prev, elapsed + s) <= room);
  }
  if (room >= 0) return 1;
  // this window alone is full: wait for the next one, where `hits` is weighted down
  const untilNext = W - elapsed;
  const t = W * (1 - limit / Math.max(hits, 1));
  return first(Math.ceil(untilNext + Math.max(0, t)), (s) => {
    const at = elapsed + s - W; // into the next window
    return at >= 0 && weighed(hits, at) + 1 <= limit;
  });
};
