import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { projectionsRebuild, projectionsStatus } from '../../src/cli/projections.js';
import { connect, type Db } from '../../src/db/connect.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { readCheckpoint } from '../../src/projections/checkpoints.js';
import { projector, type Projector } from '../../src/projections/projector.js';
import { rebuildProjector } from '../../src/projections/rebuild.js';
import { ProjectionRunner } from '../../src/projections/runner.js';
import { createTestDatabase } from '../support/database.js';

const silent = pino({ level: 'silent' });
const now = () => new Date('2026-02-01T00:00:00.000Z');

/** A projector over its own table: one row per counter, incremented per Tick event. */
const counters = (name: string, version = 1, fail?: (n: number) => boolean): Projector =>
  projector({
    name,
    version,
    tables: [`${name}_counts`],
    ddl: (s) => `create table ${s}.${name}_counts (counter text primary key, n integer not null)`,
    handlers: {
      Tick: async (db, e) => {
        const data = e.data as { counter: string; n: number };
        if (fail?.(data.n)) throw new Error(`handler fails on tick ${data.n}`);
        await sql`insert into ${sql.table(`${name}_counts`)} (counter, n) values (${data.counter}, 1)
          on conflict (counter) do update set n = ${sql.table(`${name}_counts`)}.n + 1`.execute(db);
      },
    },
  });

