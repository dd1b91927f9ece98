import { type Decider, decideSteps, type DomainEvent, type Step } from '../domain/decider.js';
import { appendTogether } from '../eventstore/append-together.js';
import {
  comparePositions,
  type EventMetadata,
  type EventStore,
  type Position,
  WrongExpectedRevision,
} from '../eventstore/port.js';
import { required } from '../domain/required.js';
import { load, MAX_ATTEMPTS, pauseBeforeRetry, type StreamStates, wentBack } from './handle.js';

/** A stream a write together may touch, with the decider that folds it (see `streamOf`). */
export interface StreamOf {
  readonly streamId: string;
  readonly decider: unknown;
}

/** Names a stream and its decider for `handleTogether`. */
export const streamOf = <S, C, E extends DomainEvent>(streamId: string, decider: Decider<S, C, E>): StreamOf => ({
  streamId,
  decider,
});

/** What the decision of a write together sees: the streams it named, each as the decision left it so far. */
export interface Writes {
  /** The stream's state as this write has left it so far, deciding nothing. */
  peek<S, C, E extends DomainEvent>(streamId: string, decider: Decider<S, C, E>): S;
  /**
   * Decides `steps` on the stream's state, with every event decided on it so far in this
   * write folded in, and adds their events to the write. Returns the state after them.
   */
  on<S, C extends object, E extends DomainEvent>(
    streamId: string,
    decider: Decider<S, C, E>,
    steps: readonly Step<S, C>[],
  ): { state: S; events: E[] };
}

interface Entry {
  decider: unknown;
  state: unknown;
  revision: number;
  /** Decided on a cached state, which the append proves current or not. */
  cached: boolean;
  decided: boolean;
  events: DomainEvent[];
}

/**
 * Decides on several streams at once and appends what was decided in one write
 * (`appendTogether`): the steps of one request that belong together (the last key's
 * hand-over, the order's capture, the sale entries it earns) then cost one durable write
 * instead of one each, and a crash leaves all of them or none.
 *
 * `decide` runs on the streams' states (cached ones first, as `handle` does), calls
 * `writes.on` for each stream in the order its events belong in, and may use what one
 * stream's decision left (the keys handed over) in the next. It must not do I/O: it runs
 * again, on the stored states, after a conflict on any of the streams, after a refusal on a
 * cached state, and when a cached state gave nothing to do. Inside this process the
 * streams' commands queue as `handle`'s do, the streams taken in one order (by id), so two
 * writes together never wait for each other in a circle.
 */
export const handleTogether = async <T>(
  store: EventStore,
  streams: readonly StreamOf[],
  decide: (writes: Writes) => T,
  context: { at: Date; metadata: EventMetadata; cache?: StreamStates },
): Promise<{ result: T; position: Position | null }> => {
  const { cache } = context;
  const run = async () => {
    for (let attempt = 0; ; attempt++) {
      const mark = cache?.mark;
      const entries = await loadAll(store, streams, attempt === 0 ? cache : undefined, cache);
      const cached = [...entries.values()].some((e) => e.cached);
      let result: T;
      try {
        result = decide(writesOn(entries));
      } catch (error) {
        if (cached) continue; // refused on a state that may be stale: decide on the stored ones
        throw error;
      }
      // a cached state that gave nothing to do may be stale too
      if ([...entries.values()].some((e) => e.cached && e.decided && e.events.length === 0)) continue;
      const parts = [...entries].filter(([, e]) => e.events.length > 0);
      if (parts.length === 0) return { result, position: null };
      try {
        const results = await appendTogether(
          store,
          parts.map(([streamId, e]) => ({
            streamId,
            events: e.events.map((event) => ({ type: event.type, data: event.data, metadata: context.metadata })),
            expected: e.revision === -1 ? 'no_stream' : e.revision,
          })),
          context.at,
        );
        parts.forEach(([streamId, e], i) => {
          const appended = required(results[i], `the append's result for stream ${streamId}`);
          cache?.set(streamId, { decider: e.decider, revision: appended.nextRevision, state: e.state }, mark);
        });
        const position = results.map((r) => r.position).reduce((high, p) => (comparePositions(p, high) > 0 ? p : high));
        return { result, position };
      } catch (error) {
        // an append whose answer was lost may have committed: the cached states are no longer
        // known current, and a later command must read the streams. After a wrong revision
        // (with a store without appendMany, the parts before it written) the next attempt
        // reads each stream's tail after its cached state, so the states stay.
        if (!(error instanceof WrongExpectedRevision)) parts.forEach(([streamId]) => cache?.forget(streamId));
        // a stream that holds less than its state was folded to: that state is of a lost history
        else if (wentBack(error)) cache?.forget(error.streamId);
        if (!(error instanceof WrongExpectedRevision) || attempt + 1 >= MAX_ATTEMPTS) throw error;
        await pauseBeforeRetry(attempt);
      }
    }
  };
  if (!cache) return run();
  const ids = [...new Set(streams.map((s) => s.streamId))].sort();
  const queued = ids.reduceRight<() => Promise<{ result: T; position: Position | null }>>(
    (inner, streamId) => () => cache.serialize(streamId, inner),
    run,
  );
  return queued();
};

/** Each stream's state: from the cache when `from` is given and holds it, else read (fresh on a retry). */
const loadAll = async (
  store: EventStore,
  streams: readonly StreamOf[],
  from: StreamStates | undefined,
  cache: StreamStates | undefined,
): Promise<Map<string, Entry>> => {
  const loaded = await Promise.all(
    streams.map(async ({ streamId, decider }): Promise<[string, Entry]> => {
      const hit = from?.get(streamId, decider);
      if (hit)
        return [
          streamId,
          { decider, state: hit.state, revision: hit.revision, cached: true, decided: false, events: [] },
        ];
      const { state, revision } = await load(
        store,
        streamId,
        decider as Decider<unknown, never, DomainEvent>,
        cache,
        !from,
      );
      return [streamId, { decider, state, revision, cached: false, decided: false, events: [] }];
    }),
  );
  return new Map(loaded);
};

const writesOn = (entries: Map<string, Entry>): Writes => {
  const named = (streamId: string, decider: unknown): Entry => {
    const entry = entries.get(streamId);
    if (!entry || entry.decider !== decider) throw new Error(`stream ${streamId} was not named with this decider`);
    return entry;
  };
  return {
    peek: <S, C, E extends DomainEvent>(streamId: string, decider: Decider<S, C, E>) =>
      named(streamId, decider).state as S,
    on: <S, C extends object, E extends DomainEvent>(
      streamId: string,
      decider: Decider<S, C, E>,
      steps: readonly Step<S, C>[],
    ) => {
      const entry = named(streamId, decider);
      const decided = decideSteps(decider, steps, entry.state as S);
      const state = decided.last.reduce(decider.evolve, decided.before);
      entry.state = state;
      entry.decided = true;
      entry.events.push(...decided.events);
      return { state, events: decided.events };
    },
  };
};
