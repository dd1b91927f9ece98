import { expect } from 'vitest';
import { foldInputs, step, type Workflow } from '../../src/domain/workflow.js';

/**
 * Workflow tests read as the spec does: given the order as it stands (and the inputs that
 * came since, folded by `evolve`), when this step is due or this answer comes back, then
 * these actions, and this state after. No database, no clock, no supplier.
 */
export const givenWorkflow =
  <I extends { type: string }, S, A extends { kind: string }>(w: Workflow<I, S, A>) =>
  (state: S = w.initialState, ...since: I[]) => {
    const before = foldInputs(w, since, state);
    return {
      when: (input: I) => {
        const decided = step(w, before, input);
        const then = (expected: A[]) => {
          expect(decided.actions).toEqual(expected);
          return { state: (after: S) => expect(decided.state).toEqual(after) };
        };
        return { then };
      },
    };
  };
