import pg from 'pg';
import { interruptionBegan } from './stop-on-interrupt.js';

/** What a connection refused because the process is stopping fails with. */
export const PROCESS_STOPPING = 'no new database connection: the process is stopping';

/**
 * The one pg client class the project makes, alone (`withAdminClient`) or through its pools
 * (`connect`), so that two rules hold for every connection:
 *
 * - Its 'error' is always heard, from its construction on. pg emits 'error' on a client
 *   whose session ends (a server stopping, a failover, a dropped network) and on one whose
 *   connecting fails after its callback was used; an emitter with no listener turns that
 *   into an uncaught exception that ends the process. The failure still reaches whoever
 *   waits on the client, as the rejection of its connect or of its next statement.
 * - Once an interruption began the process's stop (its embedded servers are about to be
 *   stopped), it opens no connection: `connect` fails at once, before any socket, so
 *   nothing meets a server shutting down (57P03) or outlives it.
 */
export class PgClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
  override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
    if (!interruptionBegan()) return callback ? super.connect(callback) : super.connect();
    const refused = new Error(PROCESS_STOPPING);
    if (!callback) return Promise.reject(refused);
    process.nextTick(() => callback(refused));
  }
}

/** `PgClient` as pg.Pool's `Client` option takes it (a pool builds its clients from the pool's settings). */
export const PgClientForPools = PgClient as unknown as new () => pg.ClientBase;
