import { type Decided, type Decider, decideSteps, type DomainEvent, type Step } from '../domain/decider.js';
import type { EventMetadata, EventStore, Position } from '../eventstore/port.js';
import { WrongExpectedRevision } from '../eventstore/port.js';
import { LRUCache } from 'lru-cache';
import { heapBytesOf } from './state-size.js';

export interface Handled<State, Event> {
  state: State;
  events: Event[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: Position | null;
}

/**
 * Decisions on the stored state before a conflict is given up. Between attempts a pause of
 * up to 2^attempt ms (random): a writer elsewhere that appends from its cache without reading
 * can otherwise win every race for a while, and a burst of its appends lasts tens of ms.
 */
export const MAX_ATTEMPTS = 8;
/** The cache's budget when none is given (tests): the service passes SVC_STATE_CACHE_MB's. */
export const DEFAULT_STATE_CACHE_BYTES = 32 * 2 ** 20;

/** The pause before deciding again after a conflict: up to 2^attempt ms, at random (see MAX_ATTEMPTS). */
export const pauseBeforeRetry = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));

interface Cached {
  decider: unknown;
  revision: number;
  state: unknown;
}

/** A cached state with what it is reckoned to hold (see `StreamStates.sized`). */
interface Held extends Cached {
  bytes: number;
  /** The last measured size, and the revision it was measured at. */
  measured: { bytes: number; revision: number };
}

/** The cache's own share of an entry: its key, its slots in the LRU's arrays and map. */
const ENTRY_BYTES = 160;

/**
 * Folded states by stream, so a command reads no events at all when its state is cached
 * (see `handle`) and a read reads only those appended since it last looked. Always safe: a
 * concurrent writer elsewhere is caught by the expected revision. Bounded by the heap its
 * states hold, not by their number: one inventory of 90,000 keys holds what thousands of
 * orders do, and a count that fits the one overflows a small heap with the other. The least
 * recently used states go first; a state larger than the whole budget is not kept.
 */
export class StreamStates {
  private readonly states: LRUCache<string, Held>;
  /** Raised by `clear`: a state folded from what the cache held before is dropped, not kept. */
  private generation = 0;
  private readonly queues = new Map<string, Promise<unknown>>();
  private watching: () => boolean = () => false;

  constructor(options: { maxBytes?: number } = {}) {
    this.states = new LRUCache<string, Held>({
      maxSize: options.maxBytes ?? DEFAULT_STATE_CACHE_BYTES,
      sizeCalculation: (held, streamId) => held.bytes + ENTRY_BYTES + streamId.length,
    });
  }

  /** The budget, and what the states held now are reckoned to take of it. */
  get size(): { streams: number; bytes: number; maxBytes: number } {
    return { streams: this.states.size, bytes: this.states.calculatedSize, maxBytes: this.states.maxSize };
  }

  /**
   * Has the process's subscription (`watch`) evict every state another writer moved on, so a
   * read may use a cached state without reading the stream's tail. `live` says whether the
   * subscription is reading: while it is not, reads look at the tail again.
   */
  watchedBy(live: () => boolean): void {
    this.watching = live;
  }

  /** Reads may trust a cached state: it is at most as old as the subscription's lag. */
  get trusted(): boolean {
    return this.watching();
  }

  /** Forgets the states of streams that gained events this cache has not folded. */
  observe(events: readonly { streamId: string; revision: number }[]): void {
    for (const e of events) {
      const hit = this.states.peek(e.streamId);
      if (hit && hit.revision < e.revision) this.states.delete(e.streamId);
    }
  }

  get(streamId: string, decider: unknown): Cached | undefined {
    const hit = this.states.peek(streamId);
    if (!hit || hit.decider !== decider) return undefined;
    this.states.get(streamId); // refreshes its place in the LRU order
    return hit;
  }

  /**
   * What the cache holds now, for `set`: a command or read that began on it keeps what it
   * folds only while the cache was not cleared meanwhile (its state may be of a lost history).
   */
  get mark(): number {
    return this.generation;
  }

  set(streamId: string, value: Cached, mark = this.generation): void {
    if (mark !== this.generation) return;
    this.states.set(streamId, this.sized(value, this.states.peek(streamId)));
  }

  /**
   * Walking a state to measure it costs its size, so it is done only once the stream grew a
   * quarter past its last measure (at least 4 events); in between its size is taken to grow
   * with its events. Every event then pays a constant share of the walks, a large state's
   * reckoning runs at most about a quarter short, and a small one's errs high.
   */
  private sized(value: Cached, before: Held | undefined): Held {
    const last = before && before.decider === value.decider ? before.measured : undefined;
    if (last && value.revision >= last.revision && value.revision <= last.revision + Math.max(4, last.revision / 4))
      return { ...value, measured: last, bytes: Math.ceil((last.bytes * (value.revision + 2)) / (last.revision + 2)) };
    const bytes = heapBytesOf(value.state);
    return { ...value, measured: { bytes, revision: value.revision }, bytes };
  }

  forget(streamId: string): void {
    this.states.delete(streamId);
  }

  /**
   * Forgets every state (the store went back in time: they may be of a history it lost), and
   * what commands under way fold from them.
   */
  clear(): void {
    this.states.clear();
    this.generation++;
  }

