import pg from 'pg';

/**
 * Runs `work` on one short-lived connection (creating and dropping databases, a readiness
 * probe), then closes it.
 *
 * The connection listens for 'error': a server that goes away while the connection sits
 * between two statements (a process stopping its own embedded server on SIGTERM, a
 * failover) makes pg emit 'error' on the client, and an emitter with no listener turns
 * that into an uncaught exception that ends the process. With the listener the failure
 * reaches `work` as the rejection of its next statement, or nowhere once it has finished.
 */
export const withAdminClient = async <T>(
  connectionString: string,
  work: (client: pg.Client) => Promise<T>,
  options: { connectionTimeoutMillis?: number } = {},
): Promise<T> => {
  const client = new pg.Client({ connectionString, ...options });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
};
