import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { Decider } from './decider.js';
import { assertNever, DomainError, invalidInput } from './errors.js';
import type { PayoutMethod } from './payout.js';

/**
 * Where a supplier's payouts go: bank accounts (IBAN, its check digits verified) and PayPal
 * addresses, one of them the default. Kept on one stream per supplier; a removed destination
 * stays in the state (marked removed) so that a payout made to it still knows where it went.
 */
export const MAX_PAYOUT_DESTINATIONS = 10;

/**
 * The sandbox's bank refuses payouts to this account (closed), as Stripe's test mode has bank
 * numbers that fail: its payout fails with `account_closed` and the amount returns to available.
 * Any other valid IBAN is paid.
 */
export const SANDBOX_FAILING_IBAN = 'DE62370400440532013001';
export const SANDBOX_FAILURE_CODE = 'account_closed';

export interface PayoutDestination {
  destinationId: string;
  method: PayoutMethod;
  /** IBAN in electronic format (no spaces, upper case); bank accounts only. */
  iban: string | null;
  holderName: string | null;
  /** PayPal only. */
  email: string | null;
  createdAt: string;
  removedAt: string | null;
}

export interface PayoutDestinationsState {
  destinations: ReadonlyMap<string, PayoutDestination>;
  defaultId: string | null;
}

export type PayoutDestinationEvent =
  | { type: 'PayoutDestinationAdded'; data: Omit<PayoutDestination, 'createdAt' | 'removedAt'> & Stamp }
  | { type: 'PayoutDestinationRemoved'; data: { destinationId: string } & Stamp }
  | { type: 'DefaultPayoutDestinationSet'; data: { destinationId: string } & Stamp };

type Stamp = { supplierId: string; at: string };

export type NewDestination =
  { method: 'sepa_bank_transfer'; iban: string; holderName: string } | { method: 'paypal'; email: string };

export type PayoutDestinationCommand =
  | { type: 'AddPayoutDestination'; data: { supplierId: string; destinationId: string; now: string } & NewDestination }
  | { type: 'RemovePayoutDestination'; data: { supplierId: string; destinationId: string; now: string } }
  | { type: 'SetDefaultPayoutDestination'; data: { supplierId: string; destinationId: string; now: string } };

/** The destinations not removed, oldest first. */
export const activeDestinations = (state: PayoutDestinationsState): PayoutDestination[] =>
  [...state.destinations.values()].filter((d) => !d.removedAt);

/** An IBAN as a person reads it on a statement: the country, then only the last four characters. */
export const maskedIban = (iban: string) => `${iban.slice(0, 2)} •••• ${iban.slice(-4)}`;

/** An email with its local part hidden but for the first character. */
export const maskedEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
};

export const maskedDestination = (d: Pick<PayoutDestination, 'method' | 'iban' | 'email'>) =>
  d.method === 'paypal' ? maskedEmail(d.email ?? '') : maskedIban(d.iban ?? '');

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

const validated = (input: NewDestination) => {
  if (input.method === 'paypal') {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254)
      throw invalidInput([{ input: 'email', message: 'must be an email address, like payouts@example.com' }]);
    return { method: input.method, email, iban: null, holderName: null };
  }
  const iban = electronicFormatIBAN(input.iban) ?? '';
  if (!isValidIBAN(iban))
    throw invalidInput([{ input: 'iban', message: 'is not valid: its country, length or check digits are wrong' }]);
  const holderName = input.holderName.trim();
  if (!holderName || holderName.length > 140)
    throw invalidInput([{ input: 'holder_name', message: 'must name the account holder (1 to 140 characters)' }]);
  return { method: input.method, iban, holderName, email: null };
};

const find = (state: PayoutDestinationsState, destinationId: string) => {
  const found = state.destinations.get(destinationId);
  if (!found || found.removedAt) throw new DomainError('not_found', `no payout destination ${destinationId}`);
  return found;
};

