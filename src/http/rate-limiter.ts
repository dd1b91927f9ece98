import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { WINDOW_SECONDS } from './limits.js';
import {
  type BudgetClaim,
  claimBudget,
  exchangeCounts,
  purgeSpentWindows,
  type WindowDelta,
} from './rate-limit-sync.js';

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
 * How often an instance adds its hits to the shared counts, gives back budget it no longer
 * needs and takes the others' totals back. A request never waits for it (docs/decisions.md,
 * "Rate limits: budget claimed from Postgres").
 */
export const FLUSH_EVERY_MS = 250;

/**
 * How long a request waits on a claim of budget before it is decided from memory, as when
 * Postgres is down: a database that answers slower than this limits the way it does then.
 */
export const CLAIM_WAIT_MS = 1000;

/** Below this limit every claim is for one request, so an idle instance holds none spare. */
const SLICED_FROM = 50;

/** One bucket's count in one window as this instance sees it. */
interface Count {
  /** The shared total of hits the last delivered flush answered (every instance's delivered hits). */
  shared: number;
  /** Hits of a flush under way: counted here until its total arrives, kept if it fails. */
  sending: number;
  /** Hits admitted since, not yet sent. */
  pending: number;
  /** Budget this instance holds in the window: what it claimed, less what it gave back. */
  held: number;
  /** Hits this instance admitted in the window. */
  used: number;
  /** Budget the other instances hold in the window, as last read. */
  others: number;
  /** Hits admitted while claims failed: added to the shared budget by the next flush. */
  unbacked: number;
  /** The last slice claimed: the next claim starts, in the background, when half is spent. */
  slice: number;
  /** A claim for it is queued or under way. */
  claiming: boolean;
  /** The bucket's limit at its last hit: the flush gives spare budget back near it. */
  limit: number;
}

const seen = (c: Count) => c.shared + c.sending + c.pending;
/** The hits of the window as far as this instance knows (the others' budget counts as spent). */
const counted = (c: Count) => Math.max(seen(c), c.used + c.others);
/** The budget of the window handed out to every instance, as far as this instance knows. */
const taken = (c: Count) => Math.max(seen(c), c.held + c.others);
const windowOf = (seconds: number) => Math.floor(seconds / WINDOW_SECONDS) * WINDOW_SECONDS;

export interface RateLimiterOptions {
  log?: Pick<Logger, 'warn' | 'info'>;
  flushEveryMs?: number;
  claimWaitMs?: number;
}

/**
 * The previous window's count still inside the last 60 seconds, `elapsed` seconds into the
 * current window: count * (1 - elapsed / 60), rounded down. Multiplied before dividing, so a
 * boundary at a whole second is exact (1 - 54/60 is a hair under 0.1 in floating point).
 * Migration 025's claim computes it the same way, in double precision too.
 */
const weighed = (count: number, elapsed: number) => Math.floor((count * (WINDOW_SECONDS - elapsed)) / WINDOW_SECONDS);

interface Queued extends BudgetClaim {
  count: Count;
}

/**
 * Sliding-window counter over two fixed 60-second windows: the previous window's count,
 * weighted by how much of it still lies inside the last 60 seconds, plus the current one.
 * A request is admitted only within budget its instance claimed from Postgres, where one
 * statement hands out no more than the limit across every instance; the budget is claimed
 * ahead, in slices, so far from the limit requests are decided from memory. Near it the
 * slices shrink to one request, which then waits for its claim. A refused request is not
 * counted. While Postgres cannot be reached, requests are decided from memory alone.
 */
export class RateLimiter {
  /** window start (unix seconds) → bucket → count */
  private readonly windows = new Map<number, Map<string, Count>>();
  private timer: NodeJS.Timeout | undefined;
  /**
   * Claims and flushes go to the database one after the other, on one line. Each answer sets
   * `others` to the budget every instance holds (`granted`) less this instance's `held`, and
   * each statement moves `held` before it is sent (a flush gives spare budget back, a claim
   * gives the previous window's back). Side by side, one answer could read `granted` from
   * before the other's statement against `held` from after it, and count budget this
   * instance had just given back as another instance's: for a moment the window looked
   * fuller than it was, and an answer's X-RateLimit-Remaining came out too low.
   */
  private exchanges: Promise<unknown> = Promise.resolve();
  private flushesQueued = 0;
  private failing = false;
  /** Claims waiting for the one under way: they go to the database together. */
  private readonly queued = new Map<string, Queued>();
  private nextClaim: Promise<boolean> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    /** The service's clock: which windows are spent (the windows of a hit follow its `now`). */
    private readonly clock: Clock,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /**
   * Decides a request. From memory while its instance holds budget in every bucket (or
   * the shared budget is known to be spent); otherwise it claims budget first and answers
   * a promise.
   */
  hit(buckets: Bucket[], now: Date): Verdict | Promise<Verdict> {
    return this.decide(buckets, now, this.failing);
  }

