import type { CommandData, Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';

import { type ChainLink, chainEvents, type EntrySigner, GENESIS, linkHash } from './ledger-chain.js';
import { VersionedMap } from './versioned-map.js';
import { type PayoutCommand, type PayoutEvent, type PayoutState, decidePayout, evolvePayout } from './payout.js';
import type { Account, Posting } from './postings.js';

export type EntryType = 'sale' | 'settlement' | 'refund' | 'payout' | 'payout_reversal';

interface SaleRef {
  supplierId: string;
  orderId: string;
  orderItemId: string;
}

/**
 * `chain`: this entry's link in the supplier's hash chain (absent on entries older than the
 * chain), with the id of the key that signed it and its signature (absent on entries older
 * than signing: the upgrade signed those, src/commands/older-data.ts).
 */
type Chained = { chain?: ChainLink };

export type SaleEvent =
  | {
      type: 'SaleCredited';
      data: SaleRef &
        Chained & {
          entryId: string;
          gross: number;
          commission: number;
          net: number;
          availableAt: string;
          postings: Posting[];
          at: string;
        };
    }
  | { type: 'SaleSettled'; data: SaleRef & Chained & { entryId: string; net: number; postings: Posting[]; at: string } }
  | {
      type: 'RefundDebited';
      data: SaleRef &
        Chained & {
          entryId: string;
          gross: number;
          commission: number;
          net: number;
          from: 'pending' | 'available';
          postings: Posting[];
          at: string;
        };
    };

/**
 * `refused`: set by the ledger's reading (src/projections/ledger-book.ts), never stored: the
 * stored entry failed its signature where it stands, and is folded into nothing.
 */
export type BalanceEvent = (SaleEvent | PayoutEvent) & { refused?: string };

export type BalanceCommand =
  | {
      type: 'CreditSale';
      data: SaleRef & { gross: number; commission: number; net: number; availableAt: string; now: string };
    }
  | { type: 'SettleSale'; data: { orderItemId: string; now: string } }
  | { type: 'DebitRefund'; data: { orderItemId: string; now: string } }
  | PayoutCommand;

interface Sale extends SaleRef {
  gross: number;
  commission: number;
  net: number;
  availableAt: string;
  state: 'pending' | 'available' | 'refunded';
}

export interface BalanceState {
  supplierId: string | null;
  /** Every sale of the supplier: a versioned map, so a sale's entry costs what it changes, not the supplier's history. */
  sales: VersionedMap<string, Sale>;
  payouts: ReadonlyMap<string, PayoutState>;
  pending: number;
  available: number;
  updatedAt: string | null;
  /** The hash chain's head after the last entry accepted, and how many entries it covers. */
  chainHead: string;
  chainLength: number;
  /** The first stored entry the ledger refused (its signature failed where it stands): no payout leaves while there is one. */
  refused: { entryId: string; reason: string } | null;
}

export const emptyBalance: BalanceState = {
  supplierId: null,
  sales: VersionedMap.empty(),
  payouts: new Map(),
  pending: 0,
  available: 0,
  updatedAt: null,
  chainHead: GENESIS,
  chainLength: 0,
  refused: null,
};

/** The sum over all accounts of one posting set: zero for every event, always. */
export const postingSum = (postings: Posting[]) => postings.reduce((s, p) => s + p.amount, 0);

const delta = (postings: Posting[], account: Account) =>
  postings.filter((p) => p.account === account).reduce((s, p) => s + p.amount, 0);

const isPayout = (event: BalanceEvent): event is PayoutEvent => event.type.startsWith('Payout');

export const balanceDecider: Decider<BalanceState, BalanceCommand, BalanceEvent> = {
  initialState: emptyBalance,

  evolve(state, event) {
    if (event.refused)
      return state.refused ? state : { ...state, refused: { entryId: event.data.entryId, reason: event.refused } };
    const { postings, at } = event.data;
    const moved = {
      supplierId: event.data.supplierId,
      pending: state.pending + delta(postings, 'supplier_pending'),
      available: state.available + delta(postings, 'supplier_available'),
      updatedAt: at,
      chainHead: linkHash(state.chainHead, event),
      chainLength: state.chainLength + 1,
    };
    if (isPayout(event)) return { ...state, ...moved, payouts: evolvePayout(state.payouts, event) };
    const { orderItemId } = event.data;
    const sale = state.sales.get(orderItemId);
    let changed: Sale | undefined;
    switch (event.type) {
      case 'SaleCredited': {
        const { supplierId, orderId, gross, commission, net, availableAt } = event.data;
        changed = { supplierId, orderId, orderItemId, gross, commission, net, availableAt, state: 'pending' };
        break;
      }
      case 'SaleSettled':
        if (sale) changed = { ...sale, state: 'available' };
        break;
      case 'RefundDebited':
        if (sale) changed = { ...sale, state: 'refunded' };
        break;
      default:
        return assertNever(event);
    }
    const sales = changed ? state.sales.with([[orderItemId, changed]]) : state.sales;
    return { ...state, ...moved, sales };
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreditSale':
        return creditSale(state, command.data);
      case 'SettleSale':
        return settleSale(state, command.data);
      case 'DebitRefund':
        return debitRefund(state, command.data);
      default:
        return decidePayout(command, state);
    }
  },
};

