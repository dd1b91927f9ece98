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
    expect(decideSteps(counter, [add(2), null, add(0), (total) => add(-total)], 1)).toEqual([
      { type: 'Added', data: { by: 2 } },
      { type: 'Added', data: { by: -3 } },
    ]);
  });

  it('lets a step pick no command from the state it sees', () => {
    expect(decideSteps(counter, [add(1), (total) => (total > 5 ? add(-5) : null)], 1)).toEqual([
      { type: 'Added', data: { by: 1 } },
    ]);
  });

  it('refuses the whole request when any step is refused, so nothing of it is written', () => {
    expect(() => decideSteps(counter, [add(2), add(-4)], 1)).toThrow('3 cannot go below zero');
  });
});
