import { expect } from 'vitest';

/**
 * Process tests read as the spec does: given the order as it stands, when this step is due
 * (or this answer comes back), then these actions. No database, no clock, no supplier.
 */
export const givenProcess =
  <S, I, A>(decide: (input: I, state: S) => A[], initial: S) =>
  (state: S = initial) => ({
    when: (input: I) => ({
      then: (expected: A[]) => expect(decide(input, state)).toEqual(expected),
    }),
  });
