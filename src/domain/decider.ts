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

/** What a request's steps decided: every event, and the state they leave but for the last step's. */
export interface Decided<State, Event> {
  events: Event[];
  /** The state after every event but `last`: the state after all of them is `last` folded onto it. */
  before: State;
  /** The events of the last step, not folded yet. */
  last: Event[];
}

/**
 * The events of several steps, each decided on the state the ones before it left. The last
 * deciding step's events are left unfolded: the caller folds them while they are appended
 * (a 1,000-key upload's fold takes milliseconds), instead of folding them twice.
 */
export const decideSteps = <State, Command extends object, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  steps: readonly Step<State, Command>[],
  state: State,
): Decided<State, Event> => {
  const events: Event[] = [];
  let before = state;
  let last: Event[] = [];
  for (const step of steps) {
    if (last.length > 0) {
      before = last.reduce(decider.evolve, before);
      last = [];
    }
    const command = typeof step === 'function' ? step(before) : step;
    if (command === null) continue;
    last = decider.decide(command, before);
    events.push(...last);
  }
  return { events, before, last };
};
