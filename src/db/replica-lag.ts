import pg from 'pg';

/** A scrape does not wait longer for the replica: it shows no lag instead. */
const REPLICA_WAIT_MS = 2_000;

/**
 * How far a read replica is behind its primary, in seconds: 0 once it replayed everything the
 * primary had written when asked (an idle primary's replica is not behind, however old its
 * last replayed transaction), else the age of the last transaction it replayed (of its start
 * when it replayed none). A replica port that fell back to the primary (HAProxy's backup) is
 * not in recovery: 0. Asked on a connection of its own, so a replica that went away fails
 * this question and not a read that takes the read pool's connection after it.
 */
export const replicaLagSeconds = async (primary: pg.Pool, replicaUrl: string): Promise<number> => {
  const written = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
  const replica = new pg.Client({
    connectionString: replicaUrl,
    connectionTimeoutMillis: REPLICA_WAIT_MS,
    query_timeout: REPLICA_WAIT_MS,
  });
  replica.on('error', () => undefined); // a session lost meanwhile fails the query below
  try {
    await replica.connect();
    const { rows } = await replica.query<{ lag: number }>(
      `select case
         when not pg_is_in_recovery() or pg_last_wal_replay_lsn() >= $1::pg_lsn then 0
         else extract(epoch from now() - coalesce(pg_last_xact_replay_timestamp(), pg_postmaster_start_time()))
       end::float8 as lag`,
      [written.rows[0]!.lsn],
    );
    return Math.max(0, rows[0]!.lag);
  } finally {
    await replica.end().catch(() => undefined);
  }
};
