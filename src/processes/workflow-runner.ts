import { step, type Workflow } from '../domain/workflow.js';
import type { TimerKind, TimerPayloads } from './timer-kinds.js';
import type { DueTimer, TimerOutcome, Timers } from './timers.js';

/** What performing an action answers: the next input (a call's answer), a time to run the due timer again, or nothing. */
export type Performed<I> = I | { runAgainAt: Date } | void;

/** A durable timer a workflow schedules (a retry, the next attempt, a poll): one of the kinds of timer-kinds.ts. */
export type ScheduleAction = {
  [K in TimerKind]: { kind: 'schedule'; timer: K; key: string; at: Date; payload: TimerPayloads[K] };
}[TimerKind];

/** The due timer runs again at `at` (the next poll of the same thing). */
export interface PollAgainAction {
  kind: 'pollAgain';
  at: Date;
}

type Generic = 'schedule' | 'pollAgain';

/** A workflow whose `schedule` actions are not all timers of timer-kinds.ts with their payloads does not compile. */
type SchedulesKnownTimers<A> = [Extract<A, { kind: 'schedule' }>] extends [ScheduleAction] ? unknown : never;

/** How a workflow's own actions are performed (its calls and commands), one function per kind. */
export type Performers<R, I, A extends { kind: string }> = {
  [K in Exclude<A['kind'], Generic>]: (run: R, action: Extract<A, { kind: K }>) => Promise<Performed<I>>;
};

/** What a due timer of one kind runs: what it loads (the run) and the input it is. */
export type Start<Env, R, I> = { [K in TimerKind]?: (env: Env, t: DueTimer<TimerPayloads[K]>) => Promise<[R, I]> };

/** A workflow with what it takes to run it: its state read from a run, its actions' performers, its timers. */
export interface WorkflowRunner<Env, R, S, I extends { type: string }, A extends { kind: string }> {
  workflow: Workflow<I, S, A>;
  /** The state a run starts from, read from what it loaded. */
  stateOf(run: R): S;
  perform: Performers<R, I, A>;
  start: Start<Env, R, I>;
}

/**
 * The one interpreter of every workflow: each input is folded and decided, its actions are
 * performed in order, and a call's answer is folded and decided at once, depth first. Timers
 * (`schedule`, retries and next attempts among them) and `pollAgain` are performed here, the
 * same for all; the run's outcome is the last `pollAgain` (the timer runs again then) or
 * nothing (done). A run that throws is retried by the timers with their backoff.
 */
export const registerWorkflow = <Env, R, S, I extends { type: string }, A extends { kind: string }>(
  timers: Timers,
  runner: WorkflowRunner<Env, R, S, I, A> & SchedulesKnownTimers<A>,
  env: Env,
) => {
  const perform = async (run: R, action: A): Promise<Performed<I>> => {
    if (action.kind === 'pollAgain') return { runAgainAt: (action as unknown as PollAgainAction).at };
    if (action.kind === 'schedule') {
      const a = action as unknown as ScheduleAction;
      return void (await timers.schedule(a.timer, a.key, a.at, a.payload));
    }
    const own = runner.perform[action.kind as Exclude<A['kind'], Generic>] as (r: R, a: A) => Promise<Performed<I>>;
    return own(run, action);
  };

  const handle = async (run: R, state: S, input: I): Promise<{ state: S; outcome: TimerOutcome }> => {
    const decided = step(runner.workflow, state, input);
    let result: { state: S; outcome: TimerOutcome } = { state: decided.state, outcome: undefined };
    for (const action of decided.actions) {
      const next = await perform(run, action);
      if (!next) continue;
      if ('runAgainAt' in next) result = { ...result, outcome: next };
      else {
        const answered = await handle(run, result.state, next);
        result = { state: answered.state, outcome: answered.outcome ?? result.outcome };
      }
    }
    return result;
  };

  // each kind's start takes that kind's payload, as Timers.on hands it
  type AnyStart = (env: Env, t: DueTimer<TimerPayloads[TimerKind]>) => Promise<[R, I]>;
  for (const [kind, start] of Object.entries(runner.start) as [TimerKind, AnyStart][])
    timers.on(kind, async (t) => {
      const [run, input] = await start(env, t);
      return (await handle(run, runner.stateOf(run), input)).outcome;
    });
};
