import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A page of one supplier's payouts, newest first, one row past `limit` when there are more. */
export const listSupplierPayouts = (
  db: Kysely<Database>,
  supplierId: string,
  filter: { status?: string; beforeSeq?: number; limit: number },
) => {
  let q = db
    .selectFrom('payouts')
    .selectAll()
    .where('supplier_id', '=', supplierId)
    .orderBy('seq', 'desc')
    .limit(filter.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.beforeSeq !== undefined) q = q.where('seq', '<', filter.beforeSeq);
  return q.execute();
};

/** The supplier's payout schedule as last set, or undefined when it never set one. */
export const payoutScheduleRow = (db: Kysely<Database>, supplierId: string) =>
  db.selectFrom('payout_schedules').selectAll().where('supplier_id', '=', supplierId).executeTakeFirst();
