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

/**
 * One step of a request on one stream: a command, none (null), or a function that picks the
 * command (or none) from the state the earlier steps left. A request's steps on one stream
 * are decided in order and appended together, so they cost one write instead of one each.
 */
export type Step<State, Command> = Command | null | ((state: State) => Command | null);

/** The events of several steps, each decided on the state the ones before it left. */
export const decideSteps = <State, Command extends object, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  steps: readonly Step<State, Command>[],
  state: State,
): Event[] => {
  const events: Event[] = [];
  let current = state;
  for (const step of steps) {
    const command = typeof step === 'function' ? step(current) : step;
    if (command === null) continue;
    const decided = decider.decide(command, current);
    events.push(...decided);
    current = decided.reduce(decider.evolve, current);
  }
  return events;
};
