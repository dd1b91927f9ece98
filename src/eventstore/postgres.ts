import type pg from 'pg';
import { isDatabaseUnavailable } from '../db/faults.js';
import {
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type Line,
  type NewEvent,
  parsePosition,
  type Position,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
  type StoreHistory,
  type Subscription,
  START,
  type Witness,
} from './port.js';
import { newId } from '../ids.js';
import { appendEvents, appendGroup, singleAtRevision } from './postgres-append.js';
import { AppendBatcher } from './postgres-append-batch.js';
import { reconnectPause, Wakeup } from './wakeup.js';

interface EventRow {
  commit: string;
  position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  schema_version: number;
  created_at: Date;
}

const COLUMNS = `transaction_id::text as commit, position, stream_id, stream_revision, event_id, type, data, metadata, schema_version, created_at`;
const SAFE = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;
/** Events after ($1, $2) committed but held back by an older running transaction. */
const UNSAFE_BEYOND = `select exists (select 1 from es_events
  where (transaction_id, position) > ($1::text::xid8, $2::bigint) and not (${SAFE}))`;

const READ_AT_HEAD = `select p.pending, b.* from (${UNSAFE_BEYOND}) p(pending)
  left join lateral (select ${COLUMNS} from es_events
    where (transaction_id, position) > ($1::text::xid8, $2::bigint) and ${SAFE}
    order by transaction_id, position limit $3) b on true`;
/**
 * The same read carrying the NOTIFY this process owes the others: its appends woke its own
 * subscription, whose next read follows them anyway, so the announcement rides on that read
 * (sent at its commit, after the appends' commits) instead of costing a statement of its own.
 */
const READ_AT_HEAD_ANNOUNCING = `select p.pending, b.* from (${UNSAFE_BEYOND}) p(pending)
  cross join (select pg_notify('es_events', $4)) n
  left join lateral (select ${COLUMNS} from es_events
    where (transaction_id, position) > ($1::text::xid8, $2::bigint) and ${SAFE}
    order by transaction_id, position limit $3) b on true`;

/**
 * The server's line of history (port.ts, `Line`): the system identifier, the database's
 * oid, the timeline it writes on now and how far its WAL is flushed (what a crash keeps: a
 * server restarted after one is never behind it). The timeline is read from
 * the name of the current WAL file: `pg_control_checkpoint()` names the last checkpoint's,
 * which after a promotion stays the old one until the next checkpoint, minutes later. A
 * server in recovery (a standby) writes no WAL of its own: the line is then null.
 */
const LINE_COLUMNS = `case when pg_is_in_recovery() then null else (select system_identifier::text from pg_control_system()) end as system,
  (select oid::text from pg_database where datname = current_database()) as database,
  case when pg_is_in_recovery() then null
    else ('x' || substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8))::bit(32)::int end as timeline,
  case when pg_is_in_recovery() then null else (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::text end as wal`;

/** One read of the store's history: the last committed event, whether the witness ($1: its id, $2/$3: its position) is still there, and the line. */
const HISTORY = `select
  (select transaction_id::text || '/' || position from es_events
    order by transaction_id desc, position desc limit 1) as head,
  case when $1::text is null then null else exists (select 1 from es_events
    where transaction_id = $2::text::xid8 and position = $3::bigint and event_id = $1::text) end as witnessed,
  ${LINE_COLUMNS}`;

interface LineRow {
  system: string | null;
  database: string;
  timeline: number | null;
  wal: string | null;
}

interface HistoryRow extends LineRow {
  head: string | null;
  witnessed: boolean | null;
}

const lineOf = (row: LineRow): Line | undefined =>
  row.system === null || row.timeline === null || row.wal === null
    ? undefined
    : { system: row.system, database: row.database, timeline: row.timeline, wal: BigInt(row.wal) };

/**
 * Reads the line of every connection `pool` opens before the pool hands it out (its
 * `onConnect` hook, which it waits for), and hands it to `onLine`: a process learns that its
 * server now writes another history (a failover, a restore) before it reads or writes
 * anything there.
 */
