import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import type { Rewind } from '../../src/eventstore/rewind.js';
import { newId } from '../../src/ids.js';
import { readCheckpoint } from '../../src/projections/checkpoints.js';
import { projector, type Projector } from '../../src/projections/projector.js';
import { ProjectionRunner } from '../../src/projections/runner.js';
import { createTestDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';

const silent = pino({ level: 'silent' });
const now = () => new Date('2026-02-01T00:00:00.000Z');

/** One row per counter, incremented per Tick; `rebuildable: false` as a process manager's. */
const counters = (name: string, rebuildable: boolean): Projector =>
  projector({
    name,
    version: 1,
    rebuildable,
    tables: [`${name}_counts`],
    ddl: (s) => `create table ${s}.${name}_counts (counter text primary key, n integer not null)`,
    handlers: {
      Tick: async (db, e) => {
        const { counter } = e.data as { counter: string };
        await sql`insert into ${sql.table(`${name}_counts`)} (counter, n) values (${counter}, 1)
          on conflict (counter) do update set n = ${sql.table(`${name}_counts`)}.n + 1`.execute(db);
      },
    },
  });

/**
 * The runner over a store that loses its last event behind its back (as a restore would):
 * the next batch's transaction finds the event it follows gone, writes nothing and reports a
 * rewind; halted and resumed, the read model is rebuilt from the events left, and a process
 * manager goes on from its checkpoint without its effects replayed.
 */
describe('projection runner on a store that went back in time', () => {
  let db: Db;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 10);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  const tick = (n: number) =>
    store.append(`tick-${newId()}`, [{ type: 'Tick', data: { counter: 'a', n } }], 'no_stream', now());
  const count = async (table: string) =>
    (await sql<{ n: number }>`select n from ${sql.table(table)} where counter = 'a'`.execute(db.kysely)).rows[0]?.n ??
    0;

  it('writes no batch past a lost event, then rebuilds the read models and resumes the processes from their checkpoints', async () => {
    const rewinds: Rewind[] = [];
    const runner = new ProjectionRunner(
      db.kysely,
      store,
      [counters('model', true), counters('process', false)],
      now,
      silent,
      30_000,
      true,
    );
    runner.onRewind((r) => rewinds.push(r));
    await runner.start();
    try {
      await tick(1);
      const second = await tick(2);
      expect(await runner.waitFor(second.position, 30_000, 'all')).toBe(true);
      expect([await count('model_counts'), await count('process_counts')]).toEqual([2, 2]);

      await db.pool.query(`delete from es_events where transaction_id = $1::text::xid8 and position = $2`, [
        second.position.commit.toString(),
        second.position.prepare.toString(),
      ]);
      const third = await tick(3);
      await eventually('the rewind reported', () => rewinds.length > 0);
      expect(rewinds[0]!.cause).toBe('witness_lost');
      // nothing of the batch that follows the lost event was written
      expect([await count('model_counts'), await count('process_counts')]).toEqual([2, 2]);
      expect((await readCheckpoint(db.kysely, 'model'))!.position).toEqual(second.position);
      expect((await readCheckpoint(db.kysely, 'process'))!.position).toEqual(second.position);

      await runner.halt();
      await runner.resume(undefined);
      expect(await runner.waitFor(third.position, 30_000, 'all')).toBe(true);
      // the read model is the store's (ticks 1 and 3); the process applied tick 3 once more
      expect([await count('model_counts'), await count('process_counts')]).toEqual([2, 3]);
      expect((await readCheckpoint(db.kysely, 'model'))!.position).toEqual(third.position);
      expect((await readCheckpoint(db.kysely, 'process'))!.position).toEqual(third.position);
      expect(rewinds).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });
});
