import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { createTestDatabase } from '../support/database.js';

/** A gate that stays shut until `open()`, counting how often reads asked it. */
const shutGate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate = { asked: 0, shut: true, open: () => ((gate.shut = false), open()) };
  return { gate, wait: () => (gate.asked++, gate.shut ? opened : undefined) };
};

let db: Db;
beforeAll(async () => {
  // one pooled connection: a read that held it while waiting would stop the plain query below
  db = connect(await createTestDatabase(), 1);
});
afterAll(() => db.close());

describe('a Kysely whose reads pass a gate', () => {
  it('holds a read until the gate opens, without holding a pooled connection meanwhile', async () => {
    const { gate, wait } = shutGate();
    const gated = db.gated(wait);
    let answered = false;
    const read = gated
      .selectFrom('rate_limit_hits')
      .select(['bucket', 'hits'])
      .execute()
      .then((rows) => ((answered = true), rows));
    // the only connection is free: a write goes through the plain Kysely while the read waits
    await db.kysely.insertInto('rate_limit_hits').values({ bucket: 'a', window_start: 1, hits: 3 }).execute();
    expect(answered).toBe(false);
    expect(gate.asked).toBe(1);
    gate.open();
    // the read ran after the gate, so it sees the row written meanwhile
    expect(await read).toEqual([{ bucket: 'a', hits: 3 }]);
  });

  it('lets writes through a shut gate, and raw reads and transactions wait for it', async () => {
    const { gate, wait } = shutGate();
    const gated = db.gated(wait);
    await sql`insert into rate_limit_hits values ('b', 1, 1)`.execute(gated);
    await gated.updateTable('rate_limit_hits').set({ hits: 2 }).where('bucket', '=', 'b').execute();
    expect(gate.asked).toBe(0);
    const raw = sql<{ hits: number }>`select hits from rate_limit_hits where bucket = 'b'`.execute(gated);
    const inTransaction = gated
      .transaction()
      .execute(async (tx) => (await sql<{ n: number }>`select 1 as n`.execute(tx)).rows);
    await sql`update rate_limit_hits set hits = 5 where bucket = 'b'`.execute(db.kysely);
    gate.open();
    expect((await raw).rows).toEqual([{ hits: 5 }]);
    expect(await inTransaction).toEqual([{ n: 1 }]);
    expect(gate.asked).toBe(2);
  });
});
