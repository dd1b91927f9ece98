import type pg from 'pg';
import { newId } from '../ids.js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  START,
  WrongExpectedRevision,
} from './port.js';
import { Wakeup } from './wakeup.js';

interface EventRow {
  commit: string;
  position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = `transaction_id::text as commit, position, stream_id, stream_revision, event_id, type, data, metadata, created_at`;
const SAFE = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;

const toRecorded = (r: EventRow): RecordedEvent => ({
  id: r.event_id,
  streamId: r.stream_id,
  revision: Number(r.stream_revision),
  position: { commit: BigInt(r.commit), prepare: BigInt(r.position) },
  type: r.type,
  data: r.data,
  metadata: r.metadata,
  createdAt: r.created_at,
});

const MAX_RACE_RETRIES = 5;
const ANNOUNCE_GATHER_MS = 2;

export class PostgresEventStore implements EventStore {
  private listener: pg.PoolClient | undefined;
  private listening: Promise<void> | undefined;
  private readonly wakeups = new Set<Wakeup>();
  private announcing: Promise<void> | undefined;
  private announceAgain = false;

  constructor(private readonly pool: pg.Pool) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, at: Date): Promise<AppendResult> {
    const payload = JSON.stringify(
      events.map((e) => ({ id: e.id ?? newId(), type: e.type, data: e.data ?? {}, metadata: e.metadata ?? {} })),
    );
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.pool.query<{ next_revision: string; commit_position: string; prepare_position: string }>(
          'select next_revision, commit_position::text, prepare_position from es_append($1, $2, $3::jsonb, $4)',
          [streamId, String(expected), payload, at],
        );
        const row = rows[0]!;
        this.announce();
        return {
          nextRevision: Number(row.next_revision),
          position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
        };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'SV409') {
          const actual = Number((error as { detail?: string }).detail);
          throw new WrongExpectedRevision(streamId, expected, actual === -1 ? 'no_stream' : actual);
        }
        if (code === '40001' && attempt < MAX_RACE_RETRIES) continue;
        throw error;
      }
    }
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `select ${COLUMNS} from es_events where stream_id = $1 and stream_revision >= $2 order by stream_revision`,
      [streamId, fromRevision],
    );
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
    const { rows } = await this.pool.query<{ commit: string; position: string }>(
      `select transaction_id::text as commit, position from es_events where ${SAFE}
        order by transaction_id desc, position desc limit 1`,
    );
    const row = rows[0];
    return row ? { commit: BigInt(row.commit), prepare: BigInt(row.position) } : START;
  }

  /**
   * Tells subscribers an append committed: at once in this process, and to other
   * processes with one NOTIFY at a time. Appends that commit while a NOTIFY is on its way
   * share the next one, so appenders never queue for the notify lock themselves.
   */
  private announce(): void {
    this.wakeups.forEach((w) => w.wake());
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = (async () => {
      do {
        this.announceAgain = false;
        // a short pause gathers the appends of a busy moment into one notification;
        // this process's own subscribers were woken above already
        await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_GATHER_MS));
        await this.pool.query(`select pg_notify('es_events', '')`).catch(() => undefined);
      } while (this.announceAgain);
    })().finally(() => {
      this.announcing = undefined;
    });
  }

  /** True when events after `after` are committed but not yet safe to read (an older transaction still runs). */
  private async hasUnsafeBeyond(after: Position): Promise<boolean> {
    const { rows } = await this.pool.query<{ pending: boolean }>(
      `select exists (select 1 from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint)) as pending`,
      [after.commit.toString(), after.prepare.toString()],
    );
    return rows[0]!.pending;
  }

  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const client = await this.pool.connect();
      client.on('notification', () => this.wakeups.forEach((w) => w.wake()));
      client.on('error', () => undefined); // a broken listener only costs latency: subscriptions still poll
      await client.query('listen es_events');
      this.listener = client;
    })();
    return this.listening;
  }

  subscribe(options: SubscribeOptions): Subscription {
    const batchSize = options.batchSize ?? 500;
    const wakeup = new Wakeup();
    this.wakeups.add(wakeup);
    let closed = false;
    let position = options.from;

    const run = async () => {
      await this.listen();
      while (!closed) {
        wakeup.reset();
        const batch = await this.readAll(position, batchSize);
        if (batch.length > 0) {
          await options.onEvents(batch);
          position = batch[batch.length - 1]!.position;
          if (batch.length === batchSize) continue;
        }
        if (closed) break;
        // Committed events held back by an older running transaction get no second
        // notification, so look again shortly; otherwise sleep until notified (with a slow
        // safety poll in case a notification is lost with its connection).
        const unsafe = await this.hasUnsafeBeyond(position);
        await wakeup.wait(unsafe ? 5 : 1000);
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

  async close(): Promise<void> {
    this.wakeups.forEach((w) => w.wake());
    await this.announcing;
    if (this.listener) {
      this.listener.release(true);
      this.listener = undefined;
    }
  }
}
