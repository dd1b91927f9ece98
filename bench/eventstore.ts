/**
 * Event store benchmarks: appends one event at a time, appends in batches, and reading
 * the global order page by page, each beside plain SQL doing the same work.
 */
import { PostgresEventStore } from '../src/eventstore/postgres.js';
import { comparePositions, type Position, START } from '../src/eventstore/port.js';
import { benchEvent, PAGE, RAW_EVENTS_DDL, RAW_INSERT_COLUMNS, rawEventRow, rawPages, seededStore } from './events.js';
import { type Benchmark, type BenchContext, paired, type Result, throughput, timed } from './harness.js';

/**
 * A subscriber following the store while appends run, as the service's feed does, that
 * checks it saw each of the run's streams (named `${prefix}-…`) exactly once, in the global
 * order, once it caught up with the last commit.
 */
const liveSubscriber = async (store: PostgresEventStore, prefix: string) => {
  const seen = new Map<string, number>();
  let last: Position = START;
  let reordered = 0;
  const subscription = store.subscribe({
    from: await store.head(),
    onEvents: async (events) => {
      for (const e of events) {
        if (comparePositions(e.position, last) <= 0) reordered++;
        last = e.position;
        if (e.streamId.startsWith(`${prefix}-`)) seen.set(e.streamId, (seen.get(e.streamId) ?? 0) + 1);
      }
    },
  });
  return {
    check: async (appended: number) => {
      const end = await store.lastCommitted();
      for (const until = Date.now() + 60_000; comparePositions(last, end) < 0 && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 5));
      await subscription.close();
      const repeated = [...seen.values()].filter((count) => count > 1).length;
      const lost = appended - seen.size;
      if (lost !== 0 || repeated !== 0 || reordered !== 0)
        throw new Error(
          `the live subscriber lost ${lost}, repeated ${repeated} and reordered ${reordered} of ${appended} appends`,
        );
    },
  };
};

/** The appends of one measurement, each of a new stream named `${prefix}-${i}`. */
const appendsTo =
  (store: PostgresEventStore, prefix: string) =>
  async (i: number): Promise<void> =>
    void (await store.append(`${prefix}-${i}`, [benchEvent(i)], 'no_stream', new Date()));

const singleAppends = async (
  ctx: BenchContext,
  concurrency: number,
  warmup: number,
  operations: number,
  /** Also the same appends with no subscriber: what the subscriber's reads cost the appends. */
  alone = false,
): Promise<Result[]> => {
  // two connections more than the writers: the subscriber holds one for LISTEN and reads on another
  const db = await ctx.freshDatabase(`bench_append_c${concurrency}`, concurrency + 2);
  const store = new PostgresEventStore(db.pool);
  await db.pool.query(RAW_EVENTS_DDL);
  const n = Math.max(1, Math.round(operations * ctx.settings.scale));
  // every measurement writes new streams, whichever comparison it is part of
  let run = 0;
  const appends = { warmup, operations: n, concurrency };

  // as in the service, a subscriber follows the store while the appends run (it is woken by
  // each append and reads what committed): its reads are part of what an append costs
  const service = async () => {
    const prefix = `s${run++}`;
    const subscriber = await liveSubscriber(store, prefix);
    const measured = await throughput({ ...appends, op: appendsTo(store, prefix) });
    await subscriber.check(warmup + n);
    return measured;
  };
  const unread = () => throughput({ ...appends, op: appendsTo(store, `s${run++}`) });
  const raw = () => {
    const prefix = `r${run++}`;
    return throughput({
      ...appends,
      op: async (i) =>
        void (await db.pool.query(
          `insert into bench_raw_events (${RAW_INSERT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)`,
          rawEventRow(`${prefix}-${i}`, 0, i, new Date()),
        )),
    });
  };
  const work = `append 1 event on a new stream ('no_stream')`;
  const read = `${work} while a subscriber reads (it saw each once, in order), concurrency ${concurrency}`;
  const results = [await paired(ctx, read, 'events', service, raw)];
  if (alone)
    results.push(await paired(ctx, `${work}, no subscriber, concurrency ${concurrency}`, 'events', unread, raw));
  return results;
};

