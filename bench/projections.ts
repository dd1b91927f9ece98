/**
 * Projection rebuild over the seeded event store: rebuildProjector with a per-stream
 * projector whose handler gathers its row (a page is folded per stream into one upsert),
 * beside a plain loop that reads with keyset SELECTs and writes the same rows.
 */
import { sql } from 'kysely';
import type pg from 'pg';
import type { RecordedEvent } from '../src/eventstore/port.js';
import { type Gathered, type Gatherer, projector } from '../src/projections/projector.js';
import { rebuildProjector } from '../src/projections/rebuild.js';
import { EVENT_TYPE, rawPages, seededStore } from './events.js';
import { type Benchmark, type BenchContext, paired, type Result, timed } from './harness.js';

const headsDdl = (s: string) => `
  create table ${s}.bench_stream_heads (
    stream_id text primary key,
    events bigint not null,
    last_revision bigint not null,
    amount_total bigint not null,
    last_event_at timestamptz not null
  );`;

interface HeadRow {
  streamId: string;
  revision: number;
  amount: number;
  at: Date;
}

/** A page's events folded per stream into one grouped upsert, as the raw loop does. */
const headRows: Gatherer<HeadRow> = {
  write: (db, rows) =>
    sql`insert into bench_stream_heads (stream_id, events, last_revision, amount_total, last_event_at)
      select stream_id, count(*), max(revision), sum(amount), max(at)
        from unnest(${rows.map((r) => r.streamId)}::text[], ${rows.map((r) => r.revision)}::bigint[],
                    ${rows.map((r) => r.amount)}::bigint[], ${rows.map((r) => r.at)}::timestamptz[])
          as e(stream_id, revision, amount, at)
       group by stream_id
      on conflict (stream_id) do update set events = bench_stream_heads.events + excluded.events,
        last_revision = excluded.last_revision, amount_total = bench_stream_heads.amount_total + excluded.amount_total,
        last_event_at = excluded.last_event_at`.execute(db),
};

/** One row per stream: how many events, the last revision, a running total; a page's events in one upsert. */
const streamHeads = projector({
  name: 'bench_stream_heads',
  version: 1,
  tables: ['bench_stream_heads'],
  ddl: headsDdl,
  handlers: {
    [EVENT_TYPE]: (_db, e: RecordedEvent<{ amountMinor: number }>): Gathered<HeadRow> => ({
      gather: headRows,
      row: { streamId: e.streamId, revision: e.revision, amount: e.data.amountMinor, at: e.createdAt },
    }),
  },
});

const PAGE = 2000; // rebuildProjector's batch

type PageRow = {
  commit: string;
  position: number;
  stream_id: string;
  stream_revision: number;
  type: string;
  data: { amountMinor: number };
  created_at: Date;
};

/**
 * The same work in plain SQL on one connection, one transaction per page: a keyset SELECT
 * of 2,000 events, then the projector's rows written either with one upsert per event
 * (the statement the projector sends, without the layers above it) or with one upsert per
 * page that folds the page's events per stream first (what plain SQL would do). Both
 * leave the same rows as the projector.
 */
