import { describe, expect, it } from 'vitest';
import { workflow } from '../../src/domain/workflow.js';
import type { TimerPayloads } from '../../src/processes/timer-kinds.js';
import type { DueTimer, TimerHandler, Timers } from '../../src/processes/timers.js';
import { registerWorkflow, type WorkflowRunner } from '../../src/processes/workflow-runner.js';

/**
 * The one interpreter of the workflows: each input is folded, then decided; a call's answer is
 * decided at once against the state it left; timers go to the timers; the last `pollAgain`
 * is the run's outcome. A made-up workflow (a counter that calls out and polls) shows it.
 */

type Input = { type: 'Due' } | { type: 'Answered'; value: number };
type Action =
  | { kind: 'call'; value: number }
  | { kind: 'schedule'; timer: 'order.expire'; key: string; at: Date; payload: Record<string, never> }
  | { kind: 'pollAgain'; at: Date };

const at = (n: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, n));

const counter = workflow<Input, number, Action>({
  name: 'counter',
  initialState: 0,
  decide: {
    Due: (_, n) => [{ kind: 'call', value: n }],
    // decided against the state the answer left: 1 + 41 = 42 schedules and polls again
    Answered: (_, n) =>
      n === 42
        ? [
            { kind: 'schedule', timer: 'order.expire', key: `k${n}`, at: at(n), payload: {} },
            { kind: 'pollAgain', at: at(1) },
            { kind: 'pollAgain', at: at(2) },
          ]
        : [],
  },
  evolve: { Due: (n) => n + 1, Answered: (n, input) => n + input.value },
});

const fakeTimers = () => {
  const handlers = new Map<string, TimerHandler>();
  const scheduled: unknown[] = [];
  const timers = {
    on: (kind: string, handler: TimerHandler) => void handlers.set(kind, handler),
    schedule: async (...args: unknown[]) => void scheduled.push(args),
  } as unknown as Timers;
  return { timers, handlers, scheduled };
};

describe('workflow runner', () => {
  it('folds and decides each input, feeds a call its answer, hands timers over and answers the last pollAgain', async () => {
    const calls: number[] = [];
    const runner: WorkflowRunner<string, string, number, Input, Action> = {
      workflow: counter,
      stateOf: () => 0,
      perform: {
        call: async (run, a) => {
          calls.push(a.value);
          return { type: 'Answered', value: run === 'env:order.provision' ? 41 : 0 };
        },
      },
      start: { 'order.provision': async (env, t) => [`${env}:${t.kind}`, { type: 'Due' }] },
    };
    const { timers, handlers, scheduled } = fakeTimers();
    registerWorkflow(timers, runner, 'env');

    expect([...handlers.keys()]).toEqual(['order.provision']);
    const due: DueTimer<TimerPayloads['order.provision']> = {
      kind: 'order.provision',
      key: 'o1',
      dueAt: at(0),
      payload: {},
      attempt: 1,
    };
    const outcome = await handlers.get('order.provision')!(due);
    // Due folded 0 -> 1 before it was decided; the answer 41 folded 1 -> 42
    expect(calls).toEqual([1]);
    expect(scheduled).toEqual([['order.expire', 'k42', at(42), {}]]);
    expect(outcome).toEqual({ runAgainAt: at(2) });
  });
});
