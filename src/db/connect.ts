import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { PgClientForPools } from './pg-client.js';
import { gatedKysely, type PostgresConnection, type ReadGate, type Replica } from './gated.js';
import { sender } from './prepared.js';
import { Reachability } from './reachability.js';
import type { Database } from './schema.js';

// bigint columns arrive as strings unless told otherwise; counts and amounts here stay
// far below 2^53, so numbers are safe and simpler for every caller.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface Db {
  pool: pg.Pool;
  kysely: Kysely<Database>;
  /** A Kysely on the same pool whose reads wait for `gate` first (src/db/gated.ts). */
  gated(gate: ReadGate): Kysely<Database>;
  /** Whether the primary answers, as this pool's statements find it. */
  primary: Reachability;
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
const lastResultOf = (pool: pg.Pool, reach?: Reachability): PostgresPool => {
  const views = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const viewOf = (client: pg.PoolClient): PostgresPoolClient => {
    const send = sender(client);
    // a FATAL answer (pg_terminate_backend, a shutdown) ends the session, but the socket
    // may close a moment later: until then pg still calls the client queryable, and the
    // pool would hand it out again for the next statement to fail on
    let ended: Error | undefined;
    const noted = <T>(answer: Promise<T>): Promise<T> =>
      answer.then(
        (result) => {
          reach?.answered();
          return result;
        },
        (error: unknown) => {
          if ((error as { severity?: string } | null)?.severity === 'FATAL') ended = error as Error;
          reach?.failed(error);
          throw error;
        },
      );
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
      const client = await pool.connect().catch((error: unknown) => {
        reach?.failed(error);
        throw error;
      });
      let view = views.get(client);
      if (!view) views.set(client, (view = viewOf(client)));
      return view;
    },
    end: () => pool.end(),
  };
};

/**
 * A pooled connection idle this long is closed. `pg`'s default (10 s) closed the connections
 * a burst opened at every lull, and opening one again costs both sides a SCRAM exchange
 * (4,096 PBKDF2 rounds each): 2 % of the service's CPU per sandbox order in a profile.
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * Every client of the pool is a `PgClient`: its 'error' heard from its construction on (a
 * checked-out client whose session ends emits it, and its statement already fails with the
 * same error; the pool drops the broken client on release), and none connects once an
 * interruption began the process's stop.
 */
const poolFor = (url: string, max: number, connectionTimeoutMillis: number) => {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    Client: PgClientForPools,
  });
  pool.on('error', () => undefined); // idle client errors surface on the next query instead
  return pool;
};

/**
 * A replica that has not replayed a write within this answers nothing: the read goes to the
 * primary instead (the read still sees the write, a little later than a replica would).
 */
const REPLAY_WAIT_MS = 1_000;
/**
 * A replica that takes longer to connect is taken as down: the primary answers. Short, so
 * that a read that first waited READ_WAIT_MS for a lost primary still answers within 2 s.
 */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The read replica behind DATABASE_READ_URL (HAProxy's replica port in docs/scaling.md). */
const replicaOf = (url: string, max: number) => {
  const pool = poolFor(url, max, REPLICA_CONNECT_TIMEOUT_MS);
  // on the primary (the replica port's fallback) there is nothing to replay: null, so true
  const replayedQuery = (lsn: string) =>
    CompiledQuery.raw('select coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, true) as ok', [lsn]);
  const driver = new PostgresDriver({ pool: lastResultOf(pool) });
  // kysely's driver takes its pool in init(), which a Kysely instance would call
  const initialized = driver.init();
  const replica: Replica = {
    driver,
    acquire: async () => {
      await initialized;
      return (await driver.acquireConnection()) as PostgresConnection;
    },
    replayed: async (connection, lsn, giveUp) => {
      const until = Date.now() + REPLAY_WAIT_MS;
      for (;;) {
        const { rows } = await connection.executeQuery<{ ok: boolean }>(replayedQuery(lsn));
        if (rows[0]?.ok) return true;
        if (Date.now() >= until || giveUp()) return false;
        await sleep(5);
      }
    },
  };
  return { pool, replica };
};

export const connect = (url: string, max = 20, readUrl?: string): Db => {
  const pool = poolFor(url, max, CONNECT_TIMEOUT_MS);
  const primary = new Reachability();
  // a connection made is the server answering
  pool.on('connect', () => primary.answered());
  const view = lastResultOf(pool, primary);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: view }) });
  const read = readUrl ? replicaOf(readUrl, max) : undefined;
  let closing: Promise<void> | undefined;
  return {
    pool,
    kysely,
    gated: (gate) => gatedKysely(view, gate, primary, read?.replica),
    primary,
    // The pools end; the Kyselys are left as they are. kysely's destroy() drops the pool from
    // its driver, and a statement already on its way (a request, a loop that had not stopped
    // yet) then failed with a TypeError, a 500; an ended pool refuses it with its own error,
    // which every caller takes as the database unavailable (503, or wait and try again).
    close: () =>
      (closing ??= (async () => {
        await pool.end();
        await read?.pool.end();
      })()),
  };
};