const rawRebuild = async (client: pg.PoolClient, schema: string, writes: 'per-event' | 'per-page') => {
  await client.query(`drop schema if exists ${schema} cascade; create schema ${schema};${headsDdl(schema)}`);
  const upsert = `insert into ${schema}.bench_stream_heads (stream_id, events, last_revision, amount_total, last_event_at)
    values ($1, 1, $2, $3, $4)
    on conflict (stream_id) do update set events = bench_stream_heads.events + 1, last_revision = excluded.last_revision,
      amount_total = bench_stream_heads.amount_total + excluded.amount_total, last_event_at = excluded.last_event_at`;
  const upsertPage = `insert into ${schema}.bench_stream_heads (stream_id, events, last_revision, amount_total, last_event_at)
    select stream_id, count(*), max(revision), sum(amount), max(at)
      from unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[]) as e(stream_id, revision, amount, at)
     group by stream_id
    on conflict (stream_id) do update set events = bench_stream_heads.events + excluded.events, last_revision = excluded.last_revision,
      amount_total = bench_stream_heads.amount_total + excluded.amount_total, last_event_at = excluded.last_event_at`;
  let after = { commit: '0', prepare: '0' };
  let events = 0;
  for (;;) {
    await client.query('begin');
    const { rows } = await client.query<PageRow>(
      `select transaction_id::text as commit, position, stream_id, stream_revision, type, data, created_at
         from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint) order by transaction_id, position limit $3`,
      [after.commit, after.prepare, PAGE],
    );
    const handled = rows.filter((r) => r.type === EVENT_TYPE);
    if (writes === 'per-event') {
      for (const r of handled)
        await client.query(upsert, [r.stream_id, r.stream_revision, r.data.amountMinor, r.created_at]);
    } else if (handled.length > 0) {
      await client.query(upsertPage, [
        handled.map((r) => r.stream_id),
        handled.map((r) => r.stream_revision),
        handled.map((r) => r.data.amountMinor),
        handled.map((r) => r.created_at),
      ]);
    }
    await client.query('commit');
    if (rows.length === 0) break;
    events += rows.length;
    const last = rows[rows.length - 1]!;
    after = { commit: last.commit, prepare: String(last.position) };
  }
  return events;
};

const verify = async (pool: pg.Pool, schema: string, expected: { events: number; streams: number }) => {
  const { rows } = await pool.query<{ streams: number; events: number }>(
    `select count(*)::int as streams, coalesce(sum(events), 0)::int as events from ${schema}.bench_stream_heads`,
  );
  const got = rows[0]!;
  if (got.events !== expected.events || got.streams !== expected.streams) {
    throw new Error(
      `${schema}.bench_stream_heads holds ${got.events} events in ${got.streams} streams, expected ${expected.events} in ${expected.streams}`,
    );
  }
};

/** Store size of the per-event comparison: a full pass of plain per-event upserts over 1,000,000 events would double the run. */
const PER_EVENT_EVENTS = 50_000;

const compareRebuilds = async (
  ctx: BenchContext,
  events: number,
  writes: 'per-event' | 'per-page',
  diagnostic: boolean,
): Promise<Result> => {
  const seeded = await seededStore(ctx, events);
  const { db, store } = seeded;
  const kysely = db.kysely;
  const now = () => new Date();
  // Warm-up: one untimed keyset pass over the whole store, so that both passes below start
  // with the same cache state whether or not the readAll benchmark ran before.
  await rawPages(db.pool);
  const label =
    writes === 'per-page'
      ? `rebuildProjector over ${events.toLocaleString('en-US')} events; raw = one grouped upsert per page`
      : `rebuildProjector over ${events.toLocaleString('en-US')} events; raw = one upsert per event`;
  let round = 0;
  return paired(
    ctx,
    label,
    'events',
    () =>
      timed(async () => {
        let processed = 0;
        await rebuildProjector(kysely, store, streamHeads, now, (p) => (processed = p.processed));
        await verify(db.pool, 'public', seeded);
        return processed;
      }),
    () =>
      timed(async () => {
        const schema = `bench_raw_rebuild_${round++}`;
        const client = await db.pool.connect();
        try {
          const read = await rawRebuild(client, schema, writes);
          await verify(db.pool, schema, seeded);
          return read;
        } finally {
          client.release();
        }
      }),
    // each round is a full pass over the store: one round keeps the run within minutes
    { rounds: 1, diagnostic },
  );
};

const rebuild = async (ctx: BenchContext): Promise<Result[]> => [
  await compareRebuilds(ctx, ctx.settings.events, 'per-page', false),
  await compareRebuilds(ctx, Math.min(PER_EVENT_EVENTS, ctx.settings.events), 'per-event', true),
];

export const projectionBenchmarks: Benchmark[] = [
  {
    name: 'projections.rebuild',
    description: 'rebuildProjector over the seeded store against plain keyset-read loops that write the same rows',
    run: rebuild,
  },
];
