import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// bigint columns arrive as strings unless told otherwise; counts and amounts here stay
// far below 2^53, so numbers are safe and simpler for every caller.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface Db {
  pool: pg.Pool;
  kysely: Kysely<Database>;
  close(): Promise<void>;
}

export const connect = (url: string, max = 20): Db => {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined); // idle client errors surface on the next query instead
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    kysely,
    // kysely's destroy() ends the pool it was given
    close: () => kysely.destroy(),
  };
};
