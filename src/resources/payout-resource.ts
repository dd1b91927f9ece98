import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { PAYOUT_METHODS } from '../domain/payout.js';
import { iso, Money, Timestamp } from './values.js';
import { Entry, entryOut } from './entry-resource.js';

export const Payout = z
  .object({
    id: z.string(),
    amount: Money,
    method: z.enum(PAYOUT_METHODS),
    status: z.enum(['pending', 'in_transit', 'paid', 'failed', 'cancelled']),
    trigger: z
      .enum(['manual', 'daily', 'weekly'])
      .describe('manual: POST /payouts; daily, weekly: the payout schedule'),
    destination: z
      .object({ id: z.string(), account: z.string().describe('masked: IBAN country and last four, or PayPal address') })
      .nullable()
      .describe('where it was sent; null for a payout made by method alone'),
    failure_code: z.string().nullable(),
    created_at: Timestamp,
    in_transit_at: Timestamp.nullable(),
    paid_at: Timestamp.nullable(),
    failed_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable(),
  })
  .meta({ id: 'Payout' });

export const PayoutWithEntries = Payout.extend({
  balance_entries: z.array(Entry).describe('the entries the payout posted on your balance, in order'),
}).meta({ id: 'PayoutWithEntries' });

export const payoutOut = (r: {
  id: string;
  amount: number;
  method: string;
  status: string;
  trigger: string;
  destination_id: string | null;
  destination: string | null;
  failure_code: string | null;
  created_at: Date;
  in_transit_at: Date | null;
  paid_at: Date | null;
  failed_at: Date | null;
  cancelled_at: Date | null;
}) => ({
  id: r.id,
  amount: { amount: r.amount, currency: 'EUR' as const },
  method: r.method as z.infer<typeof Payout>['method'],
  status: r.status as z.infer<typeof Payout>['status'],
  trigger: r.trigger as z.infer<typeof Payout>['trigger'],
  destination: r.destination_id ? { id: r.destination_id, account: r.destination ?? '' } : null,
  failure_code: r.failure_code,
  created_at: iso(r.created_at),
  in_transit_at: r.in_transit_at && iso(r.in_transit_at),
  paid_at: r.paid_at && iso(r.paid_at),
  failed_at: r.failed_at && iso(r.failed_at),
  cancelled_at: r.cancelled_at && iso(r.cancelled_at),
});

/** One payout with its balance entries; only the owner's (undefined for another supplier's). */
export const readPayout = async (db: Kysely<Database>, payoutId: string, supplierId?: string) => {
  let q = db.selectFrom('payouts').selectAll().where('id', '=', payoutId);
  if (supplierId) q = q.where('supplier_id', '=', supplierId);
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  const entries = await db
    .selectFrom('balance_entries')
    .selectAll()
    .where('payout_id', '=', payoutId)
    .where('supplier_id', '=', row.supplier_id)
    .orderBy('seq')
    .execute();
  return { ...payoutOut(row), balance_entries: entries.map(entryOut), supplierId: row.supplier_id };
};
