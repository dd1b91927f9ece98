import type pg from 'pg';
import { newId } from '../ids.js';
import {
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  schemaVersionOf,
  type StreamAppend,
  WrongExpectedRevision,
} from './port.js';

/**
 * The two ways an append reaches `es_events`. An append naming its revision (`no_stream`
 * or a number) is one INSERT, as a plain client would write: the unique (stream_id,
 * stream_revision) index refuses a revision already taken, and the row of the expected
 * revision must exist and come from an older transaction (so the global order keeps the
 * stream's order). `any` and `stream_exists` need the stream's revision first: the
 * `es_append` function reads it under a per-stream lock.
 */

const MAX_RACE_RETRIES = 5;
/**
 * `any` and `stream_exists` cannot be refused for a revision, so they retry every race they
 * lose; they queue behind each other on the stream's lock, but appends naming a revision do
 * not, and on a stream both write busily several losses in a row happen.
 */
const MAX_UNNAMED_RETRIES = 25;
export const UNIQUE_VIOLATION = '23505';
const DEADLOCK = '40P01';
/** The unique (stream_id, stream_revision) constraint: two appends met on one revision. */
export const STREAM_REVISION_KEY = 'es_events_stream_id_stream_revision_key';

const wrongRevision = (streamId: string, expected: ExpectedRevision, actual: number) =>
  new WrongExpectedRevision(streamId, expected, actual === -1 ? 'no_stream' : actual);

// the expected revision's event must exist (or none, for no_stream) and come from an older
// transaction; the events as columns (one array parameter each), in the order they are written
const AT_REVISION_MANY = `insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at, schema_version)
  select $1, $2::bigint + e.ord, e.id, e.type, e.data, e.metadata, $3, e.schema_version
  from unnest($4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8::smallint[])
    with ordinality as e(id, type, data, metadata, schema_version, ord)
  where $2::bigint = -1 or exists (select 1 from es_events p
    where p.stream_id = $1 and p.stream_revision = $2::bigint and p.transaction_id <= pg_current_xact_id())
  order by e.ord
  returning transaction_id::text as commit, position`;

const AT_REVISION_ONE = `insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at, schema_version)
  select $1, $2::bigint + 1, $4, $5, $6::jsonb, $7::jsonb, $3, $8::smallint
  where $2::bigint = -1 or exists (select 1 from es_events p
    where p.stream_id = $1 and p.stream_revision = $2::bigint and p.transaction_id <= pg_current_xact_id())
  returning transaction_id::text as commit, position`;

const BY_FUNCTION =
  'select next_revision, commit_position::text, prepare_position from es_append($1, $2, $3::jsonb, $4)';

/**
 * An append naming its revision, answered as the single INSERT answers: what it wrote, or
 * undefined when it wrote nothing (the expected revision is not the stream's last for its
 * transaction); a revision already taken fails as a unique violation.
 */
export type AtRevision = (
  streamId: string,
  events: NewEvent[],
  revision: number,
  at: Date,
) => Promise<AppendResult | undefined>;

/** One stream's part of a pending append: its events go after `revision` (-1: a new stream). */
export interface AppendPart {
  streamId: string;
  events: NewEvent[];
  revision: number;
}

/**
 * What a group of appends came to: every part written (results in the parts' order), or
 * nothing written because a part's expected revision is not its stream's last for this
 * transaction (`older`: the index of that part).
 */
export type GroupOutcome = { written: AppendResult[] } | { older: number };

/** Several parts written all or none, answered as `GroupOutcome`; a revision taken fails with the part's index. */
export type Together = (parts: AppendPart[], at: Date) => Promise<GroupOutcome>;

export const appendEvents = async (
  pool: pg.Pool,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
  at: Date,
  /** How an append naming its revision is sent: alone, or with others (postgres-append-batch.ts). */
  atRevision: AtRevision,
): Promise<AppendResult> => {
  const revision = expected === 'no_stream' ? -1 : expected;
  for (let attempt = 0; ; attempt++) {
    try {
      if (typeof revision === 'number' && events.length > 0) {
        const written = await atRevision(streamId, events, revision, at);
        if (written) return written;
        // nothing written: the expected revision is not the stream's last, or it is but an
        // older transaction than this one wrote it (a fresh transaction may append after it)
        const actual = await revisionOf(pool, streamId);
        if (actual !== revision || attempt >= MAX_RACE_RETRIES) throw wrongRevision(streamId, expected, actual);
        continue;
      }
      return await byFunction(pool, streamId, events, expected, at);
    } catch (error) {
      const { code, detail, constraint } = error as { code?: string; detail?: string; constraint?: string };
      if (code === 'SV409') throw wrongRevision(streamId, expected, Number(detail));
      if (code === UNIQUE_VIOLATION && constraint === STREAM_REVISION_KEY) {
        // a concurrent append took the revision this one meant to write
        if (typeof revision === 'number') throw wrongRevision(streamId, expected, await revisionOf(pool, streamId));
        if (attempt < MAX_UNNAMED_RETRIES) continue;
      }
      if (code === '40001' && attempt < MAX_UNNAMED_RETRIES) continue;
      throw error;
    }
  }
};

