import type { DomainEvent } from './decider.js';

/**
 * A decider's evolve as one small function per event type: the map names every type of the
 * union (the compiler refuses a missing one), and `evolveWith` dispatches on it.
 */

/** The data of one event of a union. */
export type EventData<E extends DomainEvent, T extends E['type']> = Extract<E, { type: T }>['data'];

/** How each event type changes the state. */
export type Evolvers<S, E extends DomainEvent> = { [T in E['type']]: (state: S, data: EventData<E, T>) => S };

/** Folds an event with the function of its type. */
export const evolveWith =
  <S, E extends DomainEvent>(evolvers: Evolvers<S, E>) =>
  (state: S, event: E): S => {
    const type: E['type'] = event.type;
    return evolvers[type](state, event.data);
  };
