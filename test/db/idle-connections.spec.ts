import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, type Db, IDLE_CONNECTION_MS } from '../../src/db/connect.js';
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

  // pg-pool's idle timer is a plain setTimeout: on the test's fake timers the lull passes
  // at once, and the pool's own timer logic decides what is kept and what is closed
  it("is still the pool's after 11 s idle (past pg's default 10 s), and is closed after IDLE_CONNECTION_MS", async () => {
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const before = await pid();
      vi.advanceTimersByTime(11_000);
      expect([db.pool.totalCount, db.pool.idleCount]).toEqual([1, 1]);
      expect(await pid()).toBe(before);
      vi.advanceTimersByTime(IDLE_CONNECTION_MS - 1);
      expect([db.pool.totalCount, db.pool.idleCount]).toEqual([1, 1]);
      vi.advanceTimersByTime(1);
      expect([db.pool.totalCount, db.pool.idleCount]).toEqual([0, 0]);
    } finally {
      vi.useRealTimers();
    }
  });
});
