import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  type PostgresPool,
  PostgresQueryCompiler,
  type QueryCompiler,
  type TransactionSettings,
} from 'kysely';
import { DatabaseUnreachable, isDatabaseUnavailable } from './faults.js';
import type { Reachability } from './reachability.js';
import { readRoutes } from './read-route.js';
import type { Database } from './schema.js';

/** The connection kysely's Postgres driver hands out (its class is not exported). */
export type PostgresConnection = Parameters<PostgresDriver['releaseConnection']>[0];

/** Nothing when a read may run now; else a promise that settles when it may. */
export type ReadGate = () => Promise<unknown> | undefined;

/**
 * Does the query read? Writes (inserts, the write side's updates) never wait: the gate is
 * for reads of tables that trail the events.
 */
const reads = (query: CompiledQuery): boolean =>
  query.query.kind === 'SelectQueryNode' || (query.query.kind === 'RawNode' && /^\s*(select|with)\b/i.test(query.sql));

/**
 * Takes its pooled connection at its first query, after the gate: a read waiting for the
 * read models must not hold a connection meanwhile, or enough waiting reads would starve the
 * projections of the pool they need to open the gate.
 */
class GatedConnection implements DatabaseConnection {
  private inner: PostgresConnection | undefined;
  /** Was `inner` taken from the replica's pool (it goes back there)? */
  fromReplicaPool = false;
  /** Inside a transaction its queries stay on their connection, whatever happens to it. */
  inTransaction = false;

  constructor(
    private readonly driver: PostgresDriver,
    private readonly gate: ReadGate,
    private readonly primary: Reachability,
    private readonly replica?: Replica,
  ) {}

  /**
   * The pooled connection, after the gate if `query` reads (a transaction passes it at its
   * start). Kysely sends one connection's queries one at a time (its single-connection
   * provider), so two never race to take it.
   *
   * A read stops waiting for the gate (the read models cannot move) and for the primary's
   * connections once the primary has been lost for READ_WAIT_MS, or is lost past the
   * deadline of the request's route (src/db/read-route.ts, src/db/reachability.ts). A
   * replica then answers with what it has; a read with no replica to go to answers 503.
   */
  async connection(query?: CompiledQuery): Promise<PostgresConnection> {
    if (this.inner) return this.inner;
    const reading = !query || reads(query);
    const deadline = readRoutes.getStore()?.deadline ?? Infinity;
    const wait = reading ? this.gate() : undefined;
    const gaveUp =
      wait !== undefined &&
      (await Promise.race([wait.then(() => false), this.primary.givenUp(deadline, wait).then(() => true)]));
    const replicated = reading && this.replica ? await this.fromReplica(deadline) : undefined;
    if (replicated) return (this.inner ??= replicated);
    if (gaveUp) throw new DatabaseUnreachable('the read models cannot reach the database');
    // the driver answers its own connection class, which its other methods take
    return (this.inner ??= await (reading
      ? this.fromPrimary(deadline)
      : (this.driver.acquireConnection() as Promise<PostgresConnection>)));
  }

  /** One of the primary's connections, unless the primary is lost past `deadline` first. */
  private fromPrimary(deadline: number): Promise<PostgresConnection> {
    const acquired = this.driver.acquireConnection() as Promise<PostgresConnection>;
    return this.primary.bounded(acquired, deadline, 'a connection to the primary', (late) => {
      void this.driver.releaseConnection(late).catch(() => undefined);
    });
  }

