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

/** A connection that cannot be had within this fails its request (503) instead of hanging it. */
const CONNECT_TIMEOUT_MS = 5_000;

export const connect = (url: string, max = 20): Db => {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => undefined); // idle client errors surface on the next query instead
  // A checked-out client whose session ends (failover, restart, pg_terminate_backend, a
  // network reset) emits `error`; unheard, that ends the process. Its query already fails
  // with the same error, and the pool drops the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    kysely,
    // kysely's destroy() ends the pool it was given
    close: () => kysely.destroy(),
  };
};
