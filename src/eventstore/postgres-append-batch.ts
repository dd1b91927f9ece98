import pg from 'pg';
import {
  type AppendPart,
  type AtRevision,
  eventDocument,
  type GroupOutcome,
  STREAM_REVISION_KEY,
  type Together,
  UNIQUE_VIOLATION,
} from './postgres-append.js';
import type { AppendResult } from './port.js';
import { byCodeUnits } from '../domain/code-units.js';

/**
 * Appends that name their revision, sent one at a time while the database keeps up and
 * together once they queue: at most `SLOTS` statements are in flight, and whatever waits
 * when one comes back leaves in the next, as one transaction (`es_append_groups`, migration
 * 020). A lone append is the single INSERT it always was, so an idle service answers as
 * fast as before; a busy one commits a batch of appends with one round trip and one WAL
 * flush instead of one each (at concurrency 32 the appends' socket writes alone were a
 * quarter of Node's time per sandbox order).
 *
 * What each append sees is unchanged: its events are written all or none, checked as the
 * single INSERT checks them, and its outcome is its own (a document the server refuses as
 * a whole is sent again append by append; an append that meets another transaction's open
 * append to its stream leaves the batch after 20 ms and waits alone). What a batch shares
 * is its fate when the database goes away mid-way: then every append in it fails, as a
 * lone append would, and its caller retries or answers 503 as before.
 *
 * An append to several streams at once (`appendMany`) is a group: its parts are written in
 * one subtransaction, all or none, and its outcome is the group's. Alone it is one statement
 * (the groups' function with one group), which waits for another open append to its streams
 * as long as it must.
 */

/**
 * Statements in flight at once: beyond them appends queue and leave together. Two batch
 * as well as one does (sandbox orders at concurrency 32: 505 to 546 orders/s with two,
 * 489 to 549 with one, 362 to 376 without batches, in alternating runs), and a slow batch
 * then does not hold back every append.
 */
const SLOTS = 2;
/**
 * Appends per batch. Each is a subtransaction, and PostgreSQL keeps up to 64 of them per
 * transaction in its shared snapshot data; past that every snapshot on the server slows down.
 */
const MAX_BATCH = 32;

interface Pending {
  parts: AppendPart[];
  at: Date;
  resolve: (outcome: GroupOutcome) => void;
  reject: (error: unknown) => void;
}

interface BatchRow {
  idx: number;
  part: number;
  status: 'ok' | 'older' | 'taken' | 'contended' | 'error';
  commit_position: string | null;
  prepare_position: string | null;
  error_code: string | null;
  error_message: string | null;
}

/** An error shaped as pg's for the same failure, so the adapter answers it the same way; `part` names the group's part. */
export class BatchedAppendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly part: number,
    readonly constraint?: string,
  ) {
    super(message);
  }
}

/** Waits of a part for another transaction's open append to its stream, in a batch and alone. */
const IN_BATCH_LOCK_TIMEOUT = '20ms';
const ALONE_LOCK_TIMEOUT = '0';

