import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Market, marketFor, type RoutableOffer } from '../domain/routing.js';
import type { Candidate } from '../domain/routing-receipt.js';
import { routableOf, snapshotOfRow } from './offer-resource.js';

/** Active offers of these products, in the shape the routing module ranks. */
export const routableOffers = async (
  db: Kysely<Database>,
  productIds: string[],
): Promise<Map<string, RoutableOffer[]>> => {
  const byProduct = new Map<string, RoutableOffer[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .selectFrom('offers')
    .selectAll()
    .where('product_id', 'in', productIds)
    .where('status', '=', 'active')
    .execute();
  for (const row of rows) byProduct.get(row.product_id)?.push(routableOf(snapshotOfRow(row)));
  return byProduct;
};

/** A product's active offers as routing candidates: what the ranking reads and a routing receipt records. */
export const routingCandidates = async (db: Kysely<Database>, productId: string): Promise<Candidate[]> => {
  const rows = await db
    .selectFrom('offers')
    .selectAll()
    .where('product_id', '=', productId)
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => {
    const snapshot = snapshotOfRow(row);
    return { ...routableOf(snapshot), stockMode: snapshot.stockMode };
  });
};

/** Each product's market as one supplier sees it, from the same routing module orders use. */
export const marketsFor = async (
  db: Kysely<Database>,
  productIds: string[],
  supplierId: string,
  now: Date,
): Promise<Map<string, Market>> => {
  const offers = await routableOffers(db, productIds);
  return new Map(productIds.map((id) => [id, marketFor(offers.get(id) ?? [], supplierId, now)]));
};
