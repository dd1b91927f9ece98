import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { createTestDatabase } from '../support/database.js';

/**
 * A session the server ends (pg_terminate_backend, a shutdown) answers its statement with a
 * FATAL error before its socket closes. The connection must not go back to the pool in that
 * moment, or the next statement is handed a dead session and fails too.
 */
describe('a connection whose session the server ended', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 2);
  });
  afterAll(() => db.close());

  it('is closed on release, not kept for the next statement, and the next statement runs on a new one', async () => {
    const before = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
    expect([db.pool.totalCount, db.pool.idleCount]).toEqual([1, 1]);
    await expect(sql`select pg_terminate_backend(pg_backend_pid())`.execute(db.kysely)).rejects.toMatchObject({
      severity: 'FATAL',
      code: '57P01',
    });
    // right after the failure, before the socket's close is seen: the pool kept nothing
    expect([db.pool.totalCount, db.pool.idleCount]).toEqual([0, 0]);
    const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
    expect(after).not.toBe(before);
  });
});