  private decide(buckets: Bucket[], now: Date, fromMemory: boolean): Verdict | Promise<Verdict> {
    const seconds = now.getTime() / 1000;
    const windowStart = windowOf(seconds);
    const elapsed = seconds - windowStart;
    // every request passes here: the common case (budget held in every bucket) allocates
    // nothing but its verdict; a claim or a refusal takes the longer way below
    let tightest = 0;
    let room = Infinity;
    let short = false;
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      const current = this.count(b.name, windowStart);
      const previous = weighed(counted(this.count(b.name, windowStart - WINDOW_SECONDS)), elapsed);
      current.limit = b.limit;
      if (current.held <= current.used) {
        if (previous + taken(current) + 1 > b.limit) return this.refuse(buckets, seconds, windowStart, elapsed);
        if (!fromMemory) short = true;
      }
      const left = b.limit - (previous + counted(current) + 1);
      if (left < room) {
        tightest = i;
        room = left;
      }
    }
    if (short) return this.claimThenDecide(buckets, now, windowStart, elapsed);
    for (const b of buckets) {
      const c = this.count(b.name, windowStart);
      if (c.held <= c.used) {
        // admitted from memory while claims fail: the budget is added after the fact
        c.held += 1;
        c.unbacked += 1;
      }
      c.used += 1;
      c.pending += 1;
      if (!this.failing && !c.claiming && c.slice > 1 && c.held - c.used <= c.slice / 2)
        void this.claim([b], windowStart, elapsed); // ahead of need: no request waits for it
    }
    return {
      allowed: true,
      limit: buckets[tightest]!.limit,
      remaining: Math.max(0, room),
      reset: windowStart + WINDOW_SECONDS,
      retryAfter: 0,
    };
  }

  private async claimThenDecide(buckets: Bucket[], now: Date, windowStart: number, elapsed: number) {
    const short = buckets.filter((b) => {
      const c = this.count(b.name, windowStart);
      return c.held <= c.used;
    });
    const answered = await this.claim(short, windowStart, elapsed);
    // unanswered in time (or failed): decided from memory, as while Postgres is down
    return this.decide(buckets, now, !answered || this.failing);
  }

  private refuse(buckets: Bucket[], seconds: number, windowStart: number, elapsed: number): Verdict {
    const states = buckets.map((b) => {
      const current = this.count(b.name, windowStart);
      const hits = taken(current) + 1; // this request included
      const prev = counted(this.count(b.name, windowStart - WINDOW_SECONDS));
      return { ...b, hits, prev, used: weighed(prev, elapsed) + hits };
    });
    const over = states.filter((s) => s.used > s.limit);
    const tightest = (over.length > 0 ? over : states).reduce((a, b) => (b.limit - b.used < a.limit - a.used ? b : a));
    const retryAfter = Math.max(...over.map((s) => secondsUntilFree(s.limit, s.hits - 1, s.prev, elapsed)));
    // refused: the reset is when a request passes again, as Retry-After says (that can be
    // after the current window ends, while the full one still weighs in as the previous)
    return { allowed: false, limit: tightest.limit, remaining: 0, reset: Math.ceil(seconds + retryAfter), retryAfter };
  }

  /**
   * Queues a claim for these buckets; true once it was answered (budget given or not), false
   * when it failed or took longer than `claimWaitMs`. One claim statement at a time: those
   * queued meanwhile go together in the next.
   */
  private claim(buckets: Bucket[], windowStart: number, elapsed: number): Promise<boolean> {
    for (const b of buckets) {
      const key = `${windowStart} ${b.name}`;
      const queued = this.queued.get(key);
      // budget claimed at one moment holds at any later one of the window: ask at the earliest
      if (queued) queued.elapsed = Math.min(queued.elapsed, elapsed);
      else {
        const count = this.count(b.name, windowStart);
        count.claiming = true;
        this.queued.set(key, { bucket: b.name, windowStart, elapsed, limit: b.limit, want: 0, giveBack: 0, count });
      }
    }
    if (!this.nextClaim) {
      const run = this.exchanges.then(() => this.sendClaims());
      this.exchanges = run;
      this.nextClaim = run;
    }
    const answered = this.nextClaim;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.options.claimWaitMs ?? CLAIM_WAIT_MS);
      void answered.then((ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
    });
  }

  private async sendClaims(): Promise<boolean> {
    this.nextClaim = undefined;
    const batch = [...this.queued.values()];
    this.queued.clear();
    for (const q of batch) {
      const c = q.count;
      // a slice for about two flush intervals at the rate of the last one, never less than
      // 1/32 of the limit; the database gives less near the limit
      q.want = q.limit < SLICED_FROM ? 1 : Math.max(Math.ceil(q.limit / 32), 2 * (c.pending + c.sending));
      const previous = this.count(q.bucket, q.windowStart - WINDOW_SECONDS);
      q.giveBack = Math.max(0, previous.held - previous.used);
      previous.held -= q.giveBack;
    }
    try {
      const answers = await claimBudget(this.db, batch);
      for (const a of answers) {
        const c = this.count(a.bucket, a.windowStart);
        c.held += a.given;
        if (a.given > 0) c.slice = a.given;
        c.others = Math.max(0, a.granted - c.held);
        const previous = this.count(a.bucket, a.windowStart - WINDOW_SECONDS);
        previous.others = Math.max(0, a.previous - previous.held);
      }
      return true;
    } catch (error) {
      for (const q of batch) this.count(q.bucket, q.windowStart - WINDOW_SECONDS).held += q.giveBack;
      this.failed(error);
      return false;
    } finally {
      for (const q of batch) q.count.claiming = false;
    }
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
   * Adds this instance's hits to the shared counts, gives back budget it no longer needs and
   * takes every instance's totals back, for each bucket this instance met in the current or
   * previous window. One at a time. Never throws: false when the database did not take the
   * hits, which then wait for the next flush while requests go on being decided from memory.
   */
  flush(): Promise<boolean> {
    this.flushesQueued += 1;
    const run = this.exchanges.then(() => this.exchange()).finally(() => (this.flushesQueued -= 1));
    this.exchanges = run;
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
    if (!count)
      counts.set(
        bucket,
        (count = {
          shared: 0,
          sending: 0,
          pending: 0,
          held: 0,
          used: 0,
          others: 0,
          unbacked: 0,
          slice: 0,
          claiming: false,
          limit: 0,
        }),
      );
    return count;
  }

  /**
   * Spare budget goes back: all of it once its window is over (the previous window's total
   * is then its hits, as the next window weighs it), and in the current window that of a
   * bucket idle since the last flush when less than a quarter of its limit is left, so an
   * instance the requests left does not keep what another one needs.
   */
  private spare(c: Count, bucket: string, windowStart: number, current: number, elapsed: number): number {
    const left = c.held - c.used;
    if (left <= 0) return 0;
    if (windowStart < current) return left;
    if (c.sending > 0) return 0;
    const previous = this.windows.get(windowStart - WINDOW_SECONDS)?.get(bucket);
    const weighs = previous ? weighed(counted(previous), elapsed) : 0;
    return c.limit - weighs - taken(c) < c.limit / 4 ? left : 0;
  }

  private async exchange(): Promise<boolean> {
    // a window before the previous one weighs nothing any more: forget it, unsent hits too
    const seconds = this.clock.now().getTime() / 1000;
    const current = windowOf(seconds);
    const oldest = current - WINDOW_SECONDS;
    for (const windowStart of this.windows.keys()) if (windowStart < oldest) this.windows.delete(windowStart);
    const sent: (WindowDelta & { count: Count; giveBack: number; unbacked: number })[] = [];
    for (const [windowStart, counts] of this.windows)
      for (const [bucket, count] of counts) {
        count.sending = count.pending;
        count.pending = 0;
        const giveBack = this.spare(count, bucket, windowStart, current, seconds - current);
        const unbacked = count.unbacked;
        count.held -= giveBack;
        count.unbacked = 0;
        sent.push({
          bucket,
          windowStart,
          delta: count.sending,
          granted: unbacked - giveBack,
          count,
          giveBack,
          unbacked,
        });
      }
    try {
      const totals = await exchangeCounts(this.db, sent);
      const byKey = new Map(totals.map((t) => [`${t.windowStart} ${t.bucket}`, t]));
      for (const s of sent) {
        const total = byKey.get(`${s.windowStart} ${s.bucket}`);
        s.count.shared = total?.hits ?? 0;
        s.count.others = Math.max(0, (total?.granted ?? 0) - s.count.held);
        s.count.sending = 0;
      }
      if (this.failing) this.options.log?.info('rate limit counts shared again');
      this.failing = false;
      return true;
    } catch (error) {
      for (const s of sent) {
        s.count.pending += s.count.sending;
        s.count.sending = 0;
        s.count.held += s.giveBack;
        s.count.unbacked += s.unbacked;
      }
      this.failed(error);
      return false;
    }
  }

  private failed(error: unknown): void {
    // once per outage, not every flush or claim
    if (!this.failing) this.options.log?.warn({ err: error }, 'rate limit counts not shared; deciding from memory');
    this.failing = true;
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