  /**
   * A replica's connection when the request's route allows it and the replica behind it has
   * replayed what the route asks for (checked on that very connection: the replica port may
   * lead to several); nothing to read the primary instead.
   */
  private async fromReplica(deadline: number): Promise<PostgresConnection | undefined> {
    const target = await readRoutes.getStore()?.replicaTarget();
    if (target === undefined || !this.replica) return undefined;
    const giveUp = () => this.primary.gaveUp(deadline);
    let connection: PostgresConnection | undefined;
    try {
      connection = await this.replica.acquire();
      if (target === '' || (await this.replica.replayed(connection, target, giveUp))) {
        this.fromReplicaPool = true;
        return connection;
      }
    } catch {
      // a replica that cannot be reached now: the primary answers
    }
    if (!connection) return undefined;
    try {
      const primary = await this.fromPrimary(deadline);
      await this.replica.driver.releaseConnection(connection).catch(() => undefined);
      return primary;
    } catch {
      // the primary is lost (a failover under way): the replica answers with what it has
      this.fromReplicaPool = true;
      return connection;
    }
  }

  /** The pooled connection if one was taken. */
  get taken(): PostgresConnection | undefined {
    return this.inner;
  }

  async executeQuery<R>(query: CompiledQuery) {
    const connection = await this.connection(query);
    try {
      return await connection.executeQuery<R>(query);
    } catch (error) {
      // a replica lost under a read (promoted, or its sessions cut by the proxy): a read
      // outside a transaction runs again once, on a fresh connection
      if (!this.fromReplicaPool || this.inTransaction || !reads(query) || !isDatabaseUnavailable(error)) throw error;
      await this.replica!.driver.releaseConnection(connection).catch(() => undefined);
      this.inner = undefined;
      this.fromReplicaPool = false;
      return (await this.connection(query)).executeQuery<R>(query);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number) {
    yield* (await this.connection(query)).streamQuery<R>(query, chunkSize);
  }
}

const gated = (connection: DatabaseConnection) => connection as GatedConnection;

/**
 * A read replica's pool (DATABASE_READ_URL) and how to tell on one of its connections that it
 * has replayed a WAL position.
 */
export interface Replica {
  driver: PostgresDriver;
  /** A pooled connection to the replica. */
  acquire(): Promise<PostgresConnection>;
  /** Has the replica behind `connection` replayed `lsn`? Waits a moment for it, unless `giveUp` says stop. */
  replayed(connection: PostgresConnection, lsn: string, giveUp: () => boolean): Promise<boolean>;
}

/** `driver`, with every read passing `gate` before it takes a pooled connection. */
const gatedDriver = (driver: PostgresDriver, gate: ReadGate, primary: Reachability, replica?: Replica): Driver => ({
  init: () => driver.init(),
  acquireConnection: async () => new GatedConnection(driver, gate, primary, replica),
  beginTransaction: async (c: DatabaseConnection, settings: TransactionSettings) => {
    gated(c).inTransaction = true;
    return driver.beginTransaction(await gated(c).connection(), settings);
  },
  commitTransaction: async (c: DatabaseConnection) => driver.commitTransaction(await gated(c).connection()),
  rollbackTransaction: async (c: DatabaseConnection) => driver.rollbackTransaction(await gated(c).connection()),
  savepoint: async (c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    driver.savepoint(await gated(c).connection(), name, compile),
  rollbackToSavepoint: async (c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    driver.rollbackToSavepoint(await gated(c).connection(), name, compile),
  releaseSavepoint: async (c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    driver.releaseSavepoint(await gated(c).connection(), name, compile),
  releaseConnection: async (c: DatabaseConnection) => {
    const taken = gated(c).taken;
    if (taken) await (gated(c).fromReplicaPool ? replica!.driver : driver).releaseConnection(taken);
  },
  // the pool belongs to the plain Kysely, which ends it
  destroy: async () => undefined,
});

/**
 * A Kysely on the same pool whose reads wait for `gate` (src/projections/read-fence.ts), and
 * whose reads inside a request that allows it go to `replica`; a request's reads stop waiting
 * once `primary` is lost past their deadline. Never destroyed: the plain one ends the pool.
 */
export const gatedKysely = (
  pool: PostgresPool,
  gate: ReadGate,
  primary: Reachability,
  replica?: Replica,
): Kysely<Database> => {
  const driver = gatedDriver(new PostgresDriver({ pool }), gate, primary, replica);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
};