const batchAppends = async (
  ctx: BenchContext,
  batch: number,
  concurrency: number,
  warmup: number,
  operations: number,
): Promise<Result[]> => {
  const db = await ctx.freshDatabase(`bench_batch_c${concurrency}`, concurrency);
  const store = new PostgresEventStore(db.pool);
  await db.pool.query(RAW_EVENTS_DDL);
  const n = Math.max(1, Math.round(operations * ctx.settings.scale));
  const values = Array.from(
    { length: batch },
    (_, r) => `(${Array.from({ length: 7 }, (_, c) => `$${r * 7 + c + 1}`).join(', ')})`,
  ).join(', ');
  // a named statement: prepared once per connection, as a plain client doing this often would
  const insert = `insert into bench_raw_events (${RAW_INSERT_COLUMNS}) values ${values}`;

  const service = (round: number) =>
    throughput({
      warmup,
      operations: n,
      concurrency,
      op: async (i) => {
        const events = Array.from({ length: batch }, (_, k) => benchEvent(i * batch + k));
        await store.append(`s${round}-${i}`, events, 'no_stream', new Date());
        return batch;
      },
    });
  const raw = (round: number) =>
    throughput({
      warmup,
      operations: n,
      concurrency,
      op: async (i) => {
        const at = new Date();
        const params = Array.from({ length: batch }, (_, k) =>
          rawEventRow(`r${round}-${i}`, k, i * batch + k, at),
        ).flat();
        await db.pool.query({ name: `bench_insert_${batch}`, text: insert, values: params });
        return batch;
      },
    });
  return [
    await paired(
      ctx,
      `append ${batch} events per call on a new stream, concurrency ${concurrency}`,
      'events',
      service,
      raw,
    ),
  ];
};

const servicePages = async (store: PostgresEventStore, limitPages = Infinity) => {
  let after: Position = START;
  let events = 0;
  for (let page = 0; page < limitPages; page++) {
    const batch = await store.readAll(after, PAGE);
    if (batch.length === 0) break;
    events += batch.length;
    after = batch[batch.length - 1]!.position;
  }
  return events;
};

const readAll = async (ctx: BenchContext): Promise<Result[]> => {
  const { db, store, events } = await seededStore(ctx);
  const WARMUP_PAGES = 50;
  await servicePages(store, WARMUP_PAGES);
  await rawPages(db.pool, WARMUP_PAGES);
  const check = (n: number) => {
    if (n !== events) throw new Error(`read ${n} events, expected ${events}`);
    return n;
  };
  return [
    await paired(
      ctx,
      `readAll(after, ${PAGE}) through all ${events.toLocaleString('en-US')} events`,
      'events',
      () => timed(async () => check(await servicePages(store))),
      () => timed(async () => check(await rawPages(db.pool))),
    ),
  ];
};

export const eventStoreBenchmarks: Benchmark[] = [
  {
    name: 'eventstore.append',
    description: 'single-event appends, each on a new stream, at concurrency 1 and 16 (at 16 also with no subscriber)',
    run: async (ctx) => [
      ...(await singleAppends(ctx, 1, 200, 2000)),
      ...(await singleAppends(ctx, 16, 500, 4000, true)),
    ],
  },
  {
    name: 'eventstore.batch',
    description: 'appends of 100 events, each on a new stream',
    run: async (ctx) => [
      ...(await batchAppends(ctx, 100, 1, 20, 300)),
      ...(await batchAppends(ctx, 100, 16, 50, 1000)),
    ],
  },
  {
    name: 'eventstore.readAll',
    description: 'paging through the whole seeded store with readAll(after, 1000)',
    run: readAll,
  },
];
