import pg from 'pg';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { migrate, migrations } from '../../src/db/migrations.js';
import { comparePositions, type RecordedEvent, START, WrongExpectedRevision } from '../../src/eventstore/port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { refusedWhole } from '../../src/eventstore/postgres-append-batch.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';
import { eventStoreConformance, eventually, waitUntilReadable } from './conformance.js';

let url: string;
const ready = createTestDatabase().then((u) => (url = u));

eventStoreConformance(
  'postgres',
  async () => {
    await ready;
    const db = connect(url, 20);
    const store = new PostgresEventStore(db.pool);
    return {
      store,
      close: async () => {
        await store.close();
        await db.close();
      },
    };
  },
  { appendMany: true },
);

/** A store on a pool of its own for one describe block: opened before its tests, closed after. */
const storeForBlock = (set: (db: Db, store: PostgresEventStore) => void) => {
  let opened: { db: Db; store: PostgresEventStore } | undefined;
  beforeAll(async () => {
    await ready;
    const db = connect(url, 10);
    opened = { db, store: new PostgresEventStore(db.pool) };
    set(opened.db, opened.store);
  });
  afterAll(async () => {
    await opened?.store.close();
    await opened?.db.close();
  });
};

describe('postgres event store: the global order has no gaps for readers', () => {
  let store: PostgresEventStore;
  storeForBlock((_db, s) => (store = s));

  it('never lets a reader pass a transaction that took an earlier sequence number and commits late', async () => {
    // a transaction open in another test file's database holds every reader's head back (the
    // server's snapshot is shared): start where the head has caught up with every commit here,
    // so that only this test's open transaction can hold it back below
    let from = await store.head();
    for (const until = Date.now() + 10_000; comparePositions(from, await store.lastCommitted()) !== 0;) {
      if (Date.now() > until) throw new Error('the head never caught up with the last commit');
      await new Promise((r) => setTimeout(r, 10));
      from = await store.head();
    }
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    // the database is shared with the other tests of this file: only this test's streams count
    const run = newId();
    const ours = (events: RecordedEvent[]) => events.filter((e) => e.streamId.endsWith(run));
    const seen: RecordedEvent[] = [];
    const sub = store.subscribe({ from, onEvents: async (events) => void seen.push(...ours(events)) });
    try {
      // the slow writer takes its sequence number first, then holds its transaction open
      await slow.query('begin');
      await slow.query(`select * from es_append($1, 'no_stream', $2::jsonb, now())`, [
        `slow-${newId()}-${run}`,
        JSON.stringify([{ id: newId(), type: 'Slow', data: {}, metadata: {} }]),
      ]);
      // faster writers commit later sequence numbers meanwhile
      let last = START;
      for (let i = 0; i < 3; i++) {
        const written = await store.append(
          `fast-${newId()}-${run}`,
          [{ type: 'Fast', data: { i } }],
          'no_stream',
          new Date(),
        );
        last = written.position;
      }
      await new Promise((r) => setTimeout(r, 150));
      expect(seen).toEqual([]); // nothing passes the open transaction
      expect(ours(await store.readAll(from, 1000))).toEqual([]);
      // the readable head stops before them; what a drain waits for does not
      expect(await store.head()).toEqual(from);
      expect(await store.lastCommitted()).toEqual(last);
      await slow.query('commit');
      await eventually(() => seen.length === 4);
      expect(seen.map((e) => e.type)).toEqual(['Slow', 'Fast', 'Fast', 'Fast']);
      expect(new Set(seen.map((e) => e.id)).size).toBe(4);
    } finally {
      await sub.close();
      await slow.end();
    }
  });

  it('rolls nothing into the log from an aborted append', async () => {
    const from = await store.head();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const s = `aborted-${newId()}`;
    await client.query('begin');
    await client.query(`select * from es_append($1, 'no_stream', $2::jsonb, now())`, [
      s,
      JSON.stringify([{ id: newId(), type: 'Gone', data: {}, metadata: {} }]),
    ]);
    await client.query('rollback');
    await client.end();
    expect(await store.readStream(s)).toEqual([]);
    expect((await store.readAll(from, 100)).filter((e) => e.streamId === s)).toEqual([]);
    expect((await store.append(s, [{ type: 'Kept', data: {} }], 'no_stream', new Date())).nextRevision).toBe(0);
  });

  it('lets one of two appends racing on a revision win: the other waits for it, then fails or, under any, appends after it', async () => {
    const s = `race-${newId()}`;
    await store.append(s, [{ type: 'First', data: {} }], 'no_stream', new Date());
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    // an append of the next revision holds its transaction open while `racing` runs into it
    const race = async (revision: number, racing: () => Promise<unknown>) => {
      await holder.query('begin');
      await holder.query(`select * from es_append($1, $2, $3::jsonb, now())`, [
        s,
        String(revision),
        JSON.stringify([{ id: newId(), type: `Winner${revision + 1}`, data: {}, metadata: {} }]),
      ]);
      const outcome = racing().then(
        (result) => result,
        (error: unknown) => error,
      );
      await new Promise((r) => setTimeout(r, 100));
      await holder.query('commit');
      return outcome;
    };
    try {
      const expectingZero = await race(0, () => store.append(s, [{ type: 'Loser', data: {} }], 0, new Date()));
      expect(expectingZero).toBeInstanceOf(WrongExpectedRevision);
      expect(expectingZero).toMatchObject({ streamId: s, expected: 0, actual: 1 });
      const underAny = await race(1, () => store.append(s, [{ type: 'Any', data: {} }], 'any', new Date()));
      expect(underAny).toMatchObject({ nextRevision: 3 });
      expect((await store.readStream(s)).map((e) => [e.revision, e.type])).toEqual([
        [0, 'First'],
        [1, 'Winner1'],
        [2, 'Winner2'],
        [3, 'Any'],
      ]);
    } finally {
      await holder.end();
    }
  });

  it('lets an append under any that waited for the stream take its transaction id after the holder, so it is not refused as older', async () => {
    const s = `queued-${newId()}`;
    const lock = `select pg_advisory_xact_lock(hashtextextended('es_append:' || $1, 0))`;
    const append = (type: string) => [s, JSON.stringify([{ id: newId(), type, data: {}, metadata: {} }])];
    const holder = new pg.Client({ connectionString: url });
    const queued = new pg.Client({ connectionString: url });
    // asks pg_stat_activity outside any transaction: within one, it answers as first read
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([holder.connect(), queued.connect(), watcher.connect()]);
    const queuedPid = (await queued.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    try {
      // the holder takes the stream's lock before it has a transaction id ...
      await holder.query('begin');
      await holder.query(lock, [s]);
      // ... the queued append starts and waits for the lock ...
      const waiting = queued
        .query(`select next_revision from es_append($1, 'any', $2::jsonb, now())`, append('Queued'))
        .then(
          ({ rows }) => rows,
          (error: unknown) => error,
        );
      await eventually(
        async () =>
          (
            await watcher.query(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [
              queuedPid,
            ])
          ).rows.length === 1,
      );
      // ... and the holder appends (taking its id now, after the waiter started) and commits
      await holder.query(`select * from es_append($1, 'any', $2::jsonb, now())`, append('Holder'));
      await holder.query('commit');
      expect(await waiting).toEqual([{ next_revision: 1 }]);
      expect((await store.readStream(s)).map((e) => [e.revision, e.type])).toEqual([
        [0, 'Holder'],
        [1, 'Queued'],
      ]);
    } finally {
      await Promise.all([holder.end(), queued.end(), watcher.end()]);
    }
  });

  it('leaves its own subscribers asleep on a quiet append until woken, while another process hears of it at once', async () => {
    // both stores' safety polls are far beyond this test's bounds: only a notification (or
    // the explicit wake) can make either subscriber read again, however busy the machine is
    const mineDb = connect(url, 2);
    const mine = new PostgresEventStore(mineDb.pool, { safetyPollMs: 600_000 });
    const other = connect(url, 2);
    const elsewhere = new PostgresEventStore(other.pool, { safetyPollMs: 600_000 });
    const from = await mine.head();
    const s = `quiet-${newId()}`;
    const here: string[] = [];
    const there: string[] = [];
    const of = (seen: string[]) => async (events: RecordedEvent[]) =>
      void seen.push(...events.filter((e) => e.streamId === s).map((e) => e.type));
    // when this store's subscription last read at the head
    let lastRead = performance.now();
    const query = mineDb.pool.query.bind(mineDb.pool) as (...args: unknown[]) => unknown;
    mineDb.pool.query = ((...args: unknown[]) => {
      const first = args[0] as string | { name?: string };
      if (typeof first !== 'string' && first.name?.startsWith('es_read_at_head')) lastRead = performance.now();
      return query(...args);
    }) as typeof mineDb.pool.query;
    const subs = [mine.subscribe({ from, onEvents: of(here) }), elsewhere.subscribe({ from, onEvents: of(there) })];
    try {
      // both listen (a listener's first look is a read of its own), have read up to a marker
      // and gone back to sleep, the marker's late notification included: the next read of
      // each needs a wake
      await Promise.all([mine.listening(), elsewhere.listening()]);
      await elsewhere.append(s, [{ type: 'Marker', data: {} }], 'no_stream', new Date());
      await eventually(() => here.length === 1 && there.length === 1, 30_000);
      await eventually(() => performance.now() - lastRead > 500, 30_000);
      await mine.append(s, [{ type: 'Quiet', data: {} }], 0, new Date(), { quiet: true });
      await eventually(() => there.length === 2, 30_000); // the NOTIFY, after its 10 ms gather
      expect(here).toEqual(['Marker']); // this process's own NOTIFY does not wake it either
      mine.wake();
      await eventually(() => here.length === 2, 30_000);
      expect([here, there]).toEqual([
        ['Marker', 'Quiet'],
        ['Marker', 'Quiet'],
      ]);
    } finally {
      await Promise.all(subs.map((sub) => sub.close()));
      await elsewhere.close();
      await mine.close();
      await mineDb.close();
      await other.close();
    }
  });

  // an append wakes its own subscription at once; a request's quiet appends wait for the one
  // wake() after its last: either way the read that follows carries the NOTIFY
  const appendAndWake = {
    plain: async (store: PostgresEventStore, stream: string) =>
      void (await store.append(stream, [{ type: 'Announced', data: {} }], 0, new Date())),
    quiet: async (store: PostgresEventStore, stream: string) => {
      await store.append(stream, [{ type: 'Announced', data: {} }], 0, new Date(), { quiet: true });
      store.wake();
    },
  };
  it.each([
    ['an append', 'plain'],
    ['a quiet append', 'quiet'],
  ] as const)(
    "announces %s to another process through its own subscription's next read, with no NOTIFY statement of its own",
    async (_what, kind) => {
      const mine = connect(url, 4);
      // safety polls far beyond this test's bounds: only an announcement can wake the other;
      // and a gathering pause no busy machine outlasts, so the read always starts within it
      const here = new PostgresEventStore(mine.pool, { safetyPollMs: 600_000, announceGatherMs: 600_000 });
      const other = connect(url, 2);
      const elsewhere = new PostgresEventStore(other.pool, { safetyPollMs: 600_000 });
      const sent: string[] = [];
      const query = mine.pool.query.bind(mine.pool) as (...args: unknown[]) => unknown;
      mine.pool.query = ((...args: unknown[]) => {
        const first = args[0] as string | { name?: string; text: string };
        sent.push(typeof first === 'string' ? first : (first.name ?? first.text));
        return query(...args);
      }) as typeof mine.pool.query;
      const from = await here.head();
      const s = `announced-${kind}-${newId()}`;
      const seen = { here: [] as string[], there: [] as string[] };
      const of = (into: string[]) => async (events: RecordedEvent[]) =>
        void into.push(...events.filter((e) => e.streamId === s).map((e) => e.type));
      const subs = [
        here.subscribe({ from, onEvents: of(seen.here) }),
        elsewhere.subscribe({ from, onEvents: of(seen.there) }),
      ];
      try {
        // both have read up to a marker and gone back to sleep
        await elsewhere.append(s, [{ type: 'Marker', data: {} }], 'no_stream', new Date());
        await eventually(() => seen.here.length === 1 && seen.there.length === 1, 30_000);
        sent.length = 0;
        await appendAndWake[kind](here, s);
        // the read that announces commits before its own subscriber is handed the events:
        // the other process can have them first
        await eventually(() => seen.there.length === 2 && seen.here.length === 2, 30_000);
        expect(seen).toEqual({ here: ['Marker', 'Announced'], there: ['Marker', 'Announced'] });
        expect(sent.filter((name) => name === 'es_notify')).toEqual([]);
        expect(sent).toContain('es_read_at_head_announcing');
      } finally {
        await Promise.all(subs.map((sub) => sub.close()));
        await Promise.all([here.close(), elsewhere.close()]);
        await Promise.all([mine.close(), other.close()]);
      }
    },
  );

  it('head() is START on an empty store', async () => {
    const empty = connect(await createTestDatabase(), 2);
    const fresh = new PostgresEventStore(empty.pool);
    expect(await fresh.head()).toEqual(START);
    await fresh.close();
    await empty.close();
  });
});

describe('postgres event store: schema versions on a store from before them', () => {
  it('reads the rows written before migration 012 as version 1, and the old append payload still appends at 1', async () => {
    // an empty database (not the migrated template), taken to migration 011 only
    const name = `t_${newId().toLowerCase()}`;
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(inject('pgAdminUrl'));
    target.pathname = `/${name}`;
    const old = connect(target.toString(), 2);
    const before012 = Object.fromEntries(Object.entries(migrations).filter(([migration]) => migration < '012'));
    expect(Object.keys(before012)).toHaveLength(11);
    const upTo011 = await new Migrator({
      db: old.kysely,
      provider: { getMigrations: async () => before012 },
    }).migrateToLatest();
    expect(upTo011.error).toBeUndefined();
    const s = `old-${newId()}`;
    const legacy = (type: string) =>
      JSON.stringify([{ id: newId(), type, data: { kept: type }, metadata: { correlation_id: 'c-old' } }]);
    await old.pool.query(`select * from es_append($1, 'no_stream', $2::jsonb, now())`, [s, legacy('Before')]);

    await migrate(old.kysely);
    const store = new PostgresEventStore(old.pool);
    try {
      // what a caller from before versions sends (no schema_version in the payload) still appends
      await old.pool.query(`select * from es_append($1, '0', $2::jsonb, now())`, [s, legacy('OldPayload')]);
      await store.append(s, [{ type: 'New', data: { kept: 'New' }, schemaVersion: 2 }], 1, new Date());
      expect((await store.readStream(s)).map((e) => [e.type, e.data, e.metadata, e.schemaVersion])).toEqual([
        ['Before', { kept: 'Before' }, { correlation_id: 'c-old' }, 1],
        ['OldPayload', { kept: 'OldPayload' }, { correlation_id: 'c-old' }, 1],
        ['New', { kept: 'New' }, {}, 2],
      ]);
      // the column refuses what the adapter would never write
      await expect(
        old.pool.query(`select * from es_append($1, '2', $2::jsonb, now())`, [
          s,
          JSON.stringify([{ id: newId(), type: 'Zero', data: {}, metadata: {}, schema_version: 0 }]),
        ]),
      ).rejects.toMatchObject({ code: '23514' });
      expect(await store.readStream(s, 3)).toEqual([]);
    } finally {
      await store.close();
      await old.close();
    }
  });
});

describe('postgres event store: appends that queue up behind those in flight leave together', () => {
  let db: Db;
  let store: PostgresEventStore;
  storeForBlock((d, s) => ([db, store] = [d, s]));

  const transactionsOf = async (streams: string[]) =>
    (
      await db.pool.query<{ n: number }>(
        'select count(distinct transaction_id)::int as n from es_events where stream_id = any($1)',
        [streams],
      )
    ).rows[0]!.n;

  it('writes 40 appends made at once in far fewer transactions, each append all of its events at its revisions', async () => {
    const streams = Array.from({ length: 40 }, (_, i) => `batched-${i}-${newId()}`);
    const results = await Promise.all(
      streams.map((s, i) =>
        store.append(
          s,
          [
            { type: 'A', data: { i } },
            { type: 'B', data: { i } },
          ],
          'no_stream',
          new Date(),
        ),
      ),
    );
    expect(results.map((r) => r.nextRevision)).toEqual(streams.map(() => 1));
    // two go alone while nothing is in flight (two slots); the 38 that queued leave as a
    // batch of 32 when the first comes back and one of 6 when the second does
    expect(await transactionsOf(streams)).toBe(4);
    for (const [i, s] of streams.entries())
      expect((await store.readStream(s)).map((e) => [e.revision, e.type, e.data])).toEqual([
        [0, 'A', { i }],
        [1, 'B', { i }],
      ]);
    // every append's answer is the position of its own last event
    const lastOf = await Promise.all(streams.map(async (s) => (await store.readStream(s))[1]!.position));
    expect(results.map((r) => r.position)).toEqual(lastOf);
  });

  const outcomeOf = (append: () => Promise<{ nextRevision: number }>) =>
    append().then(
      (result) => ({ ok: result.nextRevision }),
      (error: unknown) => ({
        failed: error instanceof WrongExpectedRevision ? 'wrong revision' : (error as { code?: string }).code,
      }),
    );
  const fineAppends = (n: number) => {
    const streams = Array.from({ length: n }, (_, i) => `fine-${i}-${newId()}`);
    return {
      streams,
      appends: streams.map((s) => () => store.append(s, [{ type: 'Fine', data: {} }], 'no_stream', new Date())),
    };
  };

  it('refuses, in a batch, only the appends that must be refused: a revision taken, an expected one missing', async () => {
    const taken = `taken-${newId()}`;
    const missing = `missing-${newId()}`;
    await store.append(taken, [{ type: 'First', data: {} }], 'no_stream', new Date());
    const fine = fineAppends(12);
    const outcomes = await Promise.all(
      [
        // the first two go alone (nothing is in flight yet); the rest queue and leave together
        ...fine.appends,
        // two appends of the same revision of one stream: one wins
        () => store.append(taken, [{ type: 'Second', data: { n: 1 } }], 0, new Date()),
        () => store.append(taken, [{ type: 'Second', data: { n: 2 } }], 0, new Date()),
        // a revision the stream does not have: nothing of its two events is written
        () =>
          store.append(
            missing,
            [
              { type: 'X', data: {} },
              { type: 'Y', data: {} },
            ],
            5,
            new Date(),
          ),
      ].map(outcomeOf),
    );
    const [first, second, missed] = outcomes.slice(fine.streams.length);
    expect([first, second].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { failed: 'wrong revision' },
      { ok: 1 },
    ]);
    expect(missed).toEqual({ failed: 'wrong revision' });
    expect(outcomes.slice(0, fine.streams.length)).toEqual(fine.streams.map(() => ({ ok: 0 })));
    expect((await store.readStream(taken)).map((e) => e.revision)).toEqual([0, 1]);
    expect(await store.readStream(missing)).toEqual([]);
    // they did leave together: the ten queued ones share one transaction
    expect(await transactionsOf(fine.streams)).toBe(3);
  });

  /** Does `promise` settle within `ms`? */
  const settlesWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  /**
   * Runs `work` while another writer holds revision 1 of `held` appended and not committed
   * (revision 0 is written first); `commit` commits it.
   */
  const whileHeld = async (held: string, work: (commit: () => Promise<unknown>) => Promise<void>) => {
    await store.append(held, [{ type: 'First', data: {} }], 'no_stream', new Date());
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select * from es_append($1, '0', $2::jsonb, now())`, [
        held,
        JSON.stringify([{ id: newId(), type: 'Holder', data: {}, metadata: {} }]),
      ]);
      await work(() => holder.query('commit'));
    } finally {
      await holder.end();
    }
  };

  it('sends an append that meets an open append of another transaction to its stream again alone: the rest of its batch does not wait', async () => {
    const held = `held-${newId()}`;
    await whileHeld(held, async (commit) => {
      const fine = fineAppends(8);
      const [, , contended, ...queued] = [
        ...fine.appends.slice(0, 2),
        () => store.append(held, [{ type: 'Second', data: {} }], 0, new Date()),
        ...fine.appends.slice(2),
      ].map(outcomeOf);
      // the batch's other appends are written while the holder still holds its append open
      expect(await Promise.all(queued)).toEqual(fine.streams.slice(2).map(() => ({ ok: 0 })));
      expect(await settlesWithin(contended!, 100)).toBe(false); // alone, it waits for the holder as a lone append does
      await commit();
      expect(await contended).toEqual({ failed: 'wrong revision' });
      expect((await store.readStream(held)).map((e) => e.type)).toEqual(['First', 'Holder']);
    });
  });

  it('keeps each stream in order in the global order when two processes batch appends racing on the same streams', async () => {
    const other = connect(url, 10);
    const elsewhere = new PostgresEventStore(other.pool);
    try {
      const from = await store.head();
      const streams = Array.from({ length: 3 }, (_, i) => `raced-${i}-${newId()}`);
      // twelve writers per process, each appending the next revision of a stream as it last
      // read it, again after a refusal: their appends meet in batches and across processes
      const writer = (on: PostgresEventStore, w: number) => async () => {
        for (let n = 0; n < 6; n++) {
          const s = streams[(w + n) % streams.length]!;
          for (;;) {
            const revision = (await on.readStream(s)).length - 1;
            const expected = revision === -1 ? 'no_stream' : revision;
            try {
              await on.append(s, [{ type: 'Step', data: { w, n } }], expected, new Date());
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevision)) throw error;
            }
          }
        }
      };
      await Promise.all(
        [store, elsewhere].flatMap((on, p) => Array.from({ length: 12 }, (_, w) => writer(on, p * 12 + w)())),
      );
      const last = await store.lastCommitted();
      await waitUntilReadable(store, last);
      const read: RecordedEvent[] = [];
      for (let after = from; ;) {
        const page = await store.readAll(after, 500);
        if (page.length === 0) break;
        read.push(...page.filter((e) => streams.includes(e.streamId)));
        after = page[page.length - 1]!.position;
      }
      // 144 appends, every one exactly once, and each stream's revisions in the global order 0, 1, 2, ...
      expect(read).toHaveLength(2 * 12 * 6);
      for (const s of streams) {
        const revisions = read.filter((e) => e.streamId === s).map((e) => e.revision);
        expect(revisions).toEqual(revisions.map((_, i) => i));
      }
    } finally {
      await elsewhere.close();
      await other.close();
    }
  });

  it('writes each group of a batch all or none: a group with a wrong revision writes no part, the rest of the batch is written', async () => {
    const existing = `existing-${newId()}`;
    await store.append(existing, [{ type: 'First', data: {} }], 'no_stream', new Date());
    const named = (label: string) => `${label}-${newId()}`;
    const [good1, good2, older1, older2, taken1] = [named('g1'), named('g2'), named('o1'), named('o2'), named('t1')];
    const group = (parts: [string, 'no_stream' | number][]) => () =>
      store
        .appendMany(
          parts.map(([streamId, expected]) => ({ streamId, events: [{ type: 'Part', data: {} }], expected })),
          new Date(),
        )
        .then((results) => ({ nextRevision: results.length }));
    const fine = fineAppends(10);
    const outcomes = await Promise.all(
      [
        // the first two go alone (nothing is in flight yet); the rest queue and leave together
        ...fine.appends,
        group([
          [good1, 'no_stream'],
          [good2, 'no_stream'],
        ]),
        // the second part's revision is not the stream's last: nothing of the group is written
        group([
          [older1, 'no_stream'],
          [existing, 5],
          [older2, 'no_stream'],
        ]),
        // the second part's revision is taken
        group([
          [taken1, 'no_stream'],
          [existing, 'no_stream'],
        ]),
      ].map(outcomeOf),
    );
    expect(outcomes).toEqual([
      ...fine.streams.map(() => ({ ok: 0 })),
      { ok: 2 },
      { failed: 'wrong revision' },
      { failed: 'wrong revision' },
    ]);
    for (const s of [older1, older2, taken1]) expect(await store.readStream(s)).toEqual([]);
    expect((await store.readStream(existing)).map((e) => e.type)).toEqual(['First']);
    // the good group's parts and the queued single appends share one transaction
    const [g1] = await store.readStream(good1);
    const [g2] = await store.readStream(good2);
    expect(g1!.position.commit).toBe(g2!.position.commit);
    expect(await transactionsOf([...fine.streams.slice(2), good1, good2])).toBe(1);
  });

  it('sends a group that meets an open append to one of its streams again alone, where it waits for it', async () => {
    const held = `held-${newId()}`;
    const free = `free-${newId()}`;
    await whileHeld(held, async (commit) => {
      const fine = fineAppends(8);
      const [, , contended, ...queued] = [
        ...fine.appends.slice(0, 2),
        () =>
          store
            .appendMany(
              [
                { streamId: free, events: [{ type: 'Free', data: {} }], expected: 'no_stream' },
                { streamId: held, events: [{ type: 'Second', data: {} }], expected: 0 },
              ],
              new Date(),
            )
            .then(() => ({ nextRevision: 0 })),
        ...fine.appends.slice(2),
      ].map(outcomeOf);
      expect(await Promise.all(queued)).toEqual(fine.streams.slice(2).map(() => ({ ok: 0 })));
      expect(await settlesWithin(contended!, 100)).toBe(false);
      // nothing of the group is written while it waits
      expect(await store.readStream(free)).toEqual([]);
      await commit();
      expect(await contended).toEqual({ failed: 'wrong revision' });
      expect(await store.readStream(free)).toEqual([]);
      expect((await store.readStream(held)).map((e) => e.type)).toEqual(['First', 'Holder']);
    });
  });

  it('lets one of two processes win whole when their groups name the same streams in opposite orders: the other loses the race, never a deadlock', async () => {
    const other = connect(url, 10);
    const elsewhere = new PostgresEventStore(other.pool);
    try {
      const outcomes: string[] = [];
      // a round meets a deadlock now and then (the next test makes one for certain), which
      // the server breaks after a second
      for (let round = 0; round < 10; round++) {
        const [a, b] = [`opposite-a-${newId()}`, `opposite-b-${newId()}`];
        await store.append(a, [{ type: 'First', data: {} }], 'no_stream', new Date());
        await store.append(b, [{ type: 'First', data: {} }], 'no_stream', new Date());
        const both = (on: PostgresEventStore, first: string, second: string) =>
          on
            .appendMany(
              [
                { streamId: first, events: [{ type: 'Second', data: { first } }], expected: 0 },
                { streamId: second, events: [{ type: 'Second', data: { first } }], expected: 0 },
              ],
              new Date(),
            )
            .then(
              () => 'won',
              (error: unknown) =>
                error instanceof WrongExpectedRevision ? 'lost' : `failed: ${(error as { code?: string }).code}`,
            );
        const [x, y] = await Promise.all([both(store, a, b), both(elsewhere, b, a)]);
        outcomes.push([x, y].sort().join('/'));
        // the winner's two events, the loser's none
        const seconds = [...(await store.readStream(a)), ...(await store.readStream(b))].filter(
          (e) => e.type === 'Second',
        );
        expect(new Set(seconds.map((e) => (e.data as { first: string }).first)).size).toBe(1);
        expect(seconds).toHaveLength(2);
      }
      expect(outcomes).toEqual(outcomes.map(() => 'lost/won'));
    } finally {
      await elsewhere.close();
      await other.close();
    }
  });

  it('lets a group that the server ends in a deadlock with another process lose the race as any group does, not fail', async () => {
    const [a, b] = [`deadlock-a-${newId()}`, `deadlock-b-${newId()}`];
    await store.append(a, [{ type: 'First', data: {} }], 'no_stream', new Date());
    await store.append(b, [{ type: 'First', data: {} }], 'no_stream', new Date());
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const appendOn = (stream: string) =>
        other.query(`select * from es_append($1, '0', $2::jsonb, now())`, [
          stream,
          JSON.stringify([{ id: newId(), type: 'Other', data: {}, metadata: {} }]),
        ]);
      // the other process holds b's revision 1 open
      await other.query('begin');
      await appendOn(b);
      // the group writes a's revision 1, then waits for b's
      const group = outcomeOf(() =>
        store
          .appendMany(
            [
              { streamId: a, events: [{ type: 'Second', data: {} }], expected: 0 },
              { streamId: b, events: [{ type: 'Second', data: {} }], expected: 0 },
            ],
            new Date(),
          )
          .then(() => ({ nextRevision: 0 })),
      );
      await new Promise((r) => setTimeout(r, 200));
      // now the other process waits for a's: each waits for the other, and the server ends
      // the one that has waited longer, the group's attempt, which frees a's revision 1
      await appendOn(a);
      await other.query('commit');
      expect(await group).toEqual({ failed: 'wrong revision' });
      for (const s of [a, b]) expect((await store.readStream(s)).map((e) => e.type)).toEqual(['First', 'Other']);
    } finally {
      await other.end();
    }
  });

  it('sends a batch again append by append only when the server refused it, never after an error that may follow a commit', () => {
    const refused = (code: string) => Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });
    expect(refusedWhole(refused('22P05'))).toBe(true); // a NUL in a text
    expect(refusedWhole(refused('53200'))).toBe(true); // out of memory: rolled back
    expect(refusedWhole(refused('57P01'))).toBe(false); // the session ended by an operator
    expect(refusedWhole(refused('08006'))).toBe(false); // the connection failed
    expect(refusedWhole(refused('XX000'))).toBe(false);
    expect(refusedWhole(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(refusedWhole(new Error('Connection terminated unexpectedly'))).toBe(false);
  });

  it('fails only the append PostgreSQL cannot store when a batch holds one: the others go again alone', async () => {
    const bad = `bad-${newId()}`;
    const fine = fineAppends(12);
    const outcomes = await Promise.all(
      [
        ...fine.appends,
        // a NUL character: jsonb refuses it, and with it the batch's whole document
        () => store.append(bad, [{ type: 'Nul', data: { text: 'a\u0000b' } }], 'no_stream', new Date()),
      ].map(outcomeOf),
    );
    expect(outcomes).toEqual([...fine.streams.map(() => ({ ok: 0 })), { failed: '22P05' }]);
    expect(await store.readStream(bad)).toEqual([]);
    for (const s of fine.streams) expect((await store.readStream(s)).map((e) => e.type)).toEqual(['Fine']);
  });
});

describe("postgres event store: its server's line of history", () => {
  let db: Db;
  let store: PostgresEventStore;
  storeForBlock((d, s) => ((db = d), (store = s)));

  it('names the server by its system identifier, the timeline it writes on, and a WAL position that grows with writes', async () => {
    const before = await store.history();
    const control = await db.pool.query<{ system: string; timeline: number }>(
      `select system_identifier::text as system, (select timeline_id from pg_control_checkpoint()) as timeline
         from pg_control_system()`,
    );
    expect(before.line).toMatchObject({ system: control.rows[0]!.system, timeline: control.rows[0]!.timeline });
    await store.append(`line-${newId()}`, [{ type: 'L', data: {} }], 'no_stream', new Date());
    const after = await store.history();
    expect(after.line?.system).toBe(before.line?.system);
    expect(after.line?.timeline).toBe(before.line?.timeline);
    expect(after.line!.wal).toBeGreaterThan(before.line!.wal);
  });
});
