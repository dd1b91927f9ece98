/**
 * Event shapes and the seeded event store shared by the read and rebuild benchmarks.
 */
import type pg from 'pg';
import type { Db } from '../src/db/connect.js';
import { PostgresEventStore } from '../src/eventstore/postgres.js';
import type { NewEvent } from '../src/eventstore/port.js';
import { newId } from '../src/ids.js';
import { type BenchContext, fmt, throughput } from './harness.js';

export const EVENT_TYPE = 'BenchItemAdded';

/** A small event of the size the service writes (about 150 bytes of JSON). */
export const benchEvent = (i: number): NewEvent => ({
  type: EVENT_TYPE,
  data: { sku: `sku-${i % 97}`, quantity: 1 + (i % 5), amountMinor: 100 + (i % 1000), currency: 'EUR' },
  metadata: { correlation_id: `corr-${i}`, supplier_id: `sup-${i % 13}`, mode: 'test' },
});

/** The same event as the columns a plain INSERT writes. */
export const rawEventRow = (streamId: string, revision: number, i: number, at: Date): unknown[] => {
  const e = benchEvent(i);
  return [streamId, revision, newId(), e.type, JSON.stringify(e.data), JSON.stringify(e.metadata), at];
};

/** A table like es_events (same columns, identity, defaults, unique constraints and indexes) for the raw figures. */
export const RAW_EVENTS_DDL = 'create table bench_raw_events (like es_events including all)';
export const RAW_INSERT_COLUMNS = 'stream_id, stream_revision, event_id, type, data, metadata, created_at';

export interface SeededStore {
  db: Db;
  store: PostgresEventStore;
  events: number;
  streams: number;
}

const SEED_BATCH = 1000;
const SEED_CONCURRENCY = 2;

/**
 * `total` (BENCH_EVENTS unless given) events written through the event store in appends of 1,000 events, each
 * append a new stream (so 1,000 streams of 1,000 events for the default size), then
 * vacuumed so that no reader pays for setting hint bits.
 */
export const seededStore = (ctx: BenchContext, total = ctx.settings.events): Promise<SeededStore> =>
  ctx.fixture(`seeded-store-${total}`, async () => {
    const db = await ctx.freshDatabase(`bench_events_${total}`, 8);
    const store = new PostgresEventStore(db.pool);
    const appends = Math.ceil(total / SEED_BATCH);
    ctx.log(`seeding ${fmt(total)} events in ${fmt(appends)} appends of up to ${SEED_BATCH} events`);
    const at = new Date();
    const seed = await throughput({
      warmup: 0,
      operations: appends,
      concurrency: SEED_CONCURRENCY,
      op: async (a) => {
        const size = Math.min(SEED_BATCH, total - a * SEED_BATCH);
        const events = Array.from({ length: size }, (_, k) => benchEvent(a * SEED_BATCH + k));
        await store.append(`seed-${a}`, events, 'no_stream', at);
        return size;
      },
    });
    ctx.log(`seeded in ${seed.seconds.toFixed(1)} s (${fmt(seed.perSecond)} events/s); vacuum analyze`);
    await db.pool.query('vacuum (analyze) es_events');
    await db.pool.query('checkpoint');
    return { db, store, events: total, streams: appends };
  });

/** readAll's page size in the benchmarks. */
export const PAGE = 1000;

/** The store's own query without its read horizon (`transaction_id < xmin`) and without mapping rows. */
const RAW_PAGE = `select transaction_id::text as commit, position, stream_id, stream_revision, event_id, type, data, metadata, created_at
  from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint) order by transaction_id, position limit $3`;

/** Pages through es_events with keyset SELECTs; returns how many events it read. */
export const rawPages = async (pool: pg.Pool, limitPages = Infinity) => {
  let after = { commit: '0', prepare: '0' };
  let events = 0;
  for (let page = 0; page < limitPages; page++) {
    const { rows } = await pool.query<{ commit: string; position: number }>(RAW_PAGE, [
      after.commit,
      after.prepare,
      PAGE,
    ]);
    if (rows.length === 0) break;
    events += rows.length;
    const last = rows[rows.length - 1]!;
    after = { commit: last.commit, prepare: String(last.position) };
  }
  return events;
};