describe('projection runner', () => {
  let db: Db;
  let store: PostgresEventStore;
  let url: string;
  const runners: ProjectionRunner[] = [];
  beforeAll(async () => {
    url = await createTestDatabase();
    db = connect(url, 20);
    store = new PostgresEventStore(db.pool);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  const start = async (...projectors: Projector[]) => {
    const runner = new ProjectionRunner(db.kysely, store, projectors, now, silent);
    runners.push(runner);
    await runner.start();
    return runner;
  };
  const tick = (counter: string, n: number) =>
    store.append(`tick-${newId()}`, [{ type: 'Tick', data: { counter, n } }], 'no_stream', now());
  const count = async (table: string, counter: string) =>
    (await sql<{ n: number }>`select n from ${sql.table(table)} where counter = ${counter}`.execute(db.kysely)).rows[0]
      ?.n ?? 0;

  it('applies events and advances its checkpoint; waitFor resolves at the appended position', async () => {
    const runner = await start(counters('basic'));
    let last: Awaited<ReturnType<typeof tick>> | undefined;
    for (let i = 0; i < 5; i++) last = await tick('a', i);
    expect(await runner.waitFor(last!.position)).toBe(true);
    expect(await count('basic_counts', 'a')).toBe(5);
    expect((await readCheckpoint(db.kysely, 'basic'))!.position).toEqual(last!.position);
    expect(await runner.caughtUp()).toBe(true);
  });

  it('applies a batch and its checkpoint in one transaction: a failing handler leaves no partial write, and it heals', async () => {
    let failing = true;
    const events = [];
    for (let i = 0; i < 4; i++) events.push(await tick('atomic', i));
    const runner = await start(counters('atomic', 1, (n) => failing && n === 2));
    await new Promise((r) => setTimeout(r, 200));
    expect(await count('atomic_counts', 'atomic')).toBe(0); // ticks 0 and 1 were rolled back with 2
    expect((await readCheckpoint(db.kysely, 'atomic'))!.position).toEqual({ commit: 0n, prepare: 0n });
    expect(await runner.caughtUp()).toBe(false);
    // once the fault is gone the projector resumes from its checkpoint by itself
    failing = false;
    expect(await runner.waitFor(events[3]!.position, 10_000)).toBe(true);
    expect(await count('atomic_counts', 'atomic')).toBe(4);
    expect(await runner.caughtUp()).toBe(true);
  });

  it('two instances apply every event exactly once', async () => {
    const a = await start(counters('shared'));
    const b = await start(counters('shared'));
    const writes = await Promise.all(Array.from({ length: 60 }, (_, i) => tick('twice', i)));
    const last = writes.reduce(
      (m, w) =>
        w.position.commit > m.commit || (w.position.commit === m.commit && w.position.prepare > m.prepare)
          ? w.position
          : m,
      writes[0]!.position,
    );
    expect(await a.waitFor(last, 10_000)).toBe(true);
    expect(await b.waitFor(last, 10_000)).toBe(true);
    expect(await count('shared_counts', 'twice')).toBe(60);
  });

  it('rebuilds from position 0 into fresh tables while the live ones keep serving, then swaps', async () => {
    const runner = await start(counters('live'));
    let last: Awaited<ReturnType<typeof tick>> | undefined;
    for (let i = 0; i < 30; i++) last = await tick('rb', i);
    await runner.waitFor(last!.position);
    // damage the live table: the rebuild must recompute it from the events
    await sql`update live_counts set n = 999 where counter = 'rb'`.execute(db.kysely);
    const progress: number[] = [];
    const rebuilding = rebuildProjector(db.kysely, store, counters('live'), now, (p) => progress.push(p.processed));
    expect(await count('live_counts', 'rb')).toBe(999); // readers still see the live table meanwhile
    const end = await rebuilding;
    expect(await count('live_counts', 'rb')).toBe(30);
    expect((await readCheckpoint(db.kysely, 'live'))!.position).toEqual(end);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(30);
    const after = await tick('rb', 30);
    expect(await runner.waitFor(after.position)).toBe(true);
    expect(await count('live_counts', 'rb')).toBe(31);
    const schemas = await sql<{
      n: number;
    }>`select count(*)::int as n from information_schema.schemata where schema_name = 'rebuild_live'`.execute(
      db.kysely,
    );
    expect(schemas.rows[0]!.n).toBe(0);
  });

  it('rebuilds a projector whose version changed when it starts', async () => {
    const first = await start(counters('versioned', 1));
    let last: Awaited<ReturnType<typeof tick>> | undefined;
    for (let i = 0; i < 3; i++) last = await tick('v', i);
    await first.waitFor(last!.position);
    await first.stop();
    await sql`update versioned_counts set n = 0`.execute(db.kysely);
    const second = await start(counters('versioned', 2));
    expect(await second.waitFor(last!.position)).toBe(true);
    expect(await count('versioned_counts', 'v')).toBe(3);
    expect((await readCheckpoint(db.kysely, 'versioned'))!.version).toBe(2);
  });

  it('the CLI shows each projection and rebuilds one by name, refusing unknown names', async () => {
    const service = connect(url, 4);
    // the service's own projections need their tables: start them once
    const { allProjectors } = await import('../../src/projections/index.js');
    const runner = new ProjectionRunner(service.kysely, store, allProjectors, now, silent);
    await runner.start();
    await runner.stop();
    await service.close();
    const config = { ...loadConfig({}), databaseUrl: url };
    const lines: string[] = [];
    const original = console.table;
    console.table = (rows: unknown) => void lines.push(JSON.stringify(rows));
    const log = console.log;
    console.log = (line: unknown) => void lines.push(String(line));
    const error = console.error;
    console.error = (line: unknown) => void lines.push(String(line));
    try {
      expect(await projectionsStatus(config)).toBe(0);
      expect(lines[0]).toContain('"projector":"offers"');
      expect(lines[0]).toContain('"lag":0');
      expect(await projectionsRebuild(config, 'products')).toBe(0);
      expect(lines.some((l) => /^products: rebuilt up to \d+\/\d+$/.test(l))).toBe(true);
      expect(await projectionsRebuild(config, 'nope')).toBe(2);
      expect(lines.at(-1)).toMatch(/^no rebuildable projection named nope; known: /);
    } finally {
      console.table = original;
      console.log = log;
      console.error = error;
    }
  });

  it('a subscriber with nothing to do wakes on NOTIFY, not on the safety poll', async () => {
    // a store whose safety poll is far beyond this test's bound: only the notification can
    // wake its subscriber in time, however busy the machine is
    const notified = new PostgresEventStore(db.pool, { safetyPollMs: 600_000 });
    const runner = new ProjectionRunner(db.kysely, notified, [counters('latency')], now, silent);
    runners.push(runner);
    try {
      await runner.start();
      await new Promise((r) => setTimeout(r, 100)); // idle: asleep until notified
      const w = await tick('fast', 0);
      expect(await runner.waitFor(w.position, 60_000)).toBe(true);
    } finally {
      await runner.stop();
      await notified.close();
    }
  });
});
