import { sql } from 'kysely';
import { withAdminClient } from '../../src/db/admin-client.js';
import { connect } from '../../src/db/connect.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { isDatabaseUnavailable } from '../../src/db/faults.js';
import { interruptionBegan, unlessInterrupted } from '../../src/db/stop-on-interrupt.js';

/**
 * A program for test/db/process-stopping.spec.ts: owns an embedded server (in the folder it
 * is given), uses it through a pool, says `ready`, and once an interruption began its stop
 * asks for connections as a program still at work would: a new pool's query, the existing
 * pool's, a short admin connection. It prints how each failed, then ends on a failure of
 * its own through `unlessInterrupted`.
 */
const server = await startEmbeddedPostgres(process.argv[2]!);
const db = connect(server.adminUrl, 2);
await sql`select 1`.execute(db.kysely);
// its one connection kept busy: any later statement of the pool needs a connection it opens
const busy = await db.pool.connect();
console.log('ready');
while (!interruptionBegan()) await new Promise((r) => setTimeout(r, 5));

const failure = (work: Promise<unknown>) =>
  work.then(
    () => 'connected',
    (error: Error) => ({ message: error.message, unavailable: isDatabaseUnavailable(error) }),
  );
const fresh = connect(server.adminUrl, 2);
const outcomes = {
  newPool: await failure(sql`select 1`.execute(fresh.kysely)),
  existingPool: await failure(db.pool.query('select 1')),
  adminClient: await failure(withAdminClient(server.adminUrl, (c) => c.query('select 1'))),
};
console.log(JSON.stringify(outcomes));
busy.release();
await unlessInterrupted(Promise.reject(new Error('the work failed on its way out')));
