import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import {
  destinationFor,
  maskedEmail,
  maskedIban,
  MAX_PAYOUT_DESTINATIONS,
  type PayoutDestinationCommand,
  payoutDestinationsDecider as decider,
  type PayoutDestinationsState,
} from '../../src/domain/payout-destination.js';

const now = '2026-01-05T10:00:00.000Z';
const fold = (commands: PayoutDestinationCommand[]): PayoutDestinationsState =>
  commands.reduce(
    (state, command) => decider.decide(command, state).reduce(decider.evolve, state),
    decider.initialState,
  );
const bank = (destinationId: string, iban: string): PayoutDestinationCommand => ({
  type: 'AddPayoutDestination',
  data: { supplierId: 's', destinationId, method: 'sepa_bank_transfer', iban, holderName: 'Holder', now },
});
const paypal = (destinationId: string, email: string): PayoutDestinationCommand => ({
  type: 'AddPayoutDestination',
  data: { supplierId: 's', destinationId, method: 'paypal', email, now },
});
const refusal = (state: PayoutDestinationsState, command: PayoutDestinationCommand) => {
  try {
    decider.decide(command, state);
    return undefined;
  } catch (e) {
    return e instanceof DomainError ? [e.code, e.inputs.map((i) => i.input)] : e;
  }
};

describe('payout destinations', () => {
  it('keeps an IBAN in electronic form, refuses one whose check digits fail, and masks both kinds', () => {
    const state = fold([bank('a', 'de89 3704 0044 0532 0130 00')]);
    expect(state.destinations.get('a')?.iban).toBe('DE89370400440532013000');
    expect(refusal(state, bank('b', 'DE89 3704 0044 0532 0130 01'))).toEqual(['validation_failed', ['iban']]);
    expect(refusal(state, bank('b', 'DE8937040044053201300'))).toEqual(['validation_failed', ['iban']]);
    expect(maskedIban('DE89370400440532013000')).toBe('DE •••• 3000');
    expect(maskedEmail('payouts@alpha.example')).toBe('p•••@alpha.example');
  });

  it('makes the first destination the default, removes the default only last, and answers a repeat with nothing', () => {
    const state = fold([bank('a', 'DE89370400440532013000'), paypal('b', 'x@y.example')]);
    expect(state.defaultId).toBe('a');
    expect(decider.decide(bank('a', 'DE89370400440532013000'), state)).toEqual([]);
    expect(
      refusal(state, { type: 'RemovePayoutDestination', data: { supplierId: 's', destinationId: 'a', now } }),
    ).toEqual(['invalid_state', []]);
    const moved = fold([
      bank('a', 'DE89370400440532013000'),
      paypal('b', 'x@y.example'),
      { type: 'SetDefaultPayoutDestination', data: { supplierId: 's', destinationId: 'b', now } },
      { type: 'RemovePayoutDestination', data: { supplierId: 's', destinationId: 'a', now } },
    ]);
    expect([moved.defaultId, moved.destinations.get('a')?.removedAt]).toEqual(['b', now]);
  });

  it('refuses the same account twice and more than the most destinations a supplier may have', () => {
    const state = fold([paypal('a', 'x@y.example')]);
    expect(refusal(state, paypal('b', 'X@Y.example'))).toEqual(['invalid_state', []]);
    const full = fold(Array.from({ length: MAX_PAYOUT_DESTINATIONS }, (_, i) => paypal(`p${i}`, `p${i}@y.example`)));
    expect(refusal(full, paypal('one-more', 'more@y.example'))).toEqual(['invalid_state', []]);
  });

  it('sends a payout to the destination named, else the default, else the newest of the method asked for', () => {
    const state = fold([bank('a', 'DE89370400440532013000'), paypal('b', 'x@y.example'), paypal('c', 'z@y.example')]);
    expect(destinationFor(state, {})?.destinationId).toBe('a');
    expect(destinationFor(state, { destinationId: 'b' })?.destinationId).toBe('b');
    expect(destinationFor(state, { method: 'paypal' })?.destinationId).toBe('c');
    expect(destinationFor(decider.initialState, { method: 'paypal' })).toBeNull();
    expect(() => destinationFor(state, { destinationId: 'a', method: 'paypal' })).toThrow(DomainError);
    expect(() => destinationFor(state, { destinationId: 'nope' })).toThrow(DomainError);
  });
});
