/**
 * A process manager as pure decisions (the workflow pattern: decide and evolve). `decide`
 * answers what to do for one input (a timer that fell due, or a call's answer) given the
 * state; `evolve` folds an input into the state, so the next input of the same run is
 * decided against what the last one changed. The runner (src/processes/workflow-runner.ts)
 * loads the state, performs the actions and feeds each call's answer back as the next input.
 */
export interface Workflow<Input extends { type: string }, State, Action extends { kind: string }> {
  readonly name: string;
  readonly initialState: State;
  decide(input: Input, state: State): Action[];
  evolve(state: State, input: Input): State;
}

/** One function per input type: each decides only its own input. */
export type Deciders<Input extends { type: string }, State, Action> = {
  [T in Input['type']]: (input: Extract<Input, { type: T }>, state: State) => Action[];
};

/** The inputs that change the state, one function each; the rest leave it as it is. */
export type Evolvers<Input extends { type: string }, State> = {
  [T in Input['type']]?: (state: State, input: Extract<Input, { type: T }>) => State;
};

/** A workflow from its deciders and evolvers, each picked by the input's type. */
export const workflow = <Input extends { type: string }, State, Action extends { kind: string }>(spec: {
  name: string;
  initialState: State;
  decide: Deciders<Input, State, Action>;
  evolve?: Evolvers<Input, State>;
}): Workflow<Input, State, Action> => ({
  name: spec.name,
  initialState: spec.initialState,
  decide: (input, state) =>
    (spec.decide[input.type as Input['type']] as (i: Input, s: State) => Action[])(input, state),
  evolve: (state, input) => {
    const fold = spec.evolve?.[input.type as Input['type']] as ((s: State, i: Input) => State) | undefined;
    return fold ? fold(state, input) : state;
  },
});

/**
 * One input through a workflow: folded into the state first, then decided against the state
 * it leaves (an answer is decided knowing what it changed).
 */
export const step = <Input extends { type: string }, State, Action extends { kind: string }>(
  w: Workflow<Input, State, Action>,
  state: State,
  input: Input,
): { state: State; actions: Action[] } => {
  const next = w.evolve(state, input);
  return { state: next, actions: w.decide(input, next) };
};

/** The state the inputs leave, folded from `state` (a test's "given"). */
export const foldInputs = <Input extends { type: string }, State, Action extends { kind: string }>(
  w: Workflow<Input, State, Action>,
  inputs: readonly Input[],
  state: State = w.initialState,
): State => inputs.reduce(w.evolve, state);