const add = (
  state: PayoutDestinationsState,
  data: Extract<PayoutDestinationCommand, { type: 'AddPayoutDestination' }>['data'],
): PayoutDestinationEvent[] => {
  const { supplierId, destinationId, now } = data;
  // a repeat of the same request (its id follows from the operation) adds nothing
  if (state.destinations.has(destinationId)) return [];
  const destination = validated(data);
  const active = activeDestinations(state);
  const same = active.find((d) =>
    destination.method === 'paypal' ? d.email === destination.email : d.iban === destination.iban,
  );
  if (same)
    throw new DomainError('invalid_state', `this account is already payout destination ${same.destinationId}`, {
      destination_id: same.destinationId,
    });
  if (active.length >= MAX_PAYOUT_DESTINATIONS)
    throw new DomainError(
      'invalid_state',
      `a supplier has at most ${MAX_PAYOUT_DESTINATIONS} payout destinations; remove one first`,
    );
  const added: PayoutDestinationEvent = {
    type: 'PayoutDestinationAdded',
    data: { supplierId, destinationId, ...destination, at: now },
  };
  // the first destination is where payouts go until another is made the default
  return state.defaultId && state.destinations.get(state.defaultId)?.removedAt === null
    ? [added]
    : [added, { type: 'DefaultPayoutDestinationSet', data: { supplierId, destinationId, at: now } }];
};

const remove = (
  state: PayoutDestinationsState,
  data: Extract<PayoutDestinationCommand, { type: 'RemovePayoutDestination' }>['data'],
): PayoutDestinationEvent[] => {
  const existing = state.destinations.get(data.destinationId);
  if (existing?.removedAt) return [];
  find(state, data.destinationId);
  // as at Stripe: the default goes only last, so a scheduled payout never finds itself without one
  if (state.defaultId === data.destinationId && activeDestinations(state).length > 1)
    throw new DomainError(
      'invalid_state',
      `payout destination ${data.destinationId} is the default; make another one the default first`,
    );
  return [
    {
      type: 'PayoutDestinationRemoved',
      data: { supplierId: data.supplierId, destinationId: data.destinationId, at: data.now },
    },
  ];
};

export const payoutDestinationsDecider: Decider<
  PayoutDestinationsState,
  PayoutDestinationCommand,
  PayoutDestinationEvent
> = {
  initialState: { destinations: new Map(), defaultId: null },
  evolve: (state, event) => {
    const destinations = new Map(state.destinations);
    switch (event.type) {
      case 'PayoutDestinationAdded': {
        const { supplierId: _s, at, ...d } = event.data;
        destinations.set(d.destinationId, { ...d, createdAt: at, removedAt: null });
        return { ...state, destinations };
      }
      case 'PayoutDestinationRemoved': {
        const d = destinations.get(event.data.destinationId);
        if (d) destinations.set(d.destinationId, { ...d, removedAt: event.data.at });
        const defaultId = state.defaultId === event.data.destinationId ? null : state.defaultId;
        return { destinations, defaultId };
      }
      case 'DefaultPayoutDestinationSet':
        return { ...state, defaultId: event.data.destinationId };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'AddPayoutDestination':
        return add(state, command.data);
      case 'RemovePayoutDestination':
        return remove(state, command.data);
      case 'SetDefaultPayoutDestination': {
        find(state, command.data.destinationId);
        if (state.defaultId === command.data.destinationId) return [];
        const { supplierId, destinationId, now } = command.data;
        return [{ type: 'DefaultPayoutDestinationSet', data: { supplierId, destinationId, at: now } }];
      }
      default:
        return assertNever(command);
    }
  },
};

/**
 * Where a payout goes when the request names no destination: the default, or, when a method
 * is asked for that the default does not have, the newest destination of that method.
 */
export const destinationFor = (
  state: PayoutDestinationsState,
  asked: { destinationId?: string; method?: PayoutMethod },
): PayoutDestination | null => {
  if (asked.destinationId) {
    const d = state.destinations.get(asked.destinationId);
    if (!d || d.removedAt)
      throw invalidInput([{ input: 'destination_id', message: `no payout destination ${asked.destinationId}` }]);
    if (asked.method && asked.method !== d.method)
      throw invalidInput([{ input: 'method', message: `destination ${d.destinationId} is paid by ${d.method}` }]);
    return d;
  }
  const fallback = state.defaultId ? state.destinations.get(state.defaultId) : undefined;
  if (fallback && !fallback.removedAt && (!asked.method || asked.method === fallback.method)) return fallback;
  return (
    activeDestinations(state)
      .filter((d) => d.method === asked.method)
      .at(-1) ?? null
  );
};