/**
 * An append to several streams, all or none (`EventStore.appendMany`): sent as one group,
 * answered as `appendEvents` answers each of its parts (a part written over by an older
 * transaction's event is tried again; a wrong revision fails the whole with its stream's).
 */
export const appendGroup = async (
  pool: pg.Pool,
  appends: StreamAppend[],
  at: Date,
  together: Together,
): Promise<AppendResult[]> => {
  const streams = new Set(appends.map((a) => a.streamId));
  if (streams.size !== appends.length) throw new Error('an append to several streams names each stream once');
  const empty = appends.find((a) => a.events.length === 0);
  if (empty) throw new Error(`an append to several streams has events for each: none for ${empty.streamId}`);
  const parts = appends.map((a) => ({
    streamId: a.streamId,
    events: a.events,
    revision: a.expected === 'no_stream' ? -1 : a.expected,
  }));
  for (let attempt = 0; ; attempt++) {
    let outcome: Awaited<ReturnType<Together>>;
    try {
      outcome = await together(parts, at);
    } catch (error) {
      const { code, constraint, part } = error as { code?: string; constraint?: string; part?: number };
      const taken = appends[part ?? 0];
      if (code === UNIQUE_VIOLATION && constraint === STREAM_REVISION_KEY && taken)
        throw wrongRevision(taken.streamId, taken.expected, await revisionOf(pool, taken.streamId));
      // two groups writing the same streams in opposite orders (two processes) wait for each
      // other; the server ends one: sent again, it finds the other's rows and answers as a
      // group that lost the race does
      if (code === DEADLOCK && attempt < MAX_RACE_RETRIES) continue;
      throw error;
    }
    if ('written' in outcome) return outcome.written;
    const older = appends[outcome.older]!;
    const actual = await revisionOf(pool, older.streamId);
    if (actual !== parts[outcome.older]!.revision || attempt >= MAX_RACE_RETRIES)
      throw wrongRevision(older.streamId, older.expected, actual);
  }
};

/** One append naming its revision as one INSERT. */
export const singleAtRevision = async (
  pool: pg.Pool,
  streamId: string,
  events: NewEvent[],
  revision: number,
  at: Date,
): Promise<AppendResult | undefined> => {
  const { rows } = await pool.query<{ commit: string; position: string }>(
    atRevisionStatement(streamId, events, revision, at),
  );
  const last = rows[rows.length - 1];
  if (!last) return undefined;
  return {
    nextRevision: revision + events.length,
    position: { commit: BigInt(last.commit), prepare: BigInt(last.position) },
  };
};

/**
 * Named statements: each connection parses and plans them once (planning the INSERT with
 * its check cost as much as running it). One event, the usual append, goes as plain
 * parameters; several go as one array per column.
 */
const atRevisionStatement = (streamId: string, events: NewEvent[], revision: number, at: Date): pg.QueryConfig => {
  const [only] = events;
  if (events.length === 1 && only)
    return {
      name: 'es_append_one',
      text: AT_REVISION_ONE,
      values: [
        streamId,
        revision,
        at,
        only.id ?? newId(),
        only.type,
        JSON.stringify(only.data ?? {}),
        JSON.stringify(only.metadata ?? {}),
        schemaVersionOf(only),
      ],
    };
  return {
    name: 'es_append_many',
    text: AT_REVISION_MANY,
    values: [
      streamId,
      revision,
      at,
      events.map((e) => e.id ?? newId()),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data ?? {})),
      events.map((e) => JSON.stringify(e.metadata ?? {})),
      events.map((e) => schemaVersionOf(e)),
    ],
  };
};

/** An event as the append functions read it from their JSON document (es_append, es_append_batch). */
export const eventDocument = (e: NewEvent) => ({
  id: e.id ?? newId(),
  type: e.type,
  data: e.data ?? {},
  metadata: e.metadata ?? {},
  schema_version: schemaVersionOf(e),
});

const byFunction = async (
  pool: pg.Pool,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
  at: Date,
): Promise<AppendResult> => {
  const payload = JSON.stringify(events.map(eventDocument));
  const { rows } = await pool.query<{ next_revision: string; commit_position: string; prepare_position: string }>({
    name: 'es_append',
    text: BY_FUNCTION,
    values: [streamId, String(expected), payload, at],
  });
  const row = rows[0]!;
  return {
    nextRevision: Number(row.next_revision),
    position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
  };
};

/** The stream's current revision (-1: no stream), after an append was refused. */
const revisionOf = async (pool: pg.Pool, streamId: string): Promise<number> => {
  const { rows } = await pool.query<{ revision: string | null }>(
    'select max(stream_revision) as revision from es_events where stream_id = $1',
    [streamId],
  );
  const revision = rows[0]?.revision;
  return revision === null || revision === undefined ? -1 : Number(revision);
};
