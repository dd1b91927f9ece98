import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { projector } from '../../src/projections/projector.js';
import { rebuildProjector } from '../../src/projections/rebuild.js';
import { createTestDatabase } from '../support/database.js';

const now = () => new Date('2026-02-01T00:00:00.000Z');

/** Counts Tick events per counter in `table`. */
const counting = (name: string, table: string) =>
  projector({
    name,
    version: 1,
    tables: [table],
    ddl: (s) => `create table ${s}.${table} (counter text primary key, n integer not null)`,
    handlers: {
      Tick: async (db, e) => {
        await sql`insert into ${sql.table(table)} (counter, n) values (${(e.data as { counter: string }).counter}, 1)
          on conflict (counter) do update set n = ${sql.table(table)}.n + 1`.execute(db);
      },
    },
  });

/** Rebuilds as operators run them: several at once (instances starting after a version bump), any projector's name. */
describe('rebuilds', () => {
  let db: Db;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 20);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });
  const count = async (table: string, counter: string) =>
    (await sql<{ n: number }>`select n from ${sql.table(table)} where counter = ${counter}`.execute(db.kysely)).rows[0]
      ?.n ?? 0;

  it('two rebuilds of one projector at once: the second waits for the first, and every event is in the table', async () => {
    const events = Array.from({ length: 2500 }, (_, n) => ({ type: 'Tick', data: { counter: 'tw', n } }));
    await store.append(`tick-${newId()}`, events, 'no_stream', now());
    // the first rebuild is held after its first page (2,000 events) is in its schema
    let reached!: () => void;
    const atSecondPage = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let pages = 0;
    const held = Object.create(store) as PostgresEventStore;
    held.readAll = async (after, limit) => {
      if (++pages === 2) {
        reached();
        await released;
      }
      return store.readAll(after, limit);
    };
    const first = rebuildProjector(db.kysely, held, counting('twice', 'twice_counts'), now);
    await atSecondPage;
    const second = rebuildProjector(db.kysely, store, counting('twice', 'twice_counts'), now);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the second is at the rebuild lock
    release();
    await Promise.all([first, second]);
    expect(await count('twice_counts', 'tw')).toBe(2500);
  });

  it('rebuilds a projector whose name has a dash', async () => {
    await store.append(`tick-${newId()}`, [{ type: 'Tick', data: { counter: 'dash' } }], 'no_stream', now());
    await rebuildProjector(db.kysely, store, counting('with-dash', 'with_dash_counts'), now);
    expect(await count('with_dash_counts', 'dash')).toBe(1);
  });
});
