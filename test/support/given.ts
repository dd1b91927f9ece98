import { expect } from 'vitest';
import type { Decider, DomainEvent } from '../../src/domain/decider.js';
import { DomainError, type InputError } from '../../src/domain/errors.js';

/**
 * Decider tests read as the spec does: given these events, when this command, then these
 * events (or this error code). No database, no clock.
 */
export const givenFor =
  <S, C, E extends DomainEvent>(decider: Decider<S, C, E>) =>
  (...history: E[]) => ({
    when: (command: C) => {
      const run = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState));
      /** The domain error the command was refused with (failing the test if it was not). */
      const refusal = (code: string): DomainError => {
        let thrown: unknown;
        try {
          run();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(DomainError);
        expect((thrown as DomainError).code).toBe(code);
        return thrown as DomainError;
      };
      return {
        then: (expected: E[]) => expect(run()).toEqual(expected),
        thenThrows: (code: string, extensions?: Record<string, unknown>) => {
          const error = refusal(code);
          if (extensions) expect(error.extensions).toEqual(extensions);
        },
        /** Refused as `validation_failed`, naming exactly these inputs. */
        thenRefuses: (inputs: InputError[]) => expect(refusal('validation_failed').inputs).toEqual(inputs),
      };
    },
    state: () => history.reduce(decider.evolve, decider.initialState),
  });
