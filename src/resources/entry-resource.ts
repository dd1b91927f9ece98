import { z } from 'zod';
import { iso, Money, Timestamp } from './values.js';
import { eur } from '../domain/money.js';

/** A balance entry as the API shows it: in balance answers, statements and payouts. */

export const ENTRY_TYPES = ['sale', 'settlement', 'refund', 'payout', 'payout_reversal'] as const;

export const Entry = z
  .object({
    id: z.string(),
    type: z
      .enum(ENTRY_TYPES)
      .describe(
        'payout: available money leaves into a payout; payout_reversal: a failed or cancelled payout gives it back',
      ),
    amount: Money.describe('signed: what this entry adds to the account'),
    account: z.enum(['pending', 'available']),
    order_id: z.string().nullable().describe('sale, settlement and refund entries'),
    order_item_id: z.string().nullable(),
    payout_id: z.string().nullable().describe('payout and payout_reversal entries'),
    created_at: Timestamp,
    available_at: Timestamp.nullable().describe('sale entries: when the amount moves to available'),
  })
  .meta({ id: 'BalanceEntry' });

/** One balance_entries row (or a replayed entry) as the API shows it. */
export const entryOut = (r: {
  id: string;
  type: string;
  amount: number;
  account: string;
  order_id: string | null;
  order_item_id: string | null;
  payout_id: string | null;
  created_at: Date | string;
  available_at: Date | string | null;
}) => ({
  id: r.id,
  type: r.type as (typeof ENTRY_TYPES)[number],
  amount: eur(r.amount),
  account: r.account as 'pending' | 'available',
  order_id: r.order_id,
  order_item_id: r.order_item_id,
  payout_id: r.payout_id,
  created_at: iso(r.created_at),
  available_at: r.available_at && iso(r.available_at),
});
