import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { migrate, migrations } from '../../src/db/migrations.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Changes number their migrations in ranges of their own, so a database may have run a higher
 * number (035, landed first) before a lower one arrives (028): the start runs the one missing
 * and keeps the others as they are.
 */
describe('migrations landed out of their numbers’ order', () => {
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

  it('runs 028 on a database where 035 already ran, once, and changes nothing else', async () => {
    // the database as the version before 028 landed left it: 035 ran, 028 did not
    await client.query('drop table upgrades');
    await client.query(`delete from kysely_migration where name = '028_upgrades'`);
    const before = (await client.query(`select name from kysely_migration order by name`)).rows.map((r) => r.name);
    expect(before).toContain('035_key_fingerprints');
    expect(before).not.toContain('028_upgrades');
    await client.query(
      `insert into key_fingerprints (fingerprint, item_id, offer_id, supplier_id) values ('f', 'i', 'o', 's')`,
    );

    db = connect(url, 2);
    await migrate(db.kysely);
    const after = (await client.query(`select name from kysely_migration order by name`)).rows.map((r) => r.name);
    expect(after).toEqual(Object.keys(migrations).sort());
    expect((await client.query('select count(*)::int as n from upgrades')).rows[0].n).toBe(0);
    expect((await client.query('select fingerprint from key_fingerprints')).rows).toEqual([{ fingerprint: 'f' }]);
    // a second start finds nothing to do
    await migrate(db.kysely);
    expect((await client.query(`select count(*)::int as n from kysely_migration`)).rows[0].n).toBe(after.length);
  });
});