  /**
   * A stream about to be created under an id no one can have used (a fresh operation's): its
   * state is known to be the initial one without a read. Were it not, the append at
   * `no_stream` would fail and the command read the stream after all.
   */
  created(streamId: string, decider: { initialState: unknown }): void {
    this.set(streamId, { decider, revision: -1, state: decider.initialState });
  }

  /**
   * Runs commands on one stream one after another inside this process: concurrent
   * checkouts on one inventory then queue instead of failing on revision conflicts.
   */
  serialize<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(streamId) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(streamId, tail);
    void tail.then(() => {
      if (this.queues.get(streamId) === tail) this.queues.delete(streamId);
    });
    return run;
  }
}

/** Reads a stream's current state (through the cache when given). */
export const load = async <State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  cache?: StreamStates,
  /** Read the stream's tail even when the cached state is trusted (a command proved it stale). */
  fresh = false,
): Promise<{ state: State; revision: number }> => {
  const mark = cache?.mark;
  const cached = cache?.get(streamId, decider);
  if (cached && cache?.trusted && !fresh) return { state: cached.state as State, revision: cached.revision };
  let state = (cached?.state as State | undefined) ?? decider.initialState;
  let revision = cached?.revision ?? -1;
  const tail = await store.readStream(streamId, revision + 1);
  // the service's store hands out events upcast to their type's current shape (eventstore/upcast.ts)
  for (const e of tail) state = decider.evolve(state, e as unknown as Event);
  const last = tail.at(-1);
  if (last) revision = last.revision;
  // a stream found empty is remembered too: the command that creates it appends at no_stream
  // without reading it again (and the expected revision catches a creator elsewhere)
  if (cache && (revision >= 0 || cache.trusted)) cache.set(streamId, { decider, revision, state }, mark);
  return { state, revision };
};

/**
 * The state of `streamId` as a command or a process reads it before deciding: through the
 * service's cache of folded states (`load`), without the revision a write would expect.
 */
export const stateOf = async <State, Command, Event extends DomainEvent>(
  deps: { store: EventStore; states?: StreamStates },
  streamId: string,
  decider: Decider<State, Command, Event>,
  /** Read the stream's tail even when the cached state is trusted (`load`'s `fresh`). */
  options: { fresh?: boolean } = {},
): Promise<State> => (await load(deps.store, streamId, decider, deps.states, options.fresh)).state;

/**
 * A wrong revision below the one a state was folded to: the stream holds less than it did
 * when that state was folded, which only a store that went back in time does. The state is
 * of a lost history: reading the tail after it would fold the new history onto it.
 */
export const wentBack = (error: WrongExpectedRevision): boolean =>
  typeof error.expected === 'number' && (error.actual === 'no_stream' || error.actual < error.expected);

/**
 * Decide on the stream's state and append at the revision it was folded from. A cached state
 * is trusted for the first attempt without reading the stream's tail: the append's expected
 * revision proves it current, and a writer elsewhere makes the append fail. Then, and when a
 * cached state refuses the command or finds nothing to do (a fresher one might not), the
 * tail is read and the decision made again.
 */
export const handle = async <State, Command extends object, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  /** One command, or a request's steps on this stream: decided in order, appended together. */
  steps: readonly Step<State, Command>[],
  context: { at: Date; metadata: EventMetadata; cache?: StreamStates },
): Promise<Handled<State, Event>> => {
  const run = async (): Promise<Handled<State, Event>> => {
    // attempts on a stored state; a cached one goes first and does not count
    let attempt = 0;
    for (let first = true; ; first = false) {
      const mark = context.cache?.mark;
      const cached = first ? context.cache?.get(streamId, decider) : undefined;
      if (!cached) attempt++;
      const { state, revision } = cached
        ? { state: cached.state as State, revision: cached.revision }
        : await load(store, streamId, decider, context.cache, !first);
      let decided: Decided<State, Event>;
      try {
        decided = decideSteps(decider, steps, state);
      } catch (error) {
        if (cached) continue; // refused on a state that may be stale: decide on the stored one
        throw error;
      }
      const { events } = decided;
      if (events.length === 0) {
        if (cached) continue;
        return { state, events, position: null };
      }
      const appending = store.append(
        streamId,
        events.map((e) => ({ type: e.type, data: e.data, metadata: context.metadata })),
        revision === -1 ? 'no_stream' : revision,
        context.at,
      );
      // awaited below; this only keeps a failure from counting as unhandled meanwhile
      appending.catch(() => undefined);
      try {
        // The state after the events is folded while the append travels (a 1,000-key upload
        // folds for milliseconds): the pool sends the statement on the next tick, so let it,
        // then fold. Kept only once the append succeeded.
        await new Promise<void>((resolve) => process.nextTick(resolve));
        const next = decided.last.reduce(decider.evolve, decided.before);
        const result = await appending;
        context.cache?.set(streamId, { decider, revision: result.nextRevision, state: next }, mark);
        return { state: next, events, position: result.position };
      } catch (error) {
        // an append whose answer was lost (the database went away) may have committed, and a
        // stream holding less than the cached state (`wentBack`) makes it one of a lost
        // history: either way the cached state is not known current, and a retry reads the stream
        const conflict = error instanceof WrongExpectedRevision;
        if (!conflict || wentBack(error)) context.cache?.forget(streamId);
        if (!conflict || attempt >= MAX_ATTEMPTS) throw error;
        if (attempt > 0) await pauseBeforeRetry(attempt);
      }
    }
  };
  return context.cache ? context.cache.serialize(streamId, run) : run();
};
