import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Instances decide from memory and share their counts through Postgres on a flush: what one
 * instance admitted, another sees after both flushed, and a flush the database did not take
 * loses nothing.
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

  it('hits admitted on A are seen by B once both flushed; B then refuses at the limit, and A after its next flush', async () => {
    const at = new Date('2026-05-01T00:00:00.000Z'); // a window boundary: no previous window weighs
    const clock = new TestClock(at);
    const a = new RateLimiter(db.kysely, clock);
    const b = new RateLimiter(db.kysely, clock);
    const bucket = [{ name: 'supplier:shared', limit: 10 }];

    for (let i = 0; i < 7; i++) expect(a.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 9 - i });
    expect(b.hit(bucket, at).remaining).toBe(9); // B knows only its own hit
    expect(await a.flush()).toBe(true);
    expect(await b.flush()).toBe(true);
    expect(await sharedHits('supplier:shared')).toEqual([[at.getTime() / 1000, 8]]);

    // B now sees 8: two more pass, the next is refused
    expect(b.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 1 });
    expect(b.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 0 });
    expect(b.hit(bucket, at)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 61 });
    // A has not heard of B's three hits yet: its view is its own 7 and the 1 it read back
    expect(await b.flush()).toBe(true);
    expect(await a.flush()).toBe(true);
    expect(a.hit(bucket, at)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 61 });
    expect(await sharedHits('supplier:shared')).toEqual([[at.getTime() / 1000, 10]]);
  });

  it('a flush cut off by a terminated connection keeps its hits, requests go on being decided, the next flush delivers them exactly', async () => {
    const at = new Date('2026-05-02T00:00:30.000Z');
    const clock = new TestClock(at);
    const own = connect(url, 2);
    const warnings: unknown[][] = [];
    const infos: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args), info: (...args: unknown[]) => infos.push(args) };
    const limiter = new RateLimiter(own.kysely, clock, { log: log as never });
    const bucket = [{ name: 'supplier:cut', limit: 100 }];
    const admin = await db.pool.connect();
    try {
      for (let i = 0; i < 5; i++) limiter.hit(bucket, at);
      // the flush blocks on the table lock until its connection is terminated: it cannot commit
      await admin.query('begin');
      await admin.query('lock table rate_limit_hits in share mode');
      const flushing = limiter.flush();
      const pid = await blockedOnLock(db);
      // meanwhile requests are decided from memory, the hits being sent still counted
      for (let i = 0; i < 3; i++) expect(limiter.hit(bucket, at)).toMatchObject({ allowed: true, remaining: 94 - i });
      await admin.query('select pg_terminate_backend($1)', [pid]);
      expect(await flushing).toBe(false);
      await admin.query('rollback');
      expect(await sharedHits('supplier:cut')).toEqual([]);
      expect(limiter.hit(bucket, at).remaining).toBe(91); // nothing forgotten
      expect(warnings).toHaveLength(1);

      expect(await limiter.flush()).toBe(true);
      expect(await sharedHits('supplier:cut')).toEqual([[at.getTime() / 1000 - 30, 9]]);
      expect(infos).toHaveLength(1);
      // delivered once: a further flush adds nothing
      expect(await limiter.flush()).toBe(true);
      expect(await sharedHits('supplier:cut')).toEqual([[at.getTime() / 1000 - 30, 9]]);

      // and another instance sees all nine
      const other = new RateLimiter(db.kysely, clock);
      other.hit(bucket, at);
      expect(await other.flush()).toBe(true);
      expect(other.hit(bucket, at).remaining).toBe(100 - 11);
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
    limiter.hit(bucket, at);
    expect(await limiter.flush()).toBe(false);
    expect(limiter.hit(bucket, at).remaining).toBe(1);
    expect(await limiter.flush()).toBe(false);
    expect(limiter.hit(bucket, at).remaining).toBe(0);
    expect(limiter.hit(bucket, at).allowed).toBe(false);
    await unreachable.close();
  });

  it('each admission is decided on exactly what the instance has seen, so the overshoot is the unseen hits of the others', async () => {
    const at = new Date('2026-05-04T00:00:00.000Z');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 60 }),
        async (n, limit, steps) => {
          const bucket = [{ name: `overshoot:${run++}`, limit }];
          const instances = Array.from({ length: n }, () => new RateLimiter(db.kysely, new TestClock(at)));
          const admitted = Array<number>(n).fill(0);
          const delivered = Array<number>(n).fill(0);
          // seen[i][j]: how many of j's hits instance i read back at its last flush; an
          // instance reads back only the buckets it met (a refused request meets one too)
          const seen = Array.from({ length: n }, () => Array<number>(n).fill(0));
          const met = Array<boolean>(n).fill(false);
          let unseenAtLast = 0;
          for (const [isFlush, pick] of steps) {
            const i = pick % n;
            if (isFlush) {
              expect(await instances[i]!.flush()).toBe(true);
              delivered[i] = admitted[i]!;
              if (met[i]) seen[i] = [...delivered];
              continue;
            }
            const view = admitted[i]! + seen[i]!.reduce((sum, s, j) => (j === i ? sum : sum + s), 0);
            const verdict = instances[i]!.hit(bucket, at);
            met[i] = true;
            expect(verdict.allowed).toBe(view + 1 <= limit);
            expect(verdict.remaining).toBe(Math.max(0, limit - view - 1));
            if (!verdict.allowed) continue;
            admitted[i]! += 1;
            unseenAtLast = admitted.reduce((sum, a, j) => (j === i ? sum : sum + a - seen[i]![j]!), 0);
          }
          const total = admitted.reduce((x, y) => x + y, 0);
          // no instance admits past the limit on its own; together, at most the limit plus
          // what the instance admitting last had not seen of the others
          expect(Math.max(...admitted)).toBeLessThanOrEqual(limit);
          expect(total).toBeLessThanOrEqual(Math.min(n * limit, limit + unseenAtLast));
          for (const instance of instances) expect(await instance.flush()).toBe(true);
          expect(await sharedHits(bucket[0]!.name)).toEqual(total > 0 ? [[at.getTime() / 1000, total]] : []);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('without a flush every instance admits the full limit (N × limit), and after one none admits more', async () => {
    const at = new Date('2026-05-05T00:00:00.000Z');
    const instances = [0, 1, 2].map(() => new RateLimiter(db.kysely, new TestClock(at)));
    const bucket = [{ name: 'supplier:blind', limit: 4 }];
    for (const instance of instances) for (let i = 0; i < 4; i++) expect(instance.hit(bucket, at).allowed).toBe(true);
    for (const instance of instances) expect(await instance.flush()).toBe(true);
    expect(await sharedHits('supplier:blind')).toEqual([[at.getTime() / 1000, 12]]);
    // the first to flush read back only its own 4: it learns the rest at its next flush
    expect(await instances[0]!.flush()).toBe(true);
    for (const instance of instances) expect(instance.hit(bucket, at).allowed).toBe(false);
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
      for (let k = 0; k < 10; k++) {
        a.hit(bucketsOf(k), at);
        b.hit(bucketsOf(9 - k), at);
      }
      expect(await Promise.all([a.flush(), b.flush(), a.flush()])).toEqual([true, true, true]);
    }
    const window = Math.floor(at.getTime() / 60_000) * 60;
    expect(await sharedHits('supplier:race')).toEqual([[window, 400]]);
    for (let t = 0; t < 5; t++) expect(await sharedHits(`token:t${t}:reads`)).toEqual([[window, 80]]);
  });

  it('forgets the windows that can no longer count at each flush', async () => {
    const at = new Date('2026-05-07T00:00:00.000Z');
    const clock = new TestClock(at);
    const limiter = new RateLimiter(db.kysely, clock);
    for (const name of ['a', 'b', 'c']) limiter.hit([{ name: `forget:${name}`, limit: 5 }], at);
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
      limiter.hit(bucket, at);
      const deadline = Date.now() + 10_000;
      while ((await sharedHits('supplier:timed')).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(await sharedHits('supplier:timed')).toEqual([[at.getTime() / 1000, 1]]);
      limiter.hit(bucket, at);
    } finally {
      await limiter.stop();
    }
    expect(await sharedHits('supplier:timed')).toEqual([[at.getTime() / 1000, 2]]);
  });
});

/**
 * The pid of the session waiting for a lock on rate_limit_hits, once it waits. Asked outside
 * the locking transaction: pg_stat_activity stays as first read within one transaction.
 */
const blockedOnLock = async (db: Db): Promise<number> => {
  for (let i = 0; i < 1000; i++) {
    const { rows } = await db.pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and query like '%rate_limit_hits%'`,
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no flush waited on the lock');
};
