import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { comparePositions, type EventStore, type Position, START } from '../eventstore/port.js';
import { lockProjector, markRebuilt, writeCheckpoint } from './checkpoints.js';
import { applyEvent, Gathering, type Projector } from './projector.js';

export interface RebuildProgress {
  /** Events applied so far. */
  processed: number;
  /**
   * How far through the log, 0 to 1, by position: the port has no count of events (a
   * count of KurrentDB's $all would be a read of all of it), and positions grow with it.
   */
  fraction: number;
}

const BATCH = 2000;

/** A schema name of letters, digits and underscores (projector names have dashes). */
const rebuildSchema = (p: Projector) => `rebuild_${p.name.replace(/[^a-z0-9_]/gi, '_')}`;

/** Creates a projector's tables in `schema` (used for first start and for rebuilds). */
export const createTables = async (db: Kysely<Database>, p: Projector, schema: string) => {
  await sql.raw(p.ddl(schema)).execute(db);
};

/**
 * Inside a rebuild transaction every unqualified table name, also in a handler's raw SQL,
 * resolves to the rebuild schema first; kysely's withSchema covers the query builder.
 */
const useSchema = (db: Kysely<Database>, schema: string) =>
  sql`select set_config('search_path', ${`${schema}, public`}, true)`.execute(db);

const applyBatch = async (db: Kysely<Database>, p: Projector, schema: string, from: Position, store: EventStore) => {
  const events = await store.readAll(from, BATCH);
  if (events.length === 0) return { events: 0, position: from };
  await useSchema(db, schema);
  const scoped = db.withSchema(schema);
  // the same path as live batches: gathered rows are written once per page
  const gathering = new Gathering();
  for (const e of events) await applyEvent(p, scoped, e, gathering);
  await gathering.write(scoped);
  return { events: events.length, position: events[events.length - 1]!.position };
};

/**
 * Rebuilds one projector from position 0 into fresh tables while the live ones keep
 * serving, then swaps them in. The bulk runs in short transactions (a long one would hold
 * back the event store's read horizon); only the final catch-up and the swap run under the
 * projector's lock, so live readers see the old tables until the new ones are complete.
 */
export const rebuildProjector = (
  db: Kysely<Database>,
  store: EventStore,
  p: Projector,
  now: () => Date,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
  /**
   * Asked once this rebuild holds the projector's rebuild lock: a position answered means
   * there is nothing to do (another instance rebuilt it meanwhile), and is returned.
   */
  done: () => Promise<Position | undefined> = async () => undefined,
): Promise<Position> =>
  // one rebuild of a projector at a time, across instances: a second one would drop the
  // first one's half-built schema under it (two instances starting after a version bump)
  db.connection().execute(async (session) => {
    const key = `rebuild:${p.name}`;
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(session);
    try {
      return (await done()) ?? (await rebuildUnlocked(db, store, p, now, onProgress));
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(session);
    }
  });

const rebuildUnlocked = async (
  db: Kysely<Database>,
  store: EventStore,
  p: Projector,
  now: () => Date,
  onProgress: (progress: RebuildProgress) => void,
): Promise<Position> => {
  const schema = rebuildSchema(p);
  const startedAt = now();
  const end = Number((await store.head()).prepare);
  const fraction = (at: Position) => (end <= 0 ? 1 : Math.min(1, Number(at.prepare) / end));
  await sql.raw(`drop schema if exists ${schema} cascade; create schema ${schema};`).execute(db);
  await createTables(db, p, schema);

  let position: Position = START;
  let processed = 0;
  for (;;) {
    const step = await db.transaction().execute((trx) => applyBatch(trx, p, schema, position, store));
    if (step.events === 0) break;
    position = step.position;
    processed += step.events;
    onProgress({ processed, fraction: fraction(position) });
  }

  await db.transaction().execute(async (trx) => {
    await lockProjector(trx, p.name);
    for (;;) {
      const step = await applyBatch(trx, p, schema, position, store);
      if (step.events === 0) break;
      position = step.position;
      processed += step.events;
    }
    for (const table of p.tables) {
      await sql
        .raw(`drop table if exists public.${table} cascade; alter table ${schema}.${table} set schema public;`)
        .execute(trx);
    }
    await writeCheckpoint(trx, p.name, position, p.version, now());
    await markRebuilt(trx, p.name, startedAt);
  });
  await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
  onProgress({ processed, fraction: 1 });
  return position;
};

export const isBehind = (checkpoint: Position, target: Position) => comparePositions(checkpoint, target) < 0;
