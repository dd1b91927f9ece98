import { describe, expect, it } from 'vitest';
import { type Decider, decideSteps } from '../../src/domain/decider.js';
import { DomainError } from '../../src/domain/errors.js';

// a counter that refuses to go below zero: enough to show how steps see each other's events
type Counted = { type: 'Added'; data: { by: number } };
type Count = { type: 'Add'; data: { by: number } };
const counter: Decider<number, Count, Counted> = {
  initialState: 0,
  evolve: (total, e) => total + e.data.by,
  decide: (c, total) => {
    if (total + c.data.by < 0) throw new DomainError('invalid_state', `${total} cannot go below zero`);
    return c.data.by === 0 ? [] : [{ type: 'Added', data: { by: c.data.by } }];
  },
};
const add = (by: number): Count => ({ type: 'Add', data: { by } });

describe('decideSteps', () => {
  it('decides each step on the state the steps before it left, skipping none and empty ones', () => {
    // given 1, when +2, nothing, +0, then "take back what is there": then +2, -3
    const decided = decideSteps(counter, [add(2), null, add(0), (total) => add(-total)], 1);
    expect(decided.events).toEqual([
      { type: 'Added', data: { by: 2 } },
      { type: 'Added', data: { by: -3 } },
    ]);
    // the last step's events are left for the caller to fold, onto the state before them
    expect(decided.before).toBe(3);
    expect(decided.last).toEqual([{ type: 'Added', data: { by: -3 } }]);
  });

  it('lets a step pick no command from the state it sees', () => {
    const decided = decideSteps(counter, [add(1), (total) => (total > 5 ? add(-5) : null)], 1);
    expect(decided.events).toEqual([{ type: 'Added', data: { by: 1 } }]);
    expect(decided.last.reduce(counter.evolve, decided.before)).toBe(2);
  });

  it('folds each event at most once while deciding, and those of the last step not at all', () => {
    const folded: number[] = [];
    const counting: Decider<number, Count, Counted> = {
      ...counter,
      evolve: (total, e) => (folded.push(e.data.by), counter.evolve(total, e)),
    };
    const decided = decideSteps(counting, [add(2), add(3), add(4)], 0);
    expect(folded).toEqual([2, 3]);
    expect(decided.before).toBe(5);
    expect(decided.last).toEqual([{ type: 'Added', data: { by: 4 } }]);
  });

  it('refuses the whole request when any step is refused, so nothing of it is written', () => {
    expect(() => decideSteps(counter, [add(2), add(-4)], 1)).toThrow('3 cannot go below zero');
  });
});