export const watchConnectionLines = (pool: pg.Pool, onLine: (line: Line) => void): void => {
  const check = async (client: pg.ClientBase) => {
    try {
      const { rows } = await client.query<LineRow>(`select ${LINE_COLUMNS}`);
      const line = rows[0] && lineOf(rows[0]);
      if (line) onLine(line);
    } catch {
      // the connection failed: the statement it was opened for fails on it as well
    }
  };
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool waits for the promise its hook returns (its types say void)
  pool.options.onConnect = check;
};

const toRecorded = (r: EventRow): RecordedEvent => ({
  id: r.event_id,
  streamId: r.stream_id,
  revision: Number(r.stream_revision),
  position: { commit: BigInt(r.commit), prepare: BigInt(r.position) },
  type: r.type,
  data: r.data,
  metadata: r.metadata,
  schemaVersion: r.schema_version,
  createdAt: r.created_at,
});

// other instances hear of appends at most this much later; the appends of one request (an
// order writes several streams one after another) then share one NOTIFY
const ANNOUNCE_GATHER_MS = 10;
const READ_GATHER_MS = 1;

export class PostgresEventStore implements EventStore {
  private listener: pg.PoolClient | undefined;
  /** Ends the current LISTEN connection (once). */
  private dropListener: (() => void) | undefined;
  private listenWanted = false;
  private listenRetry: NodeJS.Timeout | undefined;
  private listenFailures = 0;
  private closed = false;
  private readonly wakeups = new Set<Wakeup>();
  private announcing: Promise<void> | undefined;
  private announceAgain = false;
  /** Appends not announced yet that a woken subscription's next read may announce. */
  private owed = false;
  /** Appends not announced yet while this process has no subscription to announce them. */
  private owedDirectly = false;
  /** Names this process's notifications, which its own listener leaves alone. */
  private readonly origin = newId();

  private readonly batcher: AppendBatcher;

  /**
   * How long an idle subscriber sleeps without a notification before it looks anyway, in
   * case one was lost with its connection.
   */
  private readonly safetyPollMs: number;
  /** How long appends wait for a read to carry their NOTIFY before it goes alone. */
  private readonly announceGatherMs: number;
  /** Ends the gathering pause under way at once (closing). */
  private endPause: (() => void) | undefined;
  /** Settles once this store first hears other processes' notifications. */
  private heard!: () => void;
  private readonly hearing = new Promise<void>((resolve) => (this.heard = resolve));

  constructor(
    private readonly pool: pg.Pool,
    /**
     * The defaults suit a service; a test that proves a notification (and only it) wakes a
     * subscriber, or that a read carries it, sets these far beyond its own bounds.
     */
    options: { safetyPollMs?: number; announceGatherMs?: number } = {},
  ) {
    this.safetyPollMs = options.safetyPollMs ?? 1000;
    this.announceGatherMs = options.announceGatherMs ?? ANNOUNCE_GATHER_MS;
    this.batcher = new AppendBatcher(pool, (...args) => singleAtRevision(pool, ...args));
  }

