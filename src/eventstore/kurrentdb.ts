import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  type EventData,
  FORWARDS,
  KurrentDBClient,
  StreamNotFoundError,
} from '@kurrent/kurrentdb-client';
import { newId } from '../ids.js';
import { describeAddress, normalizeConnectionString } from '../net/kurrentdb-address.js';
import { EventStoreUnreachable } from './unreachable.js';
import {
  actualRevision,
  fromStored,
  isAfter,
  isSystemEvent,
  isTransient,
  toReadPosition,
  toStored,
  toPortError,
  toStreamState,
} from './kurrentdb-mapping.js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  schemaVersionOf,
  comparePositions,
  type StoreHistory,
  type SubscribeOptions,
  type Subscription,
  START,
  type Witness,
  WrongExpectedRevision,
} from './port.js';

/** What the client hands back for one event of a stream or of $all. */
interface StoredEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: { commit: bigint; prepare: bigint };
}

export interface KurrentDbLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export { EventStoreUnreachable };

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** Page size when head() looks backwards past KurrentDB's own events for the last one of ours. */
const HEAD_PAGE = 100;

/** The port's event for one stored event; system events are never asked for here. */
const toRecorded = (e: StoredEvent): RecordedEvent => {
  const { id, metadata, schemaVersion, createdAt } = fromStored(e.id, e.metadata, e.created);
  return {
    id,
    streamId: e.streamId,
    revision: Number(e.revision),
    position: e.position ?? START,
    type: e.type,
    data: e.data,
    metadata,
    schemaVersion,
    createdAt,
  };
};

/** Ours: an event with a position that is not KurrentDB's own. */
const isOurs = (e: StoredEvent | undefined): e is StoredEvent & { position: Position } =>
  !!e && !!e.position && !isSystemEvent(e.streamId, e.type);

/**
 * The EventStore port on KurrentDB (EventStoreDB's successor). One stream per aggregate
 * as in Postgres; the global order is KurrentDB's $all, whose commit/prepare position is
 * the port's Position as it is. Appends check the expected revision on the server.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly subscriptions = new Set<{ close(): Promise<void> }>();

  private constructor(
    private readonly client: KurrentDBClient,
    readonly address: string,
    private readonly log?: KurrentDbLog,
  ) {}

  /** A client for `url`; nothing is sent until the first call. */
  static create(url: string, log?: KurrentDbLog): KurrentDbEventStore {
    return new KurrentDbEventStore(
      KurrentDBClient.connectionString(normalizeConnectionString(url)),
      describeAddress(url),
      log,
    );
  }

  /** A client for `url` that answered one read, or EventStoreUnreachable naming the address. */
  static async connect(url: string, log?: KurrentDbLog): Promise<KurrentDbEventStore> {
    let store: KurrentDbEventStore;
    try {
      store = KurrentDbEventStore.create(url, log);
    } catch (error) {
      throw new EventStoreUnreachable(
        `KurrentDB at ${describeAddress(url)}: not a usable connection string (${(error as Error).message})`,
      );
    }
    try {
      await store.head();
      return store;
    } catch (error) {
      await store.close().catch(() => undefined);
      const e = error as Error;
      const why = e.message || e.name;
      throw new EventStoreUnreachable(
        `KurrentDB at ${describeAddress(url)} cannot be reached (${why}); check SVC_KURRENTDB_URL and that the node is up`,
      );
    }
  }

  /** The server pushes appends to subscriptions itself: there is nothing to wake here. */
  wake(): void {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, at: Date): Promise<AppendResult> {
    if (events.length === 0) return this.checkOnly(streamId, expected);
    const proposed = events.map((e) => {
      const { uuid, metadata } = toStored(e.id ?? newId(), e.metadata, at, schemaVersionOf(e));
      return { id: uuid, contentType: 'application/json', type: e.type, data: e.data ?? {}, metadata } as EventData;
    });
    try {
      const result = await this.client.appendToStream(streamId, proposed, { streamState: toStreamState(expected) });
      if (!result.success)
        throw new WrongExpectedRevision(streamId, expected, actualRevision(result.nextExpectedRevision));
      // the server answers with the position of the write's last event (commit = prepare = its log position)
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: result.position ?? (await this.lastOf(streamId)),
      };
    } catch (error) {
      throw toPortError(streamId, expected, error);
    }
  }

  /** An append of nothing: checks the expectation, writes nothing (KurrentDB has no such call). */
  private async checkOnly(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const last = (await this.readStreamBackwards(streamId, 1))[0];
    const actual = last ? Number(last.revision) : 'no_stream';
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (expected === 'stream_exists' && actual !== 'no_stream') ||
      expected === actual;
    if (!ok) throw new WrongExpectedRevision(streamId, expected, actual);
    return { nextRevision: actual === 'no_stream' ? -1 : actual, position: last?.position ?? START };
  }

  private async readStreamBackwards(streamId: string, count: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      for await (const r of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: count,
      })) {
        if (r.event) out.push(r.event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  private async lastOf(streamId: string): Promise<Position> {
    return (await this.readStreamBackwards(streamId, 1))[0]?.position ?? START;
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const r of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: BigInt(fromRevision),
      })) {
        if (r.event) out.push(toRecorded(r.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    let from = after;
    // KurrentDB's own events use up a page without counting: read on until `limit` of ours or the end
    while (out.length < limit) {
      const want = limit - out.length + 1; // the read includes the event at `from`
      let seen = 0;
      let last: Position | undefined;
      for await (const r of this.client.readAll({
        direction: FORWARDS,
        fromPosition: toReadPosition(from),
        maxCount: want,
      })) {
        seen++;
        const e = r.event as StoredEvent | undefined;
        if (e?.position) last = e.position;
        if (!isOurs(e) || !isAfter(e.position, after) || !isAfter(e.position, from)) continue;
        if (out.length < limit) out.push(toRecorded(e));
      }
      if (seen < want || !last || !isAfter(last, from)) break;
      from = last;
    }
    return out;
  }

  async head(): Promise<Position> {
    let from: 'end' | Position = END;
    for (;;) {
      let seen = 0;
      let last: Position | undefined;
      for await (const r of this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: HEAD_PAGE })) {
        seen++;
        const e = r.event as StoredEvent | undefined;
        if (isOurs(e)) return e.position;
        if (e?.position) last = e.position;
      }
      if (seen < HEAD_PAGE || !last) return START;
      from = last;
    }
  }

  /** KurrentDB's log has no writes that commit out of order: its head is everything committed. */
  lastCommitted(): Promise<Position> {
    return this.head();
  }

  /**
   * The head, and whether the witness is still the event at its position in $all (a read
   * from a position includes the event there). KurrentDB tells no line of history: a node
   * restored from a backup keeps its name and its log goes on from the backup's end.
   */
  async history(witness?: Witness): Promise<StoreHistory> {
    const head = await this.head();
    if (!witness) return { head };
    for await (const r of this.client.readAll({ direction: FORWARDS, fromPosition: witness.position, maxCount: 1 })) {
      const e = r.event as StoredEvent | undefined;
      const there =
        isOurs(e) && comparePositions(e.position, witness.position) === 0 && toRecorded(e).id === witness.id;
      return { head, witnessed: there };
    }
    return { head, witnessed: false };
  }

  subscribe(options: SubscribeOptions): Subscription {
    const subscription = new CatchUp(this.client, options, this.log);
    this.subscriptions.add(subscription);
    return {
      close: async () => {
        this.subscriptions.delete(subscription);
        await subscription.close();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.subscriptions.clear();
    await this.client.dispose();
  }
}

/** Raised by a batch handler: reported through onError, never retried here. */
class HandlerFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('onEvents failed');
  }
}

