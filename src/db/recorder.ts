import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
} from 'kysely';
import { inlineParameters } from './inline.js';
import type { Database } from './schema.js';

/**
 * A Kysely that runs nothing: each statement given to it is kept, its parameters written
 * into its text (`inlineParameters`), for the caller to send later together with others in
 * one round trip. It answers every statement with no rows, so it serves only writes whose
 * results nobody reads (a projection batch's gathered rows).
 */
export class StatementRecorder {
  readonly statements: string[] = [];
  readonly db: Kysely<Database>;

  constructor() {
    const statements = this.statements;
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        if (query.query.kind === 'SelectQueryNode' || /^\s*select\b/i.test(query.sql))
          throw new Error('a recorded statement answers no rows: a read cannot be recorded');
        statements.push(inlineParameters(query.sql, query.parameters));
        return { rows: [] };
      },
      streamQuery: () => {
        throw new Error('a recorded statement cannot be streamed');
      },
    };
    const driver: Driver = {
      init: async () => undefined,
      acquireConnection: async () => connection,
      beginTransaction: async () => undefined,
      commitTransaction: async () => undefined,
      rollbackTransaction: async () => undefined,
      releaseConnection: async () => undefined,
      destroy: async () => undefined,
    };
    this.db = new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => driver,
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
  }

  /**
   * Sends the recorded statements and `commit` on `connection`, whose transaction is open,
   * as one text in one round trip. A failing statement stops the text there, and the caller
   * rolls back.
   */
  async commitOn(connection: Kysely<Database>): Promise<void> {
    // a statement may end in a line comment: the separator starts on a line of its own
    await sql.raw([...this.statements, 'commit'].join('\n;\n')).execute(connection);
  }
}
