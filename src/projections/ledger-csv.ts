import { csvOf, decimal } from './csv.js';
import type { LedgerEntry } from './ledger.js';

/**
 * The ledger as CSV, one writer for every export of it (the `ledger export --format csv`
 * command, the monthly statement by the CLI and by GET /balance/statements/{month}), in one
 * column set, named as the API's balance entries name their fields:
 *
 * - `id`: the entry's id (empty on a statement's opening and closing rows)
 * - `created_at`: when it was posted (the statement's start and end on those rows)
 * - `type`: sale, settlement, refund, payout, payout_reversal; opening_balance, closing_balance
 * - `account`: pending or available
 * - `amount`, `currency`: the signed amount in `currency` as a decimal (`18.30`, `-0.05`), as
 *   the pages and the statement show it: the net that moved on the account
 * - `gross`, `commission`: on a statement's sale and refund rows, the price and the commission
 *   the net came from (a refund's negative); empty elsewhere and in other exports
 * - `order_id`, `order_item_id`, `payout_id`: what the entry is about, empty when nothing
 * - `available_at`: when a pending sale becomes available
 * - `pending_after`, `available_after`: the supplier's balances after the entry (on the
 *   opening and closing rows, the balances then), decimals as `amount`
 *
 * RFC 4180: lines end in CRLF, a cell holding a quote, comma or line break is quoted.
 */
export const LEDGER_CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'account',
  'amount',
  'currency',
  'gross',
  'commission',
  'order_id',
  'order_item_id',
  'payout_id',
  'available_at',
  'pending_after',
  'available_after',
] as const;

export type LedgerCsvRow = Partial<Record<(typeof LEDGER_CSV_COLUMNS)[number], string | number | null>>;

/** An entry with the balances after it. */
export type EntryWithBalances = LedgerEntry & { pending_after: number; available_after: number };

export const entryRow = (e: EntryWithBalances): LedgerCsvRow => ({ ...e, currency: 'EUR' });

/** A statement's opening or closing row: the balances at `at`. */
export const balanceRow = (
  type: 'opening_balance' | 'closing_balance',
  at: string,
  balances: { pending: number; available: number },
): LedgerCsvRow => ({
  created_at: at,
  type,
  currency: 'EUR',
  pending_after: balances.pending,
  available_after: balances.available,
});

/** The supplier's entries in the order they were posted, each with the balances after it. */
export const withBalancesAfter = (entries: readonly LedgerEntry[]): EntryWithBalances[] => {
  const running = { pending: 0, available: 0 };
  return [...entries]
    .sort((a, b) => a.seq - b.seq)
    .map((e) => {
      running[e.account] += e.amount;
      return { ...e, pending_after: running.pending, available_after: running.available };
    });
};

/** The columns that hold an amount: minor units in the rows, decimals in the file. */
const MONEY_COLUMNS = new Set<string>(['amount', 'gross', 'commission', 'pending_after', 'available_after']);

export const ledgerCsv = (rows: readonly LedgerCsvRow[]): string =>
  csvOf(
    LEDGER_CSV_COLUMNS,
    rows.map((r) =>
      Object.fromEntries(
        LEDGER_CSV_COLUMNS.map((c) => [c, MONEY_COLUMNS.has(c) && typeof r[c] === 'number' ? decimal(r[c]) : r[c]]),
      ),
    ),
  );
