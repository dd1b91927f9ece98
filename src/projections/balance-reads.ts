import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The supplier's balance now, or undefined before its first entry. */
export const currentBalance = (db: Kysely<Database>, supplierId: string) =>
  db.selectFrom('balances').selectAll().where('supplier_id', '=', supplierId).executeTakeFirst();

export interface EntryFilter {
  type?: string;
  /** created at or after */
  from?: Date;
  /** created before */
  to?: Date;
  afterSeq?: number;
  limit: number;
}

/** A page of the supplier's ledger entries in the order they were posted, one row past `limit` when there are more. */
export const listBalanceEntries = (db: Kysely<Database>, supplierId: string, filter: EntryFilter) => {
  let q = db
    .selectFrom('balance_entries')
    .selectAll()
    .where('supplier_id', '=', supplierId)
    .orderBy('seq')
    .limit(filter.limit + 1);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.from) q = q.where('created_at', '>=', filter.from);
  if (filter.to) q = q.where('created_at', '<', filter.to);
  if (filter.afterSeq !== undefined) q = q.where('seq', '>', filter.afterSeq);
  return q.execute();
};
