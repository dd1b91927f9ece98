import type pg from 'pg';
import { PgClient } from './pg-client.js';

/**
 * Runs `work` on one short-lived connection (creating and dropping databases, a readiness
 * probe), then closes it.
 *
 * The connection is a `PgClient`: its 'error' is heard (a server that goes away while it
 * sits between two statements reaches `work` as the rejection of its next statement, or
 * nowhere once it has finished), and none is opened once an interruption began the
 * process's stop.
 */
export const withAdminClient = async <T>(
  connectionString: string,
  work: (client: pg.Client) => Promise<T>,
  options: { connectionTimeoutMillis?: number } = {},
): Promise<T> => {
  const client = new PgClient({ connectionString, ...options });
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
};
