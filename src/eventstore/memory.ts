import { newId } from '../ids.js';
import {
  type AppendOptions,
  type AppendResult,
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  schemaVersionOf,
  START,
  type StoreHistory,
  type StreamAppend,
  type SubscribeOptions,
  type Subscription,
  type Witness,
  WrongExpectedRevision,
} from './port.js';

/** Whether a stream whose last revision is `actual` meets `expected`. */
const meets = (expected: ExpectedRevision, actual: number | 'no_stream'): boolean =>
  expected === 'any' ||
  (expected === 'no_stream' && actual === 'no_stream') ||
  (expected === 'stream_exists' && actual !== 'no_stream') ||
  expected === actual;

/**
 * What a stored event holds is what JSON keeps (as in a jsonb column or KurrentDB's JSON
 * events): a Date comes back a string, an undefined field is gone, and no caller shares an
 * object with the store.
 */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

/** A reader's copy: what it changes is not what the store holds. */
const copy = (e: RecordedEvent): RecordedEvent => ({
  ...e,
  data: structuredClone(e.data),
  metadata: structuredClone(e.metadata),
  createdAt: new Date(e.createdAt.getTime()),
});

/**
 * An event store in this process's memory: for tests of the write path and the process
 * managers without a database, held to the same conformance suite as the Postgres and
 * KurrentDB adapters (test/eventstore/memory.spec.ts). Every append is one transaction of
 * its own, so `commit` numbers the appends and `prepare` numbers the events; nothing is
 * ever held back from readers (`head` is `lastCommitted`). Its history has no line: it
 * cannot go back in time.
 */
export class InMemoryEventStore implements EventStore {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly subscribers = new Set<() => void>();
  private commits = 0n;
  private closed = false;

  async append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    at: Date,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const actual = this.lastRevision(streamId);
    if (!meets(expected, actual)) throw new WrongExpectedRevision(streamId, expected, actual);
    if (events.length === 0)
      return {
        nextRevision: actual === 'no_stream' ? -1 : actual,
        position: this.streams.get(streamId)?.at(-1)?.position ?? START,
      };
    const [result] = this.write([{ streamId, events }], at);
    if (!options?.quiet) this.wake();
    return result!;
  }

  async appendMany(appends: StreamAppend[], at: Date, options?: AppendOptions): Promise<AppendResult[]> {
    if (new Set(appends.map((a) => a.streamId)).size !== appends.length)
      throw new Error('an append to several streams names each stream once');
    const empty = appends.find((a) => a.events.length === 0);
    if (empty) throw new Error(`an append to several streams has events for each: none for ${empty.streamId}`);
    // every part is checked before any is written: all or nothing
    for (const a of appends) {
      const actual = this.lastRevision(a.streamId);
      if (!meets(a.expected, actual)) throw new WrongExpectedRevision(a.streamId, a.expected, actual);
    }
    const results = this.write(appends, at);
    if (!options?.quiet) this.wake();
    return results;
  }

  wake(): void {
    for (const wake of this.subscribers) wake();
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return (this.streams.get(streamId) ?? []).slice(Math.max(0, fromRevision)).map(copy);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    // positions grow with the array: the first event after `after` is found by halving
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (comparePositions(this.all[mid]!.position, after) <= 0) low = mid + 1;
      else high = mid;
    }
    return this.all.slice(low, low + limit).map(copy);
  }

  async head(): Promise<Position> {
    return this.all.at(-1)?.position ?? START;
  }

  async lastCommitted(): Promise<Position> {
    return this.head();
  }

  subscribe(options: SubscribeOptions): Subscription {
    let open = true;
    let wakeUp: (() => void) | undefined;
    const wake = () => wakeUp?.();
    this.subscribers.add(wake);
    const run = async () => {
      for (let from = options.from; open && !this.closed;) {
        const batch = await this.readAll(from, options.batchSize ?? 500);
        if (batch.length === 0) {
          await new Promise<void>((resolve) => (wakeUp = resolve));
          continue;
        }
        await options.onEvents(batch);
        from = batch[batch.length - 1]!.position;
      }
    };
    const running = run().catch((error: unknown) => options.onError?.(error));
    return {
      close: async () => {
        open = false;
        this.subscribers.delete(wake);
        wake();
        await running;
      },
    };
  }

  async history(witness?: Witness): Promise<StoreHistory> {
    const head = await this.head();
    if (!witness) return { head };
    const found = this.all.find((e) => comparePositions(e.position, witness.position) === 0);
    return { head, witnessed: found?.id === witness.id };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    this.subscribers.clear();
  }

  private lastRevision(streamId: string): number | 'no_stream' {
    const last = this.streams.get(streamId)?.at(-1);
    return last ? last.revision : 'no_stream';
  }

  /** The parts as one commit: their events take positions in the order given. */
  private write(parts: { streamId: string; events: NewEvent[] }[], at: Date): AppendResult[] {
    // a bad schema version is refused before anything is written
    for (const part of parts) part.events.forEach(schemaVersionOf);
    const commit = ++this.commits;
    return parts.map(({ streamId, events }) => {
      const stream = this.streams.get(streamId) ?? [];
      this.streams.set(streamId, stream);
      for (const event of events) {
        const recorded: RecordedEvent = {
          id: event.id ?? newId(),
          streamId,
          revision: stream.length,
          position: { commit, prepare: BigInt(this.all.length + 1) },
          type: event.type,
          data: stored(event.data),
          metadata: stored(event.metadata ?? {}),
          schemaVersion: schemaVersionOf(event),
          createdAt: new Date(at.getTime()),
        };
        stream.push(recorded);
        this.all.push(recorded);
      }
      const last = stream[stream.length - 1];
      if (!last) throw new Error(`an append to ${streamId} without events`);
      return { nextRevision: last.revision, position: last.position };
    });
  }
}
