import { rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAdminClient } from '../../src/db/admin-client.js';
import { connect } from '../../src/db/connect.js';
import { type EmbeddedDatabase, runningServer, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { isDatabaseUnavailable } from '../../src/db/faults.js';
import { PgClient } from '../../src/db/pg-client.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { eventually } from '../support/eventually.js';

/** What a refused connection came back with: its SQLSTATE, and whether the service takes it as "unavailable". */
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => 'connected',
    (error: { code?: string; message?: string }) => ({
      code: error.code,
      message: error.message,
      unavailable: isDatabaseUnavailable(error),
    }),
  );

const shuttingDown = { code: '57P03', message: 'the database system is shutting down', unavailable: true };

/**
 * A private server held in its shutdown: a smart shutdown (SIGTERM) waits for the sessions
 * still open, and refuses every new connection meanwhile with 57P03 "the database system is
 * shutting down". Connections opened against it, by a pool that is being closed meanwhile or
 * alone, fail as their callers' rejections; none ends the process (an uncaught error fails
 * the run).
 */
describe('connections opened against a server that is shutting down', () => {
  let dir: string;
  let server: EmbeddedDatabase;
  let held: PgClient;
  beforeAll(async () => {
    dir = await clusterFolder('shutting-down-');
    server = await startEmbeddedPostgres(dir);
    held = new PgClient(server.adminUrl);
    await held.connect();
    const postmaster = (await runningServer(path.join(dir, 'pg')))!.pid;
    process.kill(postmaster, 'SIGTERM');
    await eventually('the server refusing new connections', async () => {
      const probe = new PgClient(server.adminUrl);
      return (await refusal(probe.connect())) !== 'connected' || (await probe.end(), false);
    });
  });
  afterAll(async () => {
    await held.end().catch(() => undefined);
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a pool closed while it opens a connection: the connect fails as unavailable, the close completes', async () => {
    const db = connect(server.adminUrl, 2);
    const opening = refusal(db.pool.connect()); // its socket opens now, before the close below
    const closed = db.close().then(() => 'closed');
    expect(await Promise.all([opening, closed])).toEqual([shuttingDown, 'closed']);
  });

  it('a statement on a closing pool is refused by the pool, as unavailable, and opens nothing', async () => {
    const db = connect(server.adminUrl, 2);
    const statement = refusal(sql`select 1`.execute(db.kysely));
    await db.close();
    expect(await statement).toEqual({ message: 'Cannot use a pool after calling end on the pool', unavailable: true });
    expect(db.pool.totalCount).toBe(0);
  });

  it('a short connection and a lone client fail at their connect, as unavailable', async () => {
    expect(await refusal(withAdminClient(server.adminUrl, (c) => c.query('select 1')))).toEqual(shuttingDown);
    const client = new PgClient(server.adminUrl);
    expect(await refusal(client.connect())).toEqual(shuttingDown);
    await client.end().catch(() => undefined);
  });
});
