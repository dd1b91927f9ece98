import pg from 'pg';
import { type AtRevision, eventDocument, STREAM_REVISION_KEY, UNIQUE_VIOLATION } from './postgres-append.js';
import type { AppendResult, NewEvent } from './port.js';

/**
 * Appends that name their revision, sent one at a time while the database keeps up and
 * together once they queue: at most `SLOTS` statements are in flight, and whatever waits
 * when one comes back leaves in the next, as one transaction (`es_append_batch`, migration
 * 019). A lone append is the single INSERT it always was, so an idle service answers as
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
  streamId: string;
  events: NewEvent[];
  revision: number;
  at: Date;
  resolve: (written: AppendResult | undefined) => void;
  reject: (error: unknown) => void;
}

interface BatchRow {
  idx: number;
  status: 'ok' | 'older' | 'taken' | 'contended' | 'error';
  commit_position: string | null;
  prepare_position: string | null;
  error_code: string | null;
  error_message: string | null;
}

/** An error shaped as pg's for the same failure, so the adapter answers it the same way. */
class BatchedAppendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly constraint?: string,
  ) {
    super(message);
  }
}

export class AppendBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    /** The single INSERT, for a batch of one. */
    private readonly single: AtRevision,
  ) {}

  readonly atRevision: AtRevision = (streamId, events, revision, at) =>
    new Promise((resolve, reject) => {
      this.queue.push({ streamId, events, revision, at, resolve, reject });
      this.pump();
    });

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
      settle = batch.length === 1 ? await this.sendOne(batch[0]!) : await this.sendBatch(batch);
    } catch (error) {
      // a failure before anything was sent (a value JSON cannot carry): every caller hears it
      settle = () => batch.forEach((p) => p.reject(error));
    } finally {
      this.inFlight--;
      this.pump();
    }
    settle();
  }

  private async sendOne(p: Pending): Promise<() => void> {
    try {
      const written = await this.single(p.streamId, p.events, p.revision, p.at);
      return () => p.resolve(written);
    } catch (error) {
      return () => p.reject(error);
    }
  }

  private async sendBatch(batch: Pending[]): Promise<() => void> {
    // by stream: two batches waiting on each other's rows then wait in one direction only
    batch.sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    let rows: BatchRow[];
    try {
      rows = (await this.pool.query<BatchRow>(batchStatement(batch))).rows;
    } catch (error) {
      // refused by the server (a document it cannot take, a NUL in one event): nothing of
      // the batch was written, and each goes again alone, so one append's bad input fails
      // that append only. Anything else (the connection lost, the session ended) may have
      // come after the commit: each caller learns it as a lone append's caller would.
      if (refusedWhole(error)) return () => batch.forEach((p) => this.alone(p));
      return () => batch.forEach((p) => p.reject(error));
    }
    const byIndex = new Map(rows.map((r) => [r.idx, r]));
    return () => batch.forEach((p, i) => this.settleFrom(p, byIndex.get(i)));
  }

  private settleFrom(p: Pending, row: BatchRow | undefined): void {
    if (!row) return p.reject(new Error('the append batch answered nothing for an append'));
    switch (row.status) {
      case 'ok':
        return p.resolve({
          nextRevision: p.revision + p.events.length,
          position: { commit: BigInt(row.commit_position!), prepare: BigInt(row.prepare_position!) },
        });
      case 'older':
        return p.resolve(undefined);
      case 'taken':
        return p.reject(new BatchedAppendError(UNIQUE_VIOLATION, 'the stream revision is taken', STREAM_REVISION_KEY));
      case 'contended':
        // it met another transaction's open append to its stream: it waits for that one
        // alone, and the rest of the batch did not wait with it
        return this.alone(p);
      default:
        return p.reject(new BatchedAppendError(row.error_code ?? 'XX000', row.error_message ?? 'append failed'));
    }
  }

  /** One append sent again by itself, outside the slots: it may wait as long as a lone append does. */
  private alone(p: Pending): void {
    this.single(p.streamId, p.events, p.revision, p.at).then(p.resolve, p.reject);
  }
}

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
  'select idx, status, commit_position, prepare_position::text, error_code, error_message from es_append_batch($1::jsonb)';

const batchStatement = (batch: Pending[]): pg.QueryConfig => ({
  name: 'es_append_batch',
  text: BATCH,
  values: [
    JSON.stringify(
      batch.map((p) => ({
        stream: p.streamId,
        revision: p.revision,
        at: p.at.toISOString(),
        events: p.events.map(eventDocument),
      })),
    ),
  ],
});
