/** The shape every aggregate takes: fold events into state, decide new events from a command. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  /** Throws DomainError when the command breaks a rule; [] when it changes nothing. */
  decide(command: Command, state: State): Event[];
}

/** The data of one command of a union, for the functions that decide one command each. */
export type CommandData<C extends DomainEvent, T extends C['type']> = Extract<C, { type: T }>['data'];
