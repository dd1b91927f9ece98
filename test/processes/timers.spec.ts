import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { type DueTimer, LEASE_MS, Timers as TypedTimers } from '../../src/processes/timers.js';

/** The mechanism under test, with kinds of the test's own (the service's kinds are typed in timer-kinds.ts). */
class Timers extends TypedTimers<Record<string, any>> {}
import { createTestDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';

const silent = pino({ level: 'silent' });

describe('durable timers', () => {
  let db: Db;
  let url: string;
  let clock: TestClock;
  const t0 = new Date('2026-03-01T12:00:00.000Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    url = await createTestDatabase();
    db = connect(url, 10);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await db.kysely.deleteFrom('timers').execute();
    clock = new TestClock(t0);
  });

  const timersWith = (log: DueTimer[], handler?: (t: DueTimer) => Promise<void | { runAgainAt: Date }>) => {
    const timers = new Timers(db.kysely, clock, silent);
    timers.on('settle', async (t) => {
      log.push(t);
      return handler?.(t);
    });
    return timers;
  };

  it('runs a timer only once it is due, with its payload, then forgets it', async () => {
    const ran: DueTimer[] = [];
    const timers = timersWith(ran);
    await timers.schedule('settle', 'entry-1', at(600), { entryId: 'entry-1' });
    expect(await timers.runDue()).toBe(0);
    clock.advance(599);
    expect(await timers.runDue()).toBe(0);
    clock.advance(1);
    expect(await timers.runDue()).toBe(1);
    expect(ran).toEqual([
      { kind: 'settle', key: 'entry-1', dueAt: at(600), payload: { entryId: 'entry-1' }, attempt: 1 },
    ]);
    expect(await db.kysely.selectFrom('timers').selectAll().execute()).toEqual([]);
    clock.advance(3600);
    expect(await timers.runDue()).toBe(0);
  });

  it('is keyed: scheduling the same key twice keeps the first, replace moves it', async () => {
    const timers = timersWith([]);
    await timers.schedule('settle', 'k', at(60), { n: 1 });
    await timers.schedule('settle', 'k', at(10), { n: 2 });
    let rows = await db.kysely.selectFrom('timers').select(['due_at', 'payload']).execute();
    expect(rows).toEqual([{ due_at: at(60), payload: { n: 1 } }]);
    await timers.schedule('settle', 'k', at(30), { n: 3 }, { replace: true });
    rows = await db.kysely.selectFrom('timers').select(['due_at', 'payload']).execute();
    expect(rows).toEqual([{ due_at: at(30), payload: { n: 3 } }]);
  });

  it('survives a restart: a new instance runs what the old one scheduled', async () => {
    await timersWith([]).schedule('settle', 'after-restart', at(5), {});
    const ran: DueTimer[] = [];
    const restarted = timersWith(ran);
    clock.advance(5);
    expect(await restarted.runDue()).toBe(1);
    expect(ran.map((t) => t.key)).toEqual(['after-restart']);
  });

  it('never runs the same timer on two instances', async () => {
    const ranA: DueTimer[] = [];
    const ranB: DueTimer[] = [];
    const slow = () => new Promise<void>((r) => setTimeout(r, 5));
    const a = timersWith(ranA, slow);
    const b = timersWith(ranB, slow);
    for (let i = 0; i < 200; i++) await a.schedule('settle', `k${i}`, at(i % 7), {});
    clock.advance(10);
    const drain = async (t: Timers) => {
      let total = 0;
      for (let n = await t.runDue(20); n > 0; n = await t.runDue(20)) total += n;
      return total;
    };
    const [na, nb] = await Promise.all([drain(a), drain(b)]);
    expect(na + nb).toBe(200);
    const keys = [...ranA, ...ranB].map((t) => t.key).sort();
    expect(new Set(keys).size).toBe(200);
    expect(na).toBeGreaterThan(0);
    expect(nb).toBeGreaterThan(0);
  });

  it('retries a failed timer later with backoff and records the error', async () => {
    let fail = true;
    const ran: DueTimer[] = [];
    const timers = timersWith(ran, async () => {
      if (fail) throw new Error('supplier down');
    });
    await timers.schedule('settle', 'flaky', at(0), {});
    expect(await timers.runDue()).toBe(1);
    const row = await db.kysely.selectFrom('timers').selectAll().executeTakeFirstOrThrow();
    expect(row.last_error).toBe('supplier down');
    expect(row.attempts).toBe(1);
    expect(row.due_at).toEqual(at(2)); // 1 s * 2^attempt
    expect(await timers.runDue()).toBe(0);
    fail = false;
    clock.advance(2);
    expect(await timers.runDue()).toBe(1);
    expect(ran.map((t) => t.attempt)).toEqual([1, 2]);
    expect(await db.kysely.selectFrom('timers').selectAll().execute()).toEqual([]);
  });

  it('a handler may ask to run again later', async () => {
    const ran: DueTimer[] = [];
    const timers = timersWith(ran, async (t) => ({ runAgainAt: new Date(t.dueAt.getTime() + 10_000) }));
    await timers.schedule('settle', 'poll', at(0), {});
    await timers.runDue();
    clock.advance(10);
    await timers.runDue();
    expect(ran.map((t) => t.dueAt)).toEqual([at(0), at(10)]);
    const row = await db.kysely.selectFrom('timers').select(['due_at', 'claimed_by']).executeTakeFirstOrThrow();
    expect(row).toEqual({ due_at: at(20), claimed_by: null });
  });

  it('a claim whose lease ran out (its instance died) is taken over', async () => {
    const ran: DueTimer[] = [];
    const timers = timersWith(ran);
    await timers.schedule('settle', 'orphan', at(0), {});
    // an instance claimed it and died before finishing
    await db.kysely
      .updateTable('timers')
      .set({ claimed_by: 'dead:1', claimed_until: at(300) })
      .execute();
    expect(await timers.runDue()).toBe(0);
    clock.advance(301);
    expect(await timers.runDue()).toBe(1);
    expect(ran.map((t) => t.key)).toEqual(['orphan']);
  });

  it('a run whose instance crashed is taken over once its short lease runs out (30 s), not after minutes', async () => {
    // instance A claims the timer and dies mid-run: its pool is cut off, its handler never ends
    const deadDb = connect(url, 2);
    const a = new Timers(deadDb.kysely, clock, silent, { heartbeatMs: 5 });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    a.on('settle', async () => {
      started();
      await new Promise(() => undefined);
    });
    await a.schedule('settle', 'crashed', at(0), {});
    void a.runDue();
    await running;
    await deadDb.pool.end().catch(() => undefined); // no more heartbeats reach the database
    const b = timersWith([]);
    expect(await b.runDue()).toBe(0); // the lease still holds
    clock.advance(31);
    expect(await b.runDue()).toBe(1);
  });

  it('a long run renews its lease (a heartbeat), so no other instance runs it at the same time', async () => {
    const a = new Timers(db.kysely, clock, silent, { heartbeatMs: 5 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    a.on('settle', async () => {
      runs++;
      await gate;
    });
    await a.schedule('settle', 'long', at(0), {});
    const first = a.runDue();
    const b = timersWith([]);
    for (let i = 0; i < 4; i++) {
      // 20 s of clock time per round, 80 s in all: far beyond one lease
      clock.advance(20);
      // a heartbeat renews the lease from the clock's now: wait for it, however slow the machine
      const renewed = clock.now().getTime() + LEASE_MS;
      await eventually('the lease renewed by a heartbeat', async () => {
        const row = await db.kysely.selectFrom('timers').select('claimed_until').executeTakeFirstOrThrow();
        return row.claimed_until !== null && new Date(row.claimed_until).getTime() === renewed;
      });
      expect(await b.runDue()).toBe(0);
    }
    release();
    expect(await first).toBe(1);
    expect(runs).toBe(1);
    expect(await db.kysely.selectFrom('timers').selectAll().execute()).toEqual([]);
  });

  it('the background loop survives the database going away mid-run and picks up again when it is back', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const own = connect(url, 2);
    const timers = new Timers(own.kysely, clock, log);
    const done: string[] = [];
    const name = new URL(url).pathname.slice(1);
    // the database refuses every session, and ends the ones it has: a restart or failover
    const outage = async (on: boolean) => {
      await sql.raw(`alter database ${name} with allow_connections ${on ? 'false' : 'true'}`).execute(db.kysely);
      if (on)
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`.execute(
          db.kysely,
        );
    };
    timers.on('settle', async (t) => {
      done.push(t.key);
      if (t.key === 'during' && done.filter((k) => k === 'during').length === 1) await outage(true);
    });
    await timers.schedule('settle', 'during', at(0), {});
    timers.start(5);
    const until = (what: () => boolean) => eventually('the background loop got there', what);
    await until(() => lines.length > 0); // the run's outcome could not be recorded
    await new Promise((r) => setTimeout(r, 100));
    await outage(false);
    // the run whose outcome was lost runs again once its lease is over
    clock.advance(31);
    await timers.schedule('settle', 'after', at(0), {});
    await until(() => done.includes('after') && done.filter((k) => k === 'during').length === 2);
    await timers.stop();
    await own.close();
    expect(done.sort()).toEqual(['after', 'during', 'during']);
    expect(lines.length).toBeGreaterThan(0);
  });

  /** Whether the loop claimed the one timer scheduled. */
  const claimed = async () =>
    !!(await db.kysely.selectFrom('timers').select('claimed_by').executeTakeFirst())?.claimed_by;

  /** Timers whose slow keys run until released; each key is noted in `done` as its run ends. */
  const withSlowTimer = (keyIsSlow: (key: string) => boolean) => {
    const done: string[] = [];
    const timers = new Timers(db.kysely, clock, silent);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    timers.on('settle', async (t) => {
      if (keyIsSlow(t.key)) await slow;
      done.push(t.key);
    });
    return { done, timers, release };
  };

  it('in the background loop a slow timer never holds back the others', async () => {
    const { done, timers, release } = withSlowTimer((key) => key === 'slow');
    await timers.schedule('settle', 'slow', at(0), {});
    timers.start(10);
    await eventually('the slow one is claimed and running', claimed);
    await timers.schedule('settle', 'fast', at(0), {});
    await eventually('the fast one ran', () => done.includes('fast'));
    expect(done).toEqual(['fast']);
    release();
    await timers.stop();
    expect(done).toEqual(['fast', 'slow']);
  });

  it('answers whether the background loop has runs under way, once they ended (a drain waits for them)', async () => {
    const { done, timers, release } = withSlowTimer(() => true);
    expect(await timers.background()).toBe(false);
    await timers.schedule('settle', 'slow', at(0), {});
    timers.start(10);
    await eventually('the loop claimed it', claimed);
    // claimed by the loop: a runDue of its own finds nothing, yet the work is not done
    expect(await timers.runDue()).toBe(0);
    const background = timers.background();
    release();
    expect(await background).toBe(true);
    expect(done).toEqual(['slow']);
    await timers.stop();
    expect(await timers.background()).toBe(false);
  });
});
