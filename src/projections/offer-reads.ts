import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface OfferFilter {
  status?: string;
  productId?: string;
  stockMode?: string;
  after?: string;
  limit: number;
}

/** A page of one supplier's offers by id, one row past `limit` when there are more. */
export const listSupplierOffers = (db: Kysely<Database>, supplierId: string, filter: OfferFilter) => {
  let q = db
    .selectFrom('offers')
    .selectAll()
    .where('supplier_id', '=', supplierId)
    .orderBy('id')
    .limit(filter.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.productId) q = q.where('product_id', '=', filter.productId);
  if (filter.stockMode) q = q.where('stock_mode', '=', filter.stockMode);
  if (filter.after) q = q.where('id', '>', filter.after);
  return q.execute();
};

/** The supplier's own offer on a product, whatever its status (a draft or inactive one too). */
export const ownOfferOn = (db: Kysely<Database>, productId: string, supplierId: string) =>
  db
    .selectFrom('offers')
    .selectAll()
    .where('product_id', '=', productId)
    .where('supplier_id', '=', supplierId)
    .executeTakeFirst();

/** Is this offer the supplier's own? (Another supplier's offer is as unknown as a missing one.) */
export const ownsOffer = async (db: Kysely<Database>, offerId: string, supplierId: string): Promise<boolean> =>
  (await db
    .selectFrom('offers')
    .select('id')
    .where('id', '=', offerId)
    .where('supplier_id', '=', supplierId)
    .executeTakeFirst()) !== undefined;