/** What a catch-up subscription needs of the client. */
export type SubscribingClient = Pick<KurrentDBClient, 'subscribeToAll'>;

/**
 * One catch-up subscription to $all: from a position, then live. Events are handed over
 * in batches of what arrived meanwhile; a dropped connection is opened again from the last
 * position handed to onEvents, and anything at or before it is skipped, so no event is
 * lost or repeated.
 */
export class CatchUp {
  private position: Position;
  private closed = false;
  private current: AllStreamSubscription | undefined;
  private readonly done: Promise<void>;
  private wake: (() => void) | undefined;
  private signalled = false;

  constructor(
    private readonly client: SubscribingClient,
    private readonly options: SubscribeOptions,
    private readonly log?: KurrentDbLog,
  ) {
    this.position = options.from;
    this.done = this.run();
  }

  private signal = () => {
    this.signalled = true;
    this.wake?.();
  };

  private sleep(ms: number): Promise<void> {
    if (this.signalled) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const before = this.position;
      try {
        await this.follow();
        if (this.closed) return;
        // the server ended the call: the same as a drop
        throw Object.assign(new Error('subscription ended by the server'), { type: 'unavailable' });
      } catch (error) {
        if (this.closed) return;
        if (error instanceof HandlerFailed) return this.options.onError?.(error.cause);
        if (!isTransient(error)) return this.options.onError?.(error);
        failures = isAfter(this.position, before) ? 1 : failures + 1;
        const pause = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** (failures - 1));
        this.log?.warn(
          { err: error, resumeAt: `${this.position.commit}/${this.position.prepare}`, retryInMs: pause },
          'KurrentDB subscription dropped; resubscribing',
        );
        this.signalled = false;
        await this.sleep(pause);
      }
    }
  }

  /** Reads one server subscription until it fails, ends, or this is closed. */
  private async follow(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    const sub = this.client.subscribeToAll(
      { fromPosition: toReadPosition(this.position) },
      { highWaterMark: batchSize },
    );
    this.current = sub;
    let failure: unknown;
    let ended = false;
    sub.on('readable', this.signal);
    sub.on('error', (error) => {
      failure ??= error;
      this.signal();
    });
    sub.on('end', () => {
      ended = true;
      this.signal();
    });
    sub.on('close', () => {
      ended = true;
      this.signal();
    });
    try {
      while (!this.closed) {
        this.signalled = false;
        const batch: RecordedEvent[] = [];
        let chunk: AllStreamResolvedEvent | null;
        while (batch.length < batchSize && (chunk = sub.read() as AllStreamResolvedEvent | null) !== null) {
          const e = chunk.event as StoredEvent | undefined;
          // at or before the last position handed over: a resumed call sending it again
          if (isOurs(e) && isAfter(e.position, this.position)) batch.push(toRecorded(e));
        }
        if (batch.length > 0) {
          try {
            await this.options.onEvents(batch);
          } catch (error) {
            throw new HandlerFailed(error);
          }
          this.position = batch[batch.length - 1]!.position;
          continue;
        }
        // the client's own error, handed on unchanged (its type is the client's)
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        if (failure) throw failure;
        if (ended || this.closed) return;
        if (sub.readableLength > 0) continue;
        await this.sleep(60_000);
      }
    } finally {
      this.current = undefined;
      sub.removeAllListeners('readable');
      sub.on('error', () => undefined); // a late error of a cancelled call is no one's business
      await sub.unsubscribe().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signal();
    await this.current?.unsubscribe().catch(() => undefined);
    await this.done;
  }
}
