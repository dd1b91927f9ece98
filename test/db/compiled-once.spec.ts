import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled-once.js';
import { connect, type Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import type { Kysely } from 'kysely';
import { createTestDatabase } from '../support/database.js';

describe('compiledOnce', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 2);
    await sql`create table compiled_once_probe (id text primary key, owner text not null, n int not null)`.execute(
      db.kysely,
    );
    await sql`insert into compiled_once_probe values ('a', 'x', 1), ('b', 'x', 2), ('c', 'y', 3)`.execute(db.kysely);
  });
  afterAll(() => db.close());

  it('runs the query compiled on its first call with each later call’s own parameters', async () => {
    const probe = compiledOnce((k: Kysely<Database>, owner: string, above: number) =>
      k
        .selectFrom(sql<{ id: string; owner: string; n: number }>`compiled_once_probe`.as('p'))
        .select(['p.id', 'p.n'])
        .where('p.owner', '=', owner)
        .where('p.n', '>', above)
        .orderBy('p.id'),
    );
    expect(await probe(db.kysely, 'x', 0)).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
    expect(await probe(db.kysely, 'x', 1)).toEqual([{ id: 'b', n: 2 }]);
    expect(await probe(db.kysely, 'y', 0)).toEqual([{ id: 'c', n: 3 }]);
    expect(await probe(db.kysely, 'z', 0)).toEqual([]);
  });

  it('refuses a query that uses a parameter twice or not as a plain value', async () => {
    const twice = compiledOnce((k: Kysely<Database>, owner: string) =>
      k
        .selectFrom(sql<{ id: string; owner: string }>`compiled_once_probe`.as('p'))
        .select('p.id')
        .where('p.owner', '=', owner)
        .where('p.id', '=', owner),
    );
    await expect(twice(db.kysely, 'x')).rejects.toThrow('each parameter must appear exactly once');
    const asText = compiledOnce((k: Kysely<Database>, owner: string) =>
      k
        .selectFrom(sql<{ id: string; owner: string }>`compiled_once_probe`.as('p'))
        .select('p.id')
        .where('p.owner', '=', `${owner}!`),
    );
    await expect(asText(db.kysely, 'x')).rejects.toThrow('each parameter must appear exactly once');
  });

  it('sends its text as a prepared statement, parsed once per connection', async () => {
    const one = connect(await createTestDatabase(), 1);
    try {
      await sql`create table prepared_probe (id text primary key, n int not null)`.execute(one.kysely);
      await sql`insert into prepared_probe values ('a', 1), ('b', 2)`.execute(one.kysely);
      const probe = compiledOnce((k: Kysely<Database>, id: string) =>
        k
          .selectFrom(sql<{ id: string; n: number }>`prepared_probe`.as('p'))
          .select(['p.id', 'p.n'])
          .where('p.id', '=', id),
      );
      expect(await probe(one.kysely, 'a')).toEqual([{ id: 'a', n: 1 }]);
      expect(await probe(one.kysely, 'b')).toEqual([{ id: 'b', n: 2 }]);
      // the pool's one connection holds it prepared, under one name
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        one.kysely,
      );
      expect(rows.map((r) => r.statement)).toEqual([
        'select "p"."id", "p"."n" from prepared_probe as "p" where "p"."id" = $1',
      ]);
    } finally {
      await one.close();
    }
  });

  /**
   * A read with `*` of a new table, prepared on a pool of one connection by a first call,
   * then the table widened as a newer version's migration does while this one serves.
   */
  const widenedUnderPrepared = async (one: Db, table: string) => {
    await sql`create table ${sql.table(table)} (id text primary key, n int not null)`.execute(one.kysely);
    await sql`insert into ${sql.table(table)} values ('a', 1)`.execute(one.kysely);
    const probe = compiledOnce((k: Kysely<Database>, id: string) =>
      k
        .selectFrom(sql<{ id: string; n: number }>`${sql.table(table)}`.as('p'))
        .selectAll()
        .where('p.id', '=', id),
    );
    expect(await probe(one.kysely, 'a')).toEqual([{ id: 'a', n: 1 }]);
    await sql`alter table ${sql.table(table)} add column note text not null default 'new'`.execute(one.kysely);
    return probe;
  };

  it('still answers after a column is added to a table it reads with *', async () => {
    const one = connect(await createTestDatabase(), 1);
    try {
      const probe = await widenedUnderPrepared(one, 'widened_probe');
      expect(await probe(one.kysely, 'a')).toEqual([{ id: 'a', n: 1, note: 'new' }]);
      expect(await probe(one.kysely, 'a')).toEqual([{ id: 'a', n: 1, note: 'new' }]);
    } finally {
      await one.close();
    }
  });

  it('within a transaction, fails it with the widening error, and prepares anew for the next call', async () => {
    const one = connect(await createTestDatabase(), 1);
    try {
      const probe = await widenedUnderPrepared(one, 'widened_in_tx');
      await expect(one.kysely.transaction().execute((trx) => probe(trx, 'a'))).rejects.toThrow(
        'cached plan must not change result type',
      );
      expect(await one.kysely.transaction().execute((trx) => probe(trx, 'a'))).toEqual([
        { id: 'a', n: 1, note: 'new' },
      ]);
    } finally {
      await one.close();
    }
  });
});