// ---- one function per command: what each decides, given the balance as it stands

const creditSale = (state: BalanceState, data: CommandData<BalanceCommand, 'CreditSale'>): SaleEvent[] => {
  const { supplierId, orderId, orderItemId, gross, commission, net, availableAt, now } = data;
  if (state.sales.has(orderItemId)) return []; // exactly one sale entry per order item
  if (gross - commission !== net) throw new Error(`unbalanced sale ${orderItemId}`);
  return [
    {
      type: 'SaleCredited',
      data: {
        supplierId,
        orderId,
        orderItemId,
        entryId: `sale-${orderItemId}`,
        gross,
        commission,
        net,
        availableAt,
        postings: [
          { account: 'buyer_funds', amount: -gross },
          { account: 'supplier_pending', amount: net },
          { account: 'platform_commission', amount: commission },
        ],
        at: now,
      },
    },
  ];
};

const settleSale = (state: BalanceState, data: CommandData<BalanceCommand, 'SettleSale'>): SaleEvent[] => {
  const sale = state.sales.get(data.orderItemId);
  if (!sale || sale.state !== 'pending') return []; // settled already, or refunded before it could be
  if (new Date(data.now).getTime() < new Date(sale.availableAt).getTime()) return [];
  const { supplierId, orderId, orderItemId, net } = sale;
  return [
    {
      type: 'SaleSettled',
      data: {
        supplierId,
        orderId,
        orderItemId,
        entryId: `settlement-${orderItemId}`,
        net,
        postings: [
          { account: 'supplier_pending', amount: -net },
          { account: 'supplier_available', amount: net },
        ],
        at: data.now,
      },
    },
  ];
};

const debitRefund = (state: BalanceState, data: CommandData<BalanceCommand, 'DebitRefund'>): SaleEvent[] => {
  const sale = state.sales.get(data.orderItemId);
  // the sale is posted by its own process; a refund arriving first waits for it
  if (!sale) throw new DomainError('invalid_state', `no sale entry for order item ${data.orderItemId} yet`);
  if (sale.state === 'refunded') return [];
  const { supplierId, orderId, orderItemId, gross, commission, net } = sale;
  const from = sale.state;
  return [
    {
      type: 'RefundDebited',
      data: {
        supplierId,
        orderId,
        orderItemId,
        entryId: `refund-${orderItemId}`,
        gross,
        commission,
        net,
        from,
        postings: [
          { account: from === 'pending' ? 'supplier_pending' : 'supplier_available', amount: -net },
          { account: 'platform_commission', amount: -commission },
          { account: 'buyer_funds', amount: gross },
        ],
        at: data.now,
      },
    },
  ];
};

/**
 * The decider the command side runs: the same decisions, each new event carrying its link
 * in the supplier's hash chain (the previous head and the hash over its own content) and
 * the ledger's signature over the link (`entryText`). One per process and key: cached
 * states are kept by decider.
 */
export const signedBalanceDecider = (signer: EntrySigner): Decider<BalanceState, BalanceCommand, BalanceEvent> => ({
  ...balanceDecider,
  decide: (command, state) => {
    const events = balanceDecider.decide(command, state);
    return events.length === 0
      ? events
      : chainEvents(state.chainHead, state.chainLength, events, events[0]!.data.supplierId, signer);
  },
});
