/**
 * The event store port. Every adapter (Postgres today, KurrentDB later) passes the same
 * conformance suite in test/eventstore/conformance.ts, written against this file only.
 */

/**
 * A place in the global order. Like KurrentDB's $all position it has two parts: `commit`
 * orders transactions, `prepare` orders events inside them. Compare with `comparePositions`.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = { commit: 0n, prepare: 0n };

export const comparePositions = (a: Position, b: Position): number =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

/** Every event after `from` in global order, a page of at most `size` at a time. */
export async function* pagesOf(
  store: Pick<EventStore, 'readAll'>,
  from: Position,
  size: number,
): AsyncGenerator<RecordedEvent[]> {
  for (let after = from; ;) {
    const page = await store.readAll(after, size);
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]!.position;
  }
}

export const formatPosition = (p: Position): string => `${p.commit}/${p.prepare}`;

export const parsePosition = (s: string): Position => {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`not a position: ${s}`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
};

export interface EventMetadata {
  correlation_id?: string;
  causation_id?: string;
  supplier_id?: string;
  /** `test` in the sandbox, `live` in production, as the spec's envelope `mode`. */
  mode?: 'test' | 'live';
  [key: string]: unknown;
}

export interface NewEvent {
  /** A ULID; given by the caller when the event must have a deterministic id. */
  id?: string;
  type: string;
  data: unknown;
  metadata?: EventMetadata;
  /** The version of `data`'s shape (a positive integer); 1 when absent. See upcast.ts. */
  schemaVersion?: number;
}

export const MAX_SCHEMA_VERSION = 32_767;

/** The version an append stores for `event`: 1 when not given. Anything but 1..32767 is a bug, refused before writing. */
export const schemaVersionOf = (event: NewEvent): number => {
  const version = event.schemaVersion ?? 1;
  if (!Number.isInteger(version) || version < 1 || version > MAX_SCHEMA_VERSION)
    throw new Error(
      `event type ${event.type}: schema version must be an integer from 1 to ${MAX_SCHEMA_VERSION}, not ${String(version)}`,
    );
  return version;
};

export interface RecordedEvent<T = unknown> {
  id: string;
  streamId: string;
  /** 0 for a stream's first event. */
  revision: number;
  position: Position;
  type: string;
  data: T;
  metadata: EventMetadata;
  /** The version of `data`'s shape: as stored (1 for events from before versions), or after upcasting. */
  schemaVersion: number;
  createdAt: Date;
}

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: its last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last event written (the stream's revision afterwards). */
  nextRevision: number;
  position: Position;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export interface Subscription {
  close(): Promise<void>;
}

export interface SubscribeOptions {
  from: Position;
  batchSize?: number;
  /** Called with each batch in global order; the next batch waits for the returned promise. */
  onEvents(events: RecordedEvent[]): Promise<void>;
  onError?(error: unknown): void;
}

export interface AppendOptions {
  /**
   * Leaves this process's subscribers asleep: a request that appends several times wakes
   * them once, with `wake()`, after its last append, so they read its events in one batch
   * instead of starting one on its first append and another once that ends. Other
   * processes hear of the append as ever.
   */
  quiet?: boolean;
}

/** One stream's part of an atomic append to several streams (`appendMany`). */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  /** The stream's last revision, or `no_stream`: a part always names where it goes. */
  expected: 'no_stream' | number;
}

/** An event a reader saw, named by its id at its position: still stored, or lost with a rewind. */
export interface Witness {
  id: string;
  position: Position;
}

/**
 * What a store says of its own history, read at once (`history`): how a process notices
 * that the store went back in time under it (a failover that lost acknowledged commits, a
 * restore from backup) while it still holds what it read before (src/eventstore/rewind.ts).
 */
export interface StoreHistory {
  /** The last committed event's position, as `lastCommitted` answers it. */
  head: Position;
  /** Whether the witness asked about is still stored where it was; absent when none was asked. */
  witnessed?: boolean;
  /** The server's line of history and its place on it, where the store has them (`Line`). */
  line?: Line;
}

/**
 * Which history a server writes and where on it: Postgres's system identifier, the
 * database's oid (a database restored beside the old one and renamed into its place is
 * another), the timeline and how far its WAL is flushed (a number of bytes). Absent in
 * KurrentDB and on a server still in recovery.
 */
export interface Line {
  system: string;
  database: string;
  timeline: number;
  wal: bigint;
}

export interface EventStore {
  append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    at: Date,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /**
   * Appends to several streams in one transaction: every part is written, or none is (a
   * part whose expected revision is wrong fails them all with WrongExpectedRevision naming
   * that part's stream). Results in the order of the parts; the parts' events take global
   * positions in that order too. Each stream at most once; no part without events.
   * Optional: `appendTogether` (append-together.ts) falls back to one append after another
   * on a store without it.
   */
  appendMany?(appends: StreamAppend[], at: Date, options?: AppendOptions): Promise<AppendResult[]>;
  /** Wakes this process's subscribers (after quiet appends). */
  wake(): void;
  /** Events of one stream from a revision on, in order; empty when the stream does not exist. */
  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** Events strictly after `after`, in global order, never skipping one that commits later. */
  readAll(after: Position, limit: number): Promise<RecordedEvent[]>;
  /** Position of the last event a reader can see now (START when empty). */
  head(): Promise<Position>;
  /**
   * Position of the last committed event, readable yet or not (START when empty): where
   * `head` stops short of it, readers reach it once the older writes still running end.
   * What a wait for "everything written so far" waits for.
   */
  lastCommitted(): Promise<Position>;
  /** Catch-up from `from`, then live: every event exactly once, in global order. */
  subscribe(options: SubscribeOptions): Subscription;
  /** The store's head, its line of history and whether `witness` is still stored, in one read. */
  history(witness?: Witness): Promise<StoreHistory>;
  close(): Promise<void>;
}