export class AppendBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    /** The single INSERT, for a batch of one append to one stream. */
    private readonly single: AtRevision,
  ) {}

  readonly together: Together = (parts, at) =>
    new Promise((resolve, reject) => {
      this.queue.push({ parts, at, resolve, reject });
      this.pump();
    });

  readonly atRevision: AtRevision = async (streamId, events, revision, at) => {
    const outcome = await this.together([{ streamId, events, revision }], at);
    return 'written' in outcome ? outcome.written[0] : undefined;
  };

  private pump(): void {
    while (this.inFlight < SLOTS && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.send(batch);
    }
  }

  /**
   * Sends one statement, frees its slot as soon as it is answered (before its callers hear
   * back, so a caller's next append finds the slot free), then settles its appends.
   */
  private async send(batch: Pending[]): Promise<void> {
    let settle: () => void;
    try {
      const [only] = batch;
      settle = batch.length === 1 && only ? await this.sendAlone(only) : await this.sendBatch(batch);
    } catch (error) {
      // a failure before anything was sent (a value JSON cannot carry): every caller hears it
      settle = () => batch.forEach((p) => p.reject(error));
    } finally {
      this.inFlight--;
      this.pump();
    }
    settle();
  }

  /** One append alone: the single INSERT for one stream, a group's statement without a lock timeout for several. */
  private async sendAlone(p: Pending): Promise<() => void> {
    const [part] = p.parts;
    try {
      if (p.parts.length === 1 && part) {
        const written = await this.single(part.streamId, part.events, part.revision, p.at);
        return () => p.resolve(written ? { written: [written] } : { older: 0 });
      }
      const { rows } = await this.pool.query<BatchRow>(batchStatement([p], ALONE_LOCK_TIMEOUT));
      return () => this.settleFrom(p, rows, () => p.reject(new Error('a lone group of appends met a lock timeout')));
    } catch (error) {
      return () => p.reject(error);
    }
  }

  private async sendBatch(batch: Pending[]): Promise<() => void> {
    // by (first) stream: two batches waiting on each other's rows then wait in one direction
    batch.sort((a, b) => byCodeUnits(a.parts[0]!.streamId, b.parts[0]!.streamId));
    let rows: BatchRow[];
    try {
      rows = (await this.pool.query<BatchRow>(batchStatement(batch, IN_BATCH_LOCK_TIMEOUT))).rows;
    } catch (error) {
      // refused by the server (a document it cannot take, a NUL in one event): nothing of
      // the batch was written, and each goes again alone, so one append's bad input fails
      // that append only. Anything else (the connection lost, the session ended) may have
      // come after the commit: each caller learns it as a lone append's caller would.
      if (refusedWhole(error)) return () => batch.forEach((p) => this.alone(p));
      return () => batch.forEach((p) => p.reject(error));
    }
    const byIndex = new Map<number, BatchRow[]>();
    for (const r of rows) {
      const mine = byIndex.get(r.idx);
      if (mine) mine.push(r);
      else byIndex.set(r.idx, [r]);
    }
    // it met another transaction's open append to its stream: it waits for that one alone,
    // and the rest of the batch did not wait with it
    return () => batch.forEach((p, i) => this.settleFrom(p, byIndex.get(i) ?? [], () => this.alone(p)));
  }

  private settleFrom(p: Pending, rows: BatchRow[], contended: () => void): void {
    const [first] = rows;
    if (!first) return p.reject(new Error('the append batch answered nothing for an append'));
    switch (first.status) {
      case 'ok': {
        rows.sort((a, b) => a.part - b.part);
        if (rows.length !== p.parts.length || rows.some((r, i) => r.part !== i))
          return p.reject(new Error('the append batch answered part of a group'));
        return p.resolve({ written: p.parts.map((part, i) => writtenOf(part, rows[i]!)) });
      }
      case 'older':
        return p.resolve({ older: first.part });
      case 'taken':
        return p.reject(
          new BatchedAppendError(UNIQUE_VIOLATION, 'the stream revision is taken', first.part, STREAM_REVISION_KEY),
        );
      case 'contended':
        return contended();
      default:
        return p.reject(
          new BatchedAppendError(first.error_code ?? 'XX000', first.error_message ?? 'append failed', first.part),
        );
    }
  }

  /** One append sent again by itself, outside the slots: it may wait as long as a lone append does. */
  private alone(p: Pending): void {
    void this.sendAlone(p).then((settle) => settle());
  }
}

const writtenOf = (part: AppendPart, row: BatchRow): AppendResult => ({
  nextRevision: part.revision + part.events.length,
  position: { commit: BigInt(row.commit_position!), prepare: BigInt(row.prepare_position!) },
});

/**
 * Did the server refuse the batch's statement, so that nothing of it was written? An error
 * the server answered the statement with means it rolled back, unless it is one that ends
 * or breaks the session (connection, operator intervention, system or internal errors),
 * which may come after the commit. An error of the client or the network may too.
 */
export const refusedWhole = (error: unknown): boolean =>
  error instanceof pg.DatabaseError &&
  typeof error.code === 'string' &&
  !['08', '57', '58', 'XX'].some((cls) => error.code!.startsWith(cls));

const BATCH =
  'select idx, part, status, commit_position, prepare_position::text, error_code, error_message from es_append_groups($1::jsonb, $2)';

const batchStatement = (batch: Pending[], lockTimeout: string): pg.QueryConfig => ({
  name: 'es_append_groups',
  text: BATCH,
  values: [
    JSON.stringify(
      batch.map((p) => ({
        at: p.at.toISOString(),
        parts: p.parts.map((part) => ({
          stream: part.streamId,
          revision: part.revision,
          events: part.events.map(eventDocument),
        })),
      })),
    ),
    lockTimeout,
  ],
});