  async append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    at: Date,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const result = await appendEvents(this.pool, streamId, events, expected, at, this.batcher.atRevision);
    if (events.length > 0) this.announce(options?.quiet);
    return result;
  }

  async appendMany(appends: StreamAppend[], at: Date, options?: AppendOptions): Promise<AppendResult[]> {
    const results = await appendGroup(this.pool, appends, at, this.batcher.together);
    this.announce(options?.quiet);
    return results;
  }

  wake(): void {
    this.wakeups.forEach((w) => w.wake());
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>({
      name: 'es_read_stream',
      text: `select ${COLUMNS} from es_events where stream_id = $1 and stream_revision >= $2 order by stream_revision`,
      values: [streamId, fromRevision],
    });
    return rows.map(toRecorded);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `select ${COLUMNS} from es_events
        where (transaction_id, position) > ($1::text::xid8, $2::bigint) and ${SAFE}
        order by transaction_id, position limit $3`,
      [after.commit.toString(), after.prepare.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  async head(): Promise<Position> {
    return this.last(SAFE);
  }

  /**
   * Includes events held back by a transaction still running anywhere on the server (the
   * snapshot's xmin is the cluster's): on a shared server `head` may trail it for seconds.
   */
  async lastCommitted(): Promise<Position> {
    return this.last('true');
  }

  async history(witness?: Witness): Promise<StoreHistory> {
    const { rows } = await this.pool.query<HistoryRow>({
      name: 'es_history',
      text: HISTORY,
      values: [
        witness?.id ?? null,
        witness?.position.commit.toString() ?? '0',
        witness?.position.prepare.toString() ?? '0',
      ],
    });
    const row = rows[0]!;
    const line = lineOf(row);
    return {
      head: row.head === null ? START : parsePosition(row.head),
      ...(row.witnessed !== null && { witnessed: row.witnessed }),
      ...(line && { line }),
    };
  }

  private async last(where: string): Promise<Position> {
    const { rows } = await this.pool.query<{ commit: string; position: string }>(
      `select transaction_id::text as commit, position from es_events where ${where}
        order by transaction_id desc, position desc limit 1`,
    );
    const row = rows[0];
    return row ? { commit: BigInt(row.commit), prepare: BigInt(row.position) } : START;
  }

  /**
   * Tells subscribers an append committed: at once in this process (unless the append is
   * quiet: its caller wakes them later), and to other processes with one NOTIFY at a time.
   * Appends that commit while a NOTIFY is on its way share the next one, so appenders never
   * queue for the notify lock themselves. The NOTIFY rides on the next read at the head of a
   * subscription of this process (`readAtHead`; after a quiet append, the one its request's
   * `wake()` starts) when one starts within the gathering pause; else it goes alone.
   */
  private announce(quiet = false): void {
    if (this.wakeups.size === 0) this.owedDirectly = true;
    else this.owed = true;
    if (!quiet) this.wake();
    this.sendAnnouncements();
  }

  /** One NOTIFY at a time, after a gathering pause, while appends are owed one. */
  private sendAnnouncements(): void {
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = (async () => {
      do {
        this.announceAgain = false;
        // a short pause gathers the appends of a busy moment into one notification;
        // this process's own subscribers were woken above already
        await new Promise<void>((resolve) => {
          const pause = setTimeout(resolve, this.announceGatherMs);
          this.endPause = () => {
            clearTimeout(pause);
            resolve();
          };
        });
        this.endPause = undefined;
        if (!this.owed && !this.owedDirectly) continue; // a subscription's read announced them
        this.owed = this.owedDirectly = false;
        await this.pool
          .query({ name: 'es_notify', text: `select pg_notify('es_events', $1)`, values: [this.origin] })
          .catch(() => undefined);
      } while (this.announceAgain);
    })().finally(() => {
      this.announcing = undefined;
    });
  }

  /**
   * True when events after `after` are committed but not yet safe to read (an older
   * transaction still runs): those get no notification of their own, so a subscription
   * looks again shortly. Asked only at the head, where the rows beyond `after` are few and
   * the index answers at once; asked by a reader far behind, it would scan the whole tail.
   */
  private async hasUnsafeBeyond(after: Position): Promise<boolean> {
    const { rows } = await this.pool.query<{ pending: boolean }>(`select (${UNSAFE_BEYOND}) as pending`, [
      after.commit.toString(),
      after.prepare.toString(),
    ]);
    return rows[0]!.pending;
  }

  /** `readAll` and `hasUnsafeBeyond(after)` in one statement (one snapshot), for a subscription at the head. */
  private async readAtHead(after: Position, limit: number): Promise<{ events: RecordedEvent[]; pending: boolean }> {
    const announcing = this.owed;
    this.owed = false;
    const values = [after.commit.toString(), after.prepare.toString(), limit];
    try {
      const { rows } = await this.pool.query<EventRow & { pending: boolean }>(
        // named: a subscription at the head of a busy store runs it hundreds of times a second
        announcing
          ? { name: 'es_read_at_head_announcing', text: READ_AT_HEAD_ANNOUNCING, values: [...values, this.origin] }
          : { name: 'es_read_at_head', text: READ_AT_HEAD, values },
      );
      return { events: rows.filter((r) => r.event_id !== null).map(toRecorded), pending: rows[0]!.pending };
    } catch (error) {
      // not announced: a NOTIFY of its own still owes it
      if (announcing) {
        this.owedDirectly = true;
        this.sendAnnouncements();
      }
      throw error;
    }
  }

  /**
   * The LISTEN connection: opened with the first subscription and opened again, with a
   * growing pause, whenever its session ends (a restart, a failover, pg_terminate_backend).
   * While it is down subscriptions still poll, so a lost connection only costs latency.
   */
  private listen(): void {
    if (this.listenWanted) return;
    this.listenWanted = true;
    void this.openListener();
  }

  private async openListener(): Promise<void> {
    if (this.closed) return;
    let client: pg.PoolClient | undefined;
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) {
        this.listener = undefined;
        this.dropListener = undefined;
      }
      client?.release(true);
      this.relisten();
    };
    try {
      client = await this.pool.connect();
      // this process's own appends woke its subscribers directly, or left them asleep on purpose
      client.on('notification', (n) => n.payload !== this.origin && this.wake());
      client.on('error', drop);
      client.on('end', drop);
      await client.query('listen es_events');
      if (lost) return;
      if (this.closed) {
        lost = true;
        client.release(true);
        return;
      }
      this.listener = client;
      this.dropListener = drop;
      this.listenFailures = 0;
      // appends made while nobody listened were announced to no one: look now
      this.wakeups.forEach((w) => w.wake());
      this.heard();
    } catch {
      drop();
    }
  }

  private relisten(): void {
    if (this.closed || this.listenRetry) return;
    this.listenRetry = setTimeout(() => {
      this.listenRetry = undefined;
      void this.openListener();
    }, reconnectPause(this.listenFailures++));
    this.listenRetry.unref();
  }

  subscribe(options: SubscribeOptions): Subscription {
    const batchSize = options.batchSize ?? 500;
    const wakeup = new Wakeup();
    this.wakeups.add(wakeup);
    let closed = false;
    let position = options.from;
    let outage = 0;

    /** A read that meets a lost database waits (growing pauses) and tries again; anything else ends the subscription. */
    const survive = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        const value = await read();
        outage = 0;
        return value;
      } catch (error) {
        if (closed || !isDatabaseUnavailable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, reconnectPause(outage++)));
        return undefined;
      }
    };

    const run = async () => {
      this.listen();
      // at the head, one statement reads the batch and whether unsafe events lie beyond;
      // catching up, full batches are read alone and the question waits for the head
      let atHead = false;
      while (!closed) {
        wakeup.reset();
        const read = await survive<{ events: RecordedEvent[]; pending?: boolean }>(() =>
          atHead
            ? this.readAtHead(position, batchSize)
            : this.readAll(position, batchSize).then((events) => ({ events })),
        );
        if (read === undefined) continue;
        const batch = read.events;
        if (batch.length > 0) {
          await options.onEvents(batch);
          position = batch[batch.length - 1]!.position;
        }
        atHead = batch.length < batchSize;
        if (!atHead) continue;
        if (closed) break;
        // Committed events held back by an older running transaction get no second
        // notification, so look again shortly; otherwise sleep until notified (with a slow
        // safety poll in case a notification is lost with its connection).
        const unsafe = read.pending ?? (await survive(() => this.hasUnsafeBeyond(position)));
        if (unsafe === undefined) continue;
        await wakeup.wait(unsafe ? 5 : this.safetyPollMs);
        // woken: let the appends of the next moment land too, so a busy store is read in
        // batches and not once per append (each read is a round trip on a shared server)
        if (!closed) await new Promise((resolve) => setTimeout(resolve, READ_GATHER_MS));
      }
    };

    const done = run().catch((error) => {
      if (!closed) options.onError?.(error);
    });

    return {
      close: async () => {
        closed = true;
        wakeup.wake();
        this.wakeups.delete(wakeup);
        await done;
      },
    };
  }

  /**
   * Settles once notifications of other processes' appends reach this store (its first
   * subscription made it listen). Until then its subscriptions learn of them by polling.
   */
  listening(): Promise<void> {
    return this.hearing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.listenRetry);
    this.wakeups.forEach((w) => w.wake());
    this.endPause?.();
    await this.announcing;
    // released once, and not reopened (closed)
    this.dropListener?.();
  }
}
