import type { CommandData } from './decider.js';
import type { Posting } from './postings.js';
import type { ChainLink } from './ledger-chain.js';
import { assertNever, DomainError } from './errors.js';

/**
 * Payouts, as entries of the supplier's ledger (the SupplierBalance stream): a payout takes
 * money out of `available` when it is created and holds it in `payouts_pending`, then
 * `payouts_in_transit`, then `paid_out`; a failed or cancelled payout gives it back to
 * `available`. The check "never more than available" is made on the same stream that
 * credits and debits, so two payouts at once cannot both spend the same money.
 */
export const PAYOUT_MINIMUM = 2000;
export const PAYOUT_METHODS = ['sepa_bank_transfer', 'paypal'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
export type PayoutStatus = 'pending' | 'in_transit' | 'paid' | 'failed' | 'cancelled';
/** Who asked for it: the supplier (`manual`) or its schedule. */
export type PayoutTrigger = 'manual' | 'daily' | 'weekly';
/**
 * Where a payout was sent, as it reads on it: the destination's id and its masked account.
 * Payouts made before destinations existed (or with a method and none) have none.
 */
export interface PayoutTo {
  destinationId: string;
  masked: string;
}

export interface PayoutState {
  payoutId: string;
  amount: number;
  method: PayoutMethod;
  status: PayoutStatus;
}

type Ref = {
  supplierId: string;
  payoutId: string;
  entryId: string;
  amount: number;
  postings: Posting[];
  at: string;
  chain?: ChainLink;
};

export type PayoutEvent =
  | { type: 'PayoutCreated'; data: Ref & { method: PayoutMethod; trigger: PayoutTrigger; destination?: PayoutTo } }
  | { type: 'PayoutInTransit'; data: Ref }
  | { type: 'PayoutPaid'; data: Ref }
  | { type: 'PayoutFailed'; data: Ref & { from: 'pending' | 'in_transit'; failureCode: string } }
  | { type: 'PayoutCancelled'; data: Ref };

export type PayoutCommand =
  | {
      type: 'CreatePayout';
      data: {
        supplierId: string;
        payoutId: string;
        amount: number;
        method: PayoutMethod;
        trigger: PayoutTrigger;
        destination?: PayoutTo;
        now: string;
      };
    }
  | { type: 'MarkPayoutInTransit'; data: { payoutId: string; now: string } }
  | { type: 'MarkPayoutPaid'; data: { payoutId: string; now: string } }
  | { type: 'FailPayout'; data: { payoutId: string; failureCode: string; now: string } }
  | { type: 'CancelPayout'; data: { payoutId: string; now: string } };

export const PAYOUT_EVENT_TYPES = [
  'PayoutCreated',
  'PayoutInTransit',
  'PayoutPaid',
  'PayoutFailed',
  'PayoutCancelled',
] as const;

const STATUS_AFTER: Record<PayoutEvent['type'], PayoutStatus> = {
  PayoutCreated: 'pending',
  PayoutInTransit: 'in_transit',
  PayoutPaid: 'paid',
  PayoutFailed: 'failed',
  PayoutCancelled: 'cancelled',
};

export const evolvePayout = (
  payouts: ReadonlyMap<string, PayoutState>,
  event: PayoutEvent,
): ReadonlyMap<string, PayoutState> => {
  const next = new Map(payouts);
  const d = event.data;
  if (event.type === 'PayoutCreated')
    next.set(d.payoutId, { payoutId: d.payoutId, amount: d.amount, method: event.data.method, status: 'pending' });
  else {
    const p = next.get(d.payoutId);
    if (p) next.set(d.payoutId, { ...p, status: STATUS_AFTER[event.type] });
  }
  return next;
};

const move = (from: Posting['account'], to: Posting['account'], amount: number): Posting[] => [
  { account: from, amount: -amount },
  { account: to, amount },
];

const ACCOUNT_OF = { pending: 'payouts_pending', in_transit: 'payouts_in_transit' } as const;

/** No payout from a ledger that holds an entry it refused: what else was done to it is not known. */
export const refusedLedger = (refused: { entryId: string; reason: string }) =>
  new DomainError(
    'ledger_chain_broken',
    `the ledger holds an entry that fails its signature (${refused.entryId}, which ${refused.reason}): no payout is made until it is looked at`,
    { entry_id: refused.entryId },
  );

/** What a payout decision reads of the supplier's balance (the balance passes itself). */
export interface PayoutBalance {
  supplierId: string | null;
  available: number;
  payouts: ReadonlyMap<string, PayoutState>;
  /** The first stored entry the ledger refused, if any. */
  refused?: { entryId: string; reason: string } | null;
}

/** The payout commands, each decided by its own function below. */
export const decidePayout = (command: PayoutCommand, state: PayoutBalance): PayoutEvent[] => {
  if (command.type === 'CreatePayout') return createPayout(state, command.data);
  const payout = state.payouts.get(command.data.payoutId);
  if (!payout || !state.supplierId) throw new DomainError('not_found', `no payout ${command.data.payoutId}`);
  const known: KnownPayout = { payout, supplierId: state.supplierId };
  switch (command.type) {
    case 'MarkPayoutInTransit':
      return markPayoutInTransit(known, command.data);
    case 'MarkPayoutPaid':
      return markPayoutPaid(known, command.data);
    case 'FailPayout':
      return failPayout(known, command.data);
    case 'CancelPayout':
      return cancelPayout(known, command.data);
    default:
      return assertNever(command);
  }
};

// ---- one function per command: what each decides, given the balance (or the payout) as it stands

const createPayout = (state: PayoutBalance, data: CommandData<PayoutCommand, 'CreatePayout'>): PayoutEvent[] => {
  const { supplierId, payoutId, amount, method, trigger, destination, now } = data;
  if (state.payouts.has(payoutId)) return [];
  // a ledger that holds an entry the service did not sign where it stands pays nothing out
  // until someone looked: the balance it shows leaves that entry out, but what else was done to it is unknown
  if (state.refused) throw refusedLedger(state.refused);
  if (!Number.isInteger(amount) || amount <= 0)
    throw new DomainError('validation_failed', 'amount must be a positive number of minor units');
  if (amount < PAYOUT_MINIMUM)
    throw new DomainError(
      'payout_below_minimum',
      `a payout is at least ${PAYOUT_MINIMUM} minor units (the fee schedule's minimum)`,
      {
        minimum: { amount: PAYOUT_MINIMUM, currency: 'EUR' },
      },
    );
  if (amount > state.available)
    throw new DomainError(
      'insufficient_available_balance',
      `the available balance is ${state.available}, less than ${amount}`,
      {
        available: { amount: state.available, currency: 'EUR' },
      },
    );
  return [
    {
      type: 'PayoutCreated',
      data: {
        supplierId,
        payoutId,
        entryId: `payout-${payoutId}`,
        amount,
        method,
        trigger,
        ...(destination && { destination }),
        postings: move('supplier_available', 'payouts_pending', amount),
        at: now,
      },
    },
  ];
};

/** A payout the balance holds, with its supplier: what every command after the creation decides on. */
interface KnownPayout {
  payout: PayoutState;
  supplierId: string;
}

const refOf = ({ payout, supplierId }: KnownPayout, now: string) => ({
  supplierId,
  payoutId: payout.payoutId,
  amount: payout.amount,
  at: now,
});

const refuse = (payout: PayoutState, to: string): never => {
  throw new DomainError('invalid_state', `payout ${payout.payoutId} is ${payout.status}; it cannot become ${to}`, {
    payout_status: payout.status,
  });
};

const markPayoutInTransit = (
  known: KnownPayout,
  data: CommandData<PayoutCommand, 'MarkPayoutInTransit'>,
): PayoutEvent[] => {
  const { payout } = known;
  if (payout.status === 'in_transit') return [];
  if (payout.status !== 'pending') return refuse(payout, 'in_transit');
  return [
    {
      type: 'PayoutInTransit',
      data: {
        ...refOf(known, data.now),
        entryId: `payout-in-transit-${payout.payoutId}`,
        postings: move('payouts_pending', 'payouts_in_transit', payout.amount),
      },
    },
  ];
};

const markPayoutPaid = (known: KnownPayout, data: CommandData<PayoutCommand, 'MarkPayoutPaid'>): PayoutEvent[] => {
  const { payout } = known;
  if (payout.status === 'paid') return [];
  if (payout.status !== 'in_transit') return refuse(payout, 'paid');
  return [
    {
      type: 'PayoutPaid',
      data: {
        ...refOf(known, data.now),
        entryId: `payout-paid-${payout.payoutId}`,
        postings: move('payouts_in_transit', 'paid_out', payout.amount),
      },
    },
  ];
};

const failPayout = (known: KnownPayout, data: CommandData<PayoutCommand, 'FailPayout'>): PayoutEvent[] => {
  const { payout } = known;
  if (payout.status === 'failed') return [];
  if (payout.status !== 'pending' && payout.status !== 'in_transit') return refuse(payout, 'failed');
  const from = payout.status;
  return [
    {
      type: 'PayoutFailed',
      data: {
        ...refOf(known, data.now),
        entryId: `payout-failure-${payout.payoutId}`,
        from,
        failureCode: data.failureCode,
        postings: move(ACCOUNT_OF[from], 'supplier_available', payout.amount),
      },
    },
  ];
};

const cancelPayout = (known: KnownPayout, data: CommandData<PayoutCommand, 'CancelPayout'>): PayoutEvent[] => {
  const { payout } = known;
  if (payout.status === 'cancelled') return [];
  if (payout.status !== 'pending') return refuse(payout, 'cancelled');
  return [
    {
      type: 'PayoutCancelled',
      data: {
        ...refOf(known, data.now),
        entryId: `payout-cancel-${payout.payoutId}`,
        postings: move('payouts_pending', 'supplier_available', payout.amount),
      },
    },
  ];
};
