import type { LedgerCsvRow } from '../../../projections/ledger-csv.js';

/** A balance entry as GET /balance/entries answers it (the API's BalanceEntry). */
export interface ApiBalanceEntry {
  id: string;
  created_at: string;
  type: string;
  account: string;
  amount: { amount: number; currency: string };
  order_id: string | null;
  order_item_id: string | null;
  payout_id: string | null;
  available_at: string | null;
}

/**
 * One API entry as a row of the ledger's CSV. The API's entries carry no balances after them,
 * and a filtered list (a type, some days) cannot rebuild them, so `pending_after` and
 * `available_after` stay empty here rather than hold a sum over only part of the ledger.
 */
export const apiEntryRow = (e: ApiBalanceEntry): LedgerCsvRow => ({
  id: e.id,
  created_at: e.created_at,
  type: e.type,
  account: e.account,
  amount: e.amount.amount,
  currency: e.amount.currency,
  order_id: e.order_id,
  order_item_id: e.order_item_id,
  payout_id: e.payout_id,
  available_at: e.available_at,
});
