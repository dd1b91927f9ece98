import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Opening a connection costs both sides a SCRAM exchange (thousands of PBKDF2 rounds): a
 * pooled connection outlives a lull of seconds instead of being opened again after it.
 */
describe('a pooled connection left idle', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 2);
  });
  afterAll(() => db.close());

  it("is still the pool's after 11 s idle, and the next statement runs on it", async () => {
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
    const before = await pid();
    await new Promise((r) => setTimeout(r, 11_000)); // past pg's default idle timeout of 10 s
    expect([db.pool.totalCount, db.pool.idleCount]).toEqual([1, 1]);
    expect(await pid()).toBe(before);
  }, 30_000);
});
