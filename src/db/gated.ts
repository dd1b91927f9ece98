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
import type { Database } from './schema.js';

/** The connection kysely's Postgres driver hands out (its class is not exported). */
type PostgresConnection = Parameters<PostgresDriver['releaseConnection']>[0];

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

  constructor(
    private readonly driver: PostgresDriver,
    private readonly gate: ReadGate,
  ) {}

  /**
   * The pooled connection, after the gate if `query` reads (a transaction passes it at its
   * start). Kysely sends one connection's queries one at a time (its single-connection
   * provider), so two never race to take it.
   */
  async connection(query?: CompiledQuery): Promise<PostgresConnection> {
    if (this.inner) return this.inner;
    const wait = !query || reads(query) ? this.gate() : undefined;
    if (wait) await wait;
    // the driver answers its own connection class, which its other methods take
    return (this.inner ??= (await this.driver.acquireConnection()) as PostgresConnection);
  }

  /** The pooled connection if one was taken. */
  get taken(): PostgresConnection | undefined {
    return this.inner;
  }

  async executeQuery<R>(query: CompiledQuery) {
    return (await this.connection(query)).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number) {
    yield* (await this.connection(query)).streamQuery<R>(query, chunkSize);
  }
}

const gated = (connection: DatabaseConnection) => connection as GatedConnection;

/** `driver`, with every read passing `gate` before it takes a pooled connection. */
const gatedDriver = (driver: PostgresDriver, gate: ReadGate): Driver => ({
  init: () => driver.init(),
  acquireConnection: async () => new GatedConnection(driver, gate),
  beginTransaction: async (c: DatabaseConnection, settings: TransactionSettings) =>
    driver.beginTransaction(await gated(c).connection(), settings),
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
    if (taken) await driver.releaseConnection(taken);
  },
  // the pool belongs to the plain Kysely, which ends it
  destroy: async () => undefined,
});

/**
 * A Kysely on the same pool whose reads wait for `gate` (src/projections/read-fence.ts).
 * Never destroyed: the plain one ends the pool.
 */
export const gatedKysely = (pool: PostgresPool, gate: ReadGate): Kysely<Database> => {
  const driver = gatedDriver(new PostgresDriver({ pool }), gate);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
};
