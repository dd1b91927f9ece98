import type { Decider, DomainEvent } from '../domain/decider.js';
import type { EventMetadata, EventStore, Position } from '../eventstore/port.js';
import { WrongExpectedRevision } from '../eventstore/port.js';

export interface Handled<State, Event> {
  state: State;
  events: Event[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: Position | null;
}

const MAX_ATTEMPTS = 5;

/**
 * Load the stream, fold, decide, append at the revision that was read. A concurrent writer
 * makes the append fail; then the decision is made again on the fresher state.
 */
export const handle = async <State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: { at: Date; metadata: EventMetadata; eventIds?: (index: number) => string | undefined },
): Promise<Handled<State, Event>> => {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamId);
    const state = recorded.reduce((s, e) => decider.evolve(s, e as unknown as Event), decider.initialState);
    const events = decider.decide(command, state);
    if (events.length === 0) return { state, events, position: null };
    const expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision;
    try {
      const result = await store.append(
        streamId,
        events.map((e, i) => ({ id: context.eventIds?.(i), type: e.type, data: e.data, metadata: context.metadata })),
        expected,
        context.at,
      );
      return { state: events.reduce(decider.evolve, state), events, position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedRevision && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
};
