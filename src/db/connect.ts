import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { gatedKysely, type ReadGate } from './gated.js';
import { sender } from './prepared.js';
import type { Database } from './schema.js';

// bigint columns arrive as strings unless told otherwise; counts and amounts here stay
// far below 2^53, so numbers are safe and simpler for every caller.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface Db {
  pool: pg.Pool;
  kysely: Kysely<Database>;
  /** A Kysely on the same pool whose reads wait for `gate` first (src/db/gated.ts). */
  gated(gate: ReadGate): Kysely<Database>;
  close(): Promise<void>;
}

/**
 * A connection that cannot be had within this (the server unreachable without a refusal, or
 * every pooled connection busy that long) fails its request with 503 instead of hanging it.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The pool as kysely sees it. A text of several statements sent without parameters goes by
 * the simple protocol, in one round trip, and pg answers one result per statement; kysely
 * reads a single result, so the view answers the last one. A projection batch opens its
 * transaction with its claim that way, and closes it with its checkpoints
 * (projections/checkpoints.ts). Texts compiled once go as prepared statements
 * (./prepared.ts). Each client keeps one view, as kysely caches per client.
 */
const lastResultOf = (pool: pg.Pool): PostgresPool => {
  const views = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const viewOf = (client: pg.PoolClient): PostgresPoolClient => {
    const send = sender(client);
    // a FATAL answer (pg_terminate_backend, a shutdown) ends the session, but the socket
    // may close a moment later: until then pg still calls the client queryable, and the
    // pool would hand it out again for the next statement to fail on
    let ended: Error | undefined;
    const noted = <T>(answer: Promise<T>): Promise<T> =>
      answer.catch((error: unknown) => {
        if ((error as { severity?: string } | null)?.severity === 'FATAL') ended = error as Error;
        throw error;
      });
    return {
      query: ((text: string | pg.Submittable, parameters?: unknown[]) =>
        typeof text === 'string'
          ? noted(send(text, parameters).then((result) => (Array.isArray(result) ? result.at(-1) : result)))
          : client.query(text)) as PostgresPoolClient['query'],
      release: () => {
        const error = ended;
        ended = undefined;
        // with an error the pool closes the client instead of keeping it
        client.release(error);
      },
    };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let view = views.get(client);
      if (!view) views.set(client, (view = viewOf(client)));
      return view;
    },
    end: () => pool.end(),
  };
};

export const connect = (url: string, max = 20): Db => {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => undefined); // idle client errors surface on the next query instead
  // A checked-out client whose session ends (failover, restart, pg_terminate_backend, a
  // network reset) emits `error`; unheard, that ends the process. Its query already fails
  // with the same error, and the pool drops the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const view = lastResultOf(pool);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: view }) });
  return {
    pool,
    kysely,
    gated: (gate) => gatedKysely(view, gate),
    // kysely's destroy() ends the pool it was given
    close: () => kysely.destroy(),
  };
};
