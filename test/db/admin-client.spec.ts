import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAdminClient } from '../../src/db/admin-client.js';
import { createTestDatabase } from '../support/database.js';

/**
 * A short-lived connection whose session the server ends between two statements (what a
 * process stopping its own server on SIGTERM does to it) must not end the process with an
 * unhandled 'error': the next statement fails instead. An uncaught exception here fails
 * the run.
 */
describe('withAdminClient', () => {
  let url: string;
  let other: pg.Client;
  beforeAll(async () => {
    url = await createTestDatabase();
    other = new pg.Client({ connectionString: url });
    await other.connect();
  });
  afterAll(() => other.end());

  it('takes the end of its session between statements as the next statement failing', async () => {
    const outcome = await withAdminClient(url, async (client) => {
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const ended = new Promise((resolve) => client.once('end', resolve));
      await other.query('select pg_terminate_backend($1)', [pid]);
      await ended; // the server's FATAL message and the close have both arrived while idle
      return client.query('select 1').then(
        () => 'ran',
        (error: Error) => `failed: ${error.message}`,
      );
    });
    expect(outcome).toBe('failed: Client has encountered a connection error and is not queryable');
    // and the helper itself still answers on a fresh connection
    await expect(withAdminClient(url, async (c) => (await c.query('select 2 as n')).rows[0])).resolves.toEqual({
      n: 2,
    });
  });

  it('closes its connection when the work throws', async () => {
    let pid = 0;
    await expect(
      withAdminClient(url, async (client) => {
        pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    // the session ends once its backend has read the goodbye: wait for that, not for a guess
    const sessionGone = async (deadline = Date.now() + 30_000): Promise<boolean> => {
      const { rowCount } = await other.query('select 1 from pg_stat_activity where pid = $1', [pid]);
      if (rowCount === 0) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
      return sessionGone(deadline);
    };
    expect(await sessionGone()).toBe(true);
  });
});
