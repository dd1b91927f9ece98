import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { createTestDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';

/**
 * Instances admit within budget claimed from Postgres, where no more than the limit is handed
 * out across instances; they share their hits on a flush, and a flush the database did not
 * take loses nothing.
 */
describe('rate limits shared between instances', () => {
  let url: string;
  let db: Db;
  beforeAll(async () => {
    url = await createTestDatabase();
    db = connect(url, 6);
  });
  afterAll(() => db.close());

  const sharedHits = async (bucket: string) =>
    (
      await db.kysely
        .selectFrom('rate_limit_hits')
        .select(['window_start', 'hits'])
        .where('bucket', '=', bucket)
        .orderBy('window_start')
        .execute()
    ).map((r) => [Number(r.window_start), r.hits]);

  it('budget A claimed is spent for B at once, with no flush; B then refuses at the limit, and so does A', async () => {
    const at = new Date('2026-05-01T00:00:00.000Z'); // a window boundary: no previous window weighs
    const clock = new TestClock(at);
    const a = new RateLimiter(db.kysely, clock);
    const b = new RateLimiter(db.kysely, clock);
    const bucket = [{ name: 'supplier:shared', limit: 10 }];

    for (let i = 0; i < 7; i++) expect(await a.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 9 - i });
    // B claims its budget: A's seven are taken
    expect(await b.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await b.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await b.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await b.hit(bucket, at)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 61 });
    // A asks for more and learns the budget is spent
    expect(await a.hit(bucket, at)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 61 });
    expect(await a.flush()).toBe(true);
    expect(await b.flush()).toBe(true);
    expect(await sharedHits('supplier:shared')).toEqual([[at.getTime() / 1000, 10]]);
  });

  it('a flush cut off by a terminated connection keeps its hits, requests go on being decided, the next flush delivers them exactly', async () => {
    const at = new Date('2026-05-02T00:00:30.000Z');
    const clock = new TestClock(at);
    const own = connect(url, 3);
    const warnings: unknown[][] = [];
    const infos: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args), info: (...args: unknown[]) => infos.push(args) };
    // under 50 every claim is for one request: what the instance holds is what it admitted
    const limiter = new RateLimiter(own.kysely, clock, { log: log as never, claimWaitMs: 50 });
    const bucket = [{ name: 'supplier:cut', limit: 40 }];
    const admin = await db.pool.connect();
    try {
      for (let i = 0; i < 5; i++) await limiter.hit(bucket, at);
      // the flush blocks on the table lock until its connection is terminated: it cannot commit
      await admin.query('begin');
      await admin.query('lock table rate_limit_hits in share mode');
      const flushing = limiter.flush();
      const pid = await blockedOnLock(db);
      // meanwhile requests are decided: claims wait on the lock too, so from memory once the
      // claim took longer than claimWaitMs, the hits being sent still counted
      for (let i = 0; i < 3; i++)
        expect(await limiter.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 34 - i });
      await admin.query('select pg_terminate_backend($1)', [pid]);
      expect(await flushing).toBe(false);
      await admin.query('rollback');
      expect(await sharedHits('supplier:cut')).toEqual([[at.getTime() / 1000 - 30, 0]]); // claimed, not yet counted
      expect(await limiter.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 31 }); // nothing forgotten
      expect(warnings).toHaveLength(1);

      expect(await limiter.flush()).toBe(true);
      expect(await sharedHits('supplier:cut')).toEqual([[at.getTime() / 1000 - 30, 9]]);
      expect(infos).toHaveLength(1);
      // delivered once: a further flush adds nothing
      expect(await limiter.flush()).toBe(true);
      expect(await sharedHits('supplier:cut')).toEqual([[at.getTime() / 1000 - 30, 9]]);
    } finally {
      admin.release();
      await own.close();
    }
  });

  it('a flush to a database that refuses connections fails without throwing, and the limiter keeps counting', async () => {
    const at = new Date('2026-05-03T00:00:00.000Z');
    const down = new URL(url);
    down.port = '1'; // nothing listens there
    const unreachable = connect(down.toString(), 1);
    const limiter = new RateLimiter(unreachable.kysely, new TestClock(at));
    const bucket = [{ name: 'supplier:closed', limit: 3 }];
    // the claim fails: decided from memory, each instance alone
    expect((await limiter.hit(bucket, at)).remaining).toBe(2);
    expect(await limiter.flush()).toBe(false);
    expect((await limiter.hit(bucket, at)).remaining).toBe(1);
    expect(await limiter.flush()).toBe(false);
    expect((await limiter.hit(bucket, at)).remaining).toBe(0);
    expect((await limiter.hit(bucket, at)).allowed).toBe(false);
    await unreachable.close();
  });

  it('whatever the interleaving of hits and flushes on 2–4 instances, together they admit exactly up to the limit', async () => {
    const at = new Date('2026-05-04T00:00:00.000Z');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 40 }),
        async (n, limit, steps) => {
          const bucket = [{ name: `overshoot:${run++}`, limit }];
          const instances = Array.from({ length: n }, () => new RateLimiter(db.kysely, new TestClock(at)));
          let total = 0;
          for (const [isFlush, pick] of steps) {
            const instance = instances[pick % n]!;
            if (isFlush) {
              expect(await instance.flush()).toBe(true);
              continue;
            }
            // under 50 each admission claims one request's budget: the verdict is the
            // shared count's, whichever instance answers
            const verdict = await instance.hit(bucket, at);
            expect(verdict.allowed).toBe(total < limit);
            expect(verdict.remaining).toBe(Math.max(0, limit - total - 1));
            if (verdict.allowed) total += 1;
          }
          for (const instance of instances) expect(await instance.flush()).toBe(true);
          const hits = await sharedHits(bucket[0]!.name);
          expect(hits).toEqual(steps.some(([isFlush]) => !isFlush) ? [[at.getTime() / 1000, total]] : []);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('with no flush three instances admit the limit together, not three times it', async () => {
    const at = new Date('2026-05-05T00:00:00.000Z');
    const instances = [0, 1, 2].map(() => new RateLimiter(db.kysely, new TestClock(at)));
    const bucket = [{ name: 'supplier:blind', limit: 4 }];
    const verdicts = await Promise.all(
      instances.flatMap((instance) => [0, 1, 2, 3].map(() => instance.hit(bucket, at))),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(4);
    for (const instance of instances) expect(await instance.flush()).toBe(true);
    expect(await sharedHits('supplier:blind')).toEqual([[at.getTime() / 1000, 4]]);
  });

  it('far from the limit budget is claimed ahead in slices: requests are decided from memory, a few claims a window', async () => {
    const at = new Date('2026-05-05T00:00:10.000Z');
    const limiter = new RateLimiter(db.kysely, new TestClock(at));
    const bucket = [{ name: 'supplier:sliced', limit: 1200 }];
    expect(await limiter.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 1199 }); // claims first
    let fromMemory = 0;
    for (let i = 0; i < 300; i++) {
      // requests a few milliseconds apart: the claim ahead answers between them
      await new Promise((r) => setTimeout(r, 5));
      const verdict = limiter.hit(bucket, at);
      if (!(verdict instanceof Promise)) fromMemory += 1;
      expect(await verdict).toMatchObject({ allowed: true, remaining: 1198 - i });
    }
    // each claim takes 1/32 of the limit (38) and the next starts when half of it is spent
    expect(fromMemory).toBe(300);
  });

  it('two instances flushing overlapping buckets at once lose no hit and never deadlock', async () => {
    const at = new Date('2026-05-06T00:00:10.000Z');
    const a = new RateLimiter(db.kysely, new TestClock(at));
    const b = new RateLimiter(db.kysely, new TestClock(at));
    const bucketsOf = (k: number) => [
      { name: `token:t${k % 5}:reads`, limit: 10_000 },
      { name: 'supplier:race', limit: 10_000 },
    ];
    for (let round = 0; round < 20; round++) {
      const hits = Array.from({ length: 10 }, (_, k) => [a.hit(bucketsOf(k), at), b.hit(bucketsOf(9 - k), at)]).flat();
      // claims and flushes of both instances at once
      const [verdicts, flushed] = await Promise.all([
        Promise.all(hits),
        Promise.all([a.flush(), b.flush(), a.flush()]),
      ]);
      expect(verdicts.every((v) => v.allowed)).toBe(true);
      expect(flushed).toEqual([true, true, true]);
    }
    expect(await Promise.all([a.flush(), b.flush()])).toEqual([true, true]);
    const window = Math.floor(at.getTime() / 60_000) * 60;
    expect(await sharedHits('supplier:race')).toEqual([[window, 400]]);
    for (let t = 0; t < 5; t++) expect(await sharedHits(`token:t${t}:reads`)).toEqual([[window, 80]]);
  });

  it('forgets the windows that can no longer count at each flush', async () => {
    const at = new Date('2026-05-07T00:00:00.000Z');
    const clock = new TestClock(at);
    const limiter = new RateLimiter(db.kysely, clock);
    for (const name of ['a', 'b', 'c']) await limiter.hit([{ name: `forget:${name}`, limit: 5 }], at);
    expect(limiter.tracked()).toBe(6); // each bucket's current and previous window
    expect(await limiter.flush()).toBe(true);
    expect(limiter.tracked()).toBe(6);
    clock.advance(60); // the hits' window is now the previous one: it still weighs
    expect(await limiter.flush()).toBe(true);
    expect(limiter.tracked()).toBe(3);
    clock.advance(60);
    expect(await limiter.flush()).toBe(true);
    expect(limiter.tracked()).toBe(0);
  });

  it('start() flushes on its own timer, and stop() delivers what is left', async () => {
    const at = new Date('2026-05-08T00:00:00.000Z');
    const limiter = new RateLimiter(db.kysely, new TestClock(at), { flushEveryMs: 20 });
    const bucket = [{ name: 'supplier:timed', limit: 50 }];
    limiter.start();
    try {
      await limiter.hit(bucket, at);
      const deadline = Date.now() + 10_000;
      // the claim made the row; the flush counts the hit
      while ((await sharedHits('supplier:timed'))[0]?.[1] !== 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(await sharedHits('supplier:timed')).toEqual([[at.getTime() / 1000, 1]]);
      await limiter.hit(bucket, at);
    } finally {
      await limiter.stop();
    }
    expect(await sharedHits('supplier:timed')).toEqual([[at.getTime() / 1000, 2]]);
  });

  it("a claim answered while a flush that gives budget back is on its way does not count that budget as another instance's", async () => {
    const at = new Date('2026-05-03T00:00:30.000Z');
    const clock = new TestClock(at);
    const own = connect(url, 4);
    // no claim is decided from memory here: every one waits for its answer
    const limiter = new RateLimiter(own.kysely, clock, { claimWaitMs: 60_000 });
    const main = [{ name: 'supplier:race-m', limit: 100 }];
    const first = [{ name: 'supplier:race-a', limit: 10 }]; // sent before race-m by a flush (bucket order)
    const admin = await db.pool.connect();
    try {
      let used = 0;
      for (; used < 80; used++) expect(await limiter.hit(main, at)).toMatchObject({ remaining: 100 - used - 1 });
      expect(await limiter.flush()).toBe(true);
      await limiter.hit(first, at);
      // near the limit and idle since the last flush: the next flush gives the spare budget back
      const [row] = await db.kysely
        .selectFrom('rate_limit_hits')
        .select(['hits', 'granted'])
        .where('bucket', '=', 'supplier:race-m')
        .execute();
      expect(row!.hits).toBe(used);
      expect(row!.granted).toBeGreaterThan(used);
      // that flush waits on race-a's row, before it reaches race-m's
      await admin.query('begin');
      await admin.query(`select 1 from rate_limit_hits where bucket = 'supplier:race-a' for update`);
      const flushing = limiter.flush();
      await blockedOnLock(db);
      // a request that needs budget of race-m: its claim must not be read against the
      // budget held after the give-back while the database still has it before
      const verdict = Promise.resolve(limiter.hit(main, at));
      // the claim, were it sent beside the flush, has its answer by now
      await Promise.race([verdict, new Promise((r) => setTimeout(r, 500))]);
      await admin.query('commit');
      expect(await flushing).toBe(true);
      expect(await verdict).toMatchObject({ allowed: true, remaining: 100 - used - 1 });
    } finally {
      admin.release();
      await own.close();
    }
  });
});

/**
 * The pid of the session waiting for a lock on rate_limit_hits, once it waits. Asked outside
 * the locking transaction: pg_stat_activity stays as first read within one transaction.
 */
const blockedOnLock = (db: Db): Promise<number> =>
  eventually(
    'a flush waiting on the lock',
    async () => {
      const { rows } = await db.pool.query<{ pid: number }>(
        `select pid from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and query like '%rate_limit_hits%'`,
      );
      return rows[0]?.pid ?? false;
    },
    { timeoutMs: 60_000 },
  );
