/** Double-entry postings: the ledger's accounts, shared by balance and payout entries. */

/**
 * The supplier's ledger. Every event posts a balanced set of entries over named accounts:
 * the supplier's `pending` and `available`, the platform's `commission`, and `buyer_funds`
 * (money the buyer paid in, or got back). Payouts move available money through
 * `payouts_pending` and `payouts_in_transit` to `paid_out` (the supplier's bank), or back.
 * Entries are never edited: a refund posts reversing entries.
 */
export type Account =
  | 'supplier_pending'
  | 'supplier_available'
  | 'platform_commission'
  | 'buyer_funds'
  | 'payouts_pending'
  | 'payouts_in_transit'
  | 'paid_out';

export interface Posting {
  account: Account;
  amount: number;
}
