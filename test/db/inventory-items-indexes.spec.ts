import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrations.js';
import { listInventoryItems } from '../../src/projections/inventory-reads.js';
import { createTestDatabase } from '../support/database.js';

/** inventory_items as the offers projector's version 3 made it before 050: four b-tree indexes. */
const VERSION_3_TABLE = `
  create table inventory_items (
    id text primary key, offer_id text not null, kind text not null, status text not null,
    file_name text, content_type text, order_id text, batch_id text not null, mask text, tail text,
    size integer, created_at timestamptz not null, updated_at timestamptz not null
  );
  create index on inventory_items (offer_id, id);
  create index on inventory_items (offer_id, status, id);
  create index on inventory_items (offer_id, batch_id, id);`;

const indexes = async (client: pg.Client) =>
  (
    await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename = 'inventory_items' order by indexname`,
    )
  ).rows;

/** The plan of a statement with the sequential scan priced out, as one line. */
const plan = async (client: pg.Client, text: string, params: unknown[]) => {
  await client.query('set enable_seqscan = off');
  const { rows } = await client.query(`explain ${text}`, params);
  await client.query('reset enable_seqscan');
  return rows.map((r) => r['QUERY PLAN'] as string).join('\n');
};

/**
 * An imported key (available) costs its read-model row two b-tree entries, not four: the
 * status filter's index holds only items that left `available`, the batch filter reads a BRIN
 * index. Migration 050 moves a database whose read model the previous version wrote.
 */
describe('inventory_items: fewer index entries per imported key (migration 050)', () => {
  let url: string;
  let db: Db;
  let client: pg.Client;
  beforeAll(async () => {
    url = await createTestDatabase();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await db?.close();
  });

  it('replaces the status and batch indexes of the previous version’s table, and the filters read the same rows', async () => {
    // the database as the previous version left it: its read model with four indexes, 050 not run
    await client.query(`delete from kysely_migration where name = '050_inventory_items_fewer_indexes'`);
    await client.query(VERSION_3_TABLE);
    const row = (id: string, offer: string, status: string, batch: string) =>
      client.query(
        `insert into inventory_items (id, offer_id, kind, status, batch_id, created_at, updated_at)
         values ($1, $2, 'text', $3, $4, now(), now())`,
        [id, offer, status, batch],
      );
    await row('I1', 'O1', 'available', 'B1');
    await row('I2', 'O1', 'held', 'B1');
    await row('I3', 'O1', 'available', 'B2');
    await row('I4', 'O1', 'delivered', 'B2');
    await row('I5', 'O2', 'held', 'B3');

    db = connect(url, 2);
    await migrate(db.kysely);

    expect(await indexes(client)).toEqual([
      {
        indexname: 'inventory_items_batch',
        indexdef:
          "CREATE INDEX inventory_items_batch ON public.inventory_items USING brin (batch_id) WITH (autosummarize='on')",
      },
      {
        indexname: 'inventory_items_moved',
        indexdef:
          "CREATE INDEX inventory_items_moved ON public.inventory_items USING btree (offer_id, status, id) WHERE (status <> 'available'::text)",
      },
      {
        indexname: 'inventory_items_offer_id_id_idx',
        indexdef: 'CREATE INDEX inventory_items_offer_id_id_idx ON public.inventory_items USING btree (offer_id, id)',
      },
      {
        indexname: 'inventory_items_pkey',
        indexdef: 'CREATE UNIQUE INDEX inventory_items_pkey ON public.inventory_items USING btree (id)',
      },
    ]);

    const ids = async (filter: { status?: string; batchId?: string }) =>
      (await listInventoryItems(db.kysely, 'O1', { ...filter, limit: 10 })).map((i) => i.id);
    expect(await ids({})).toEqual(['I1', 'I2', 'I3', 'I4']);
    expect(await ids({ status: 'available' })).toEqual(['I1', 'I3']);
    expect(await ids({ status: 'held' })).toEqual(['I2']);
    expect(await ids({ status: 'delivered' })).toEqual(['I4']);
    expect(await ids({ batchId: 'B2' })).toEqual(['I3', 'I4']);
    expect(await ids({ batchId: 'B3' })).toEqual([]);

    // a status other than available is found by the partial index, a batch by the BRIN index
    expect(
      await plan(client, `select id from inventory_items where offer_id = $1 and status = $2 order by id`, [
        'O1',
        'held',
      ]),
    ).toContain('inventory_items_moved');
    expect(await plan(client, `select id from inventory_items where batch_id = $1`, ['B2'])).toContain(
      'inventory_items_batch',
    );

    // a second start finds nothing to do, and the indexes stay
    await migrate(db.kysely);
    expect((await indexes(client)).map((i) => i.indexname)).toEqual([
      'inventory_items_batch',
      'inventory_items_moved',
      'inventory_items_offer_id_id_idx',
      'inventory_items_pkey',
    ]);
  });

  it('leaves a database without the read model, or with the version before batches, to the projector', async () => {
    const other = await createTestDatabase();
    const c = new pg.Client({ connectionString: other });
    await c.connect();
    try {
      // the template ran 050 with no inventory_items: nothing was made
      expect(await indexes(c)).toEqual([]);
      // version 2's table (no batch column): 050 runs and leaves it for the projector's rebuild
      await c.query(`delete from kysely_migration where name = '050_inventory_items_fewer_indexes'`);
      await c.query(`create table inventory_items (id text primary key, offer_id text not null, status text not null);
        create index on inventory_items (offer_id, status);`);
      const second = connect(other, 1);
      try {
        await migrate(second.kysely);
      } finally {
        await second.close();
      }
      expect((await indexes(c)).map((i) => i.indexname)).toEqual([
        'inventory_items_offer_id_status_idx',
        'inventory_items_pkey',
      ]);
    } finally {
      await c.end();
    }
  });
});
