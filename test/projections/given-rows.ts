import type pg from 'pg';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { PgClient } from '../../src/db/pg-client.js';
import type { Position, RecordedEvent } from '../../src/eventstore/port.js';
import { applyShares } from '../../src/projections/apply-shares.js';
import type { Projector } from '../../src/projections/projector.js';
import { createTables } from '../../src/projections/rebuild.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Given events, then rows: a projector's (or a process manager's) tables after a list of
 * recorded events, applied through `applyShares` as the runner applies a batch, on a fresh
 * database. Everything about the events is deterministic, so every row is an exact value.
 */

/** A domain event as a command appends it: its stream and its type and data. */
export interface Given {
  stream: string;
  type: string;
  data: unknown;
}

/** Builds a `Given` checked against an event union: `on<OfferEvent>('offer-o1', { type: 'OfferCreated', ... })`. */
export const on = <E extends { type: string; data: unknown }>(stream: string, event: E): Given => ({
  stream,
  type: event.type,
  data: event.data,
});

/** When the store wrote event 1; event n is written n - 1 seconds later. */
export const WRITTEN_FROM = Date.parse('2026-03-01T12:00:00.000Z');

/** Event n's place in the log: a commit apart from its prepare, so a test sees which one a row took. */
export const positionOf = (n: number): Position => ({ commit: BigInt(1000 + n), prepare: BigInt(n) });
export const idOf = (n: number) => `evt-${String(n).padStart(4, '0')}`;
export const writtenAt = (n: number) => new Date(WRITTEN_FROM + (n - 1) * 1000);

/**
 * The events as the store records them, numbered from `first`: event n has id `idOf(n)`,
 * position `positionOf(n)`, createdAt `writtenAt(n)`, and its stream's next revision
 * (counted from 0 within this list).
 */
export const recorded = (given: Given[], first = 1): RecordedEvent[] => {
  const revisions = new Map<string, number>();
  return given.map((g, i) => {
    const n = first + i;
    const revision = revisions.get(g.stream) ?? 0;
    revisions.set(g.stream, revision + 1);
    return {
      id: idOf(n),
      streamId: g.stream,
      revision,
      position: positionOf(n),
      type: g.type,
      data: g.data,
      metadata: {},
      schemaVersion: 1,
      createdAt: writtenAt(n),
    };
  });
};

/** When a batch's checkpoints are written. */
export const APPLIED_AT = new Date('2026-03-02T00:00:00.000Z');

export type Row = Record<string, unknown>;

/**
 * Deliberate normalisation: timestamps become ISO strings; everything else stays as the
 * driver gives it (bigint columns as numbers, see src/db/connect.ts; numeric as text;
 * jsonb parsed; arrays as arrays; absent values as null).
 */
const normalise = (row: Row): Row =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

/**
 * One database per test file, made once; each `rowsAfter` starts from what a fresh migrated
 * database holds: every migrated table emptied (identities restarted) and the projectors' tables
 * created anew in a schema of their own, first on the search path. A database copied from the
 * template per scenario cost most of these files' time.
 */
interface FileDatabase {
  file: string | undefined;
  url: string;
  admin: pg.Client;
  tables: string;
}

/**
 * The database of the test file running now. Kept by file, not made by a hook: test files
 * share this module within a worker, so its top level runs once for all of them.
 */
let current: Promise<FileDatabase> | undefined;
let scenarios = 0;

const openFileDatabase = async (file: string | undefined): Promise<FileDatabase> => {
  const url = await createTestDatabase();
  const admin = new PgClient({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ name: string }>(
    `select 'public.' || quote_ident(tablename) as name from pg_tables
      where schemaname = 'public' and tablename not like 'kysely_migration%'`,
  );
  return { file, url, admin, tables: rows.map((r) => r.name).join(', ') };
};

const fileDatabase = async (): Promise<FileDatabase> => {
  const file = expect.getState().testPath;
  const previous = current === undefined ? undefined : await current;
  if (previous !== undefined && previous.file === file) return previous;
  await previous?.admin.end();
  const opened = openFileDatabase(file);
  current = opened;
  return opened;
};

/** `url` with every unqualified table name resolving to `schema` first, then public. */
const withSearchPath = (url: string, schema: string) => {
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema},public`);
  return scoped.toString();
};

/**
 * Applies `batches` in order, each as ONE batch of `applyShares` (each projector's share is
 * the events it has a handler for, as the runner shares them), on a database as fresh as a
 * newly migrated one, with the projectors' tables created as at first start. Answers the rows
 * of each table in `then` (table → its ORDER BY), normalised; `projection_checkpoints` may be
 * asked for too.
 */
export const rowsAfter = async (
  projectors: Projector | Projector[],
  batches: RecordedEvent[][],
  then: Record<string, string>,
): Promise<Record<string, Row[]>> => {
  const list = Array.isArray(projectors) ? projectors : [projectors];
  const { url, admin, tables } = await fileDatabase();
  scenarios += 1;
  const schema = `given_${scenarios}`;
  await admin.query(`truncate ${tables} restart identity cascade; create schema ${schema}`);
  const db = connect(withSearchPath(url, schema), 2);
  try {
    for (const p of list) await createTables(db.kysely, p, schema);
    for (const events of batches) {
      const shares = list.map((projector) => ({
        projector,
        events: events.filter((e) => projector.handlers[e.type] !== undefined),
      }));
      await applyShares(db.kysely, shares, events.at(-1)!.position, APPLIED_AT);
    }
    const rows: Record<string, Row[]> = {};
    for (const [table, orderBy] of Object.entries(then)) {
      const result = await sql<Row>`select * from ${sql.table(table)} order by ${sql.raw(orderBy)}`.execute(db.kysely);
      rows[table] = result.rows.map(normalise);
    }
    return rows;
  } finally {
    await db.close();
    await admin.query(`drop schema ${schema} cascade`);
  }
};

/** The same events applied all in one batch, and one event per batch. */
export const oneBatchAndOneByOne = async (
  projector: Projector,
  events: RecordedEvent[],
  then: Record<string, string>,
) => ({
  together: await rowsAfter(projector, [events], then),
  oneByOne: await rowsAfter(
    projector,
    events.map((e) => [e]),
    then,
  ),
});

/** Where to split a list of events in two batches: a third, half and two thirds in. */
const thirds = (n: number) =>
  [...new Set([Math.floor(n / 3), Math.floor(n / 2), Math.floor((2 * n) / 3)])].filter((k) => k > 0 && k < n);

/**
 * The rows after `events` applied in one batch, checked to be the same one event per batch
 * and in two batches split at a third, half and two thirds: a projector that folds a batch
 * must leave what its events one at a time would.
 */
export const rowsWhateverTheBatches = async (
  projector: Projector,
  events: RecordedEvent[],
  then: Record<string, string>,
) => {
  const { together, oneByOne } = await oneBatchAndOneByOne(projector, events, then);
  expect(oneByOne).toEqual(together);
  for (const k of thirds(events.length))
    expect(await rowsAfter(projector, [events.slice(0, k), events.slice(k)], then)).toEqual(together);
  return together;
};
