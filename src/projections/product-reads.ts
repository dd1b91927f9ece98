import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { DomainError, invalidInput } from '../domain/errors.js';

/** A page of the catalogue by id, one row past `limit` when there are more. */
export const listProducts = (db: Kysely<Database>, filter: { type?: string; after?: string; limit: number }) => {
  let q = db
    .selectFrom('products')
    .selectAll()
    .orderBy('id')
    .limit(filter.limit + 1);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.after) q = q.where('id', '>', filter.after);
  return q.execute();
};

export const productById = (db: Kysely<Database>, productId: string) =>
  db.selectFrom('products').selectAll().where('id', '=', productId).executeTakeFirst();

export const productExists = async (db: Kysely<Database>, productId: string): Promise<boolean> =>
  (await db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst()) !== undefined;

/**
 * Refuses a checkout whose lines name a product the catalogue does not have (every such line,
 * by its index in the checkout's `items`), or one that is not sellable: before any stream is
 * touched, so a refused checkout writes nothing.
 */
export const assertCheckoutProducts = async (db: Kysely<Database>, productIds: readonly string[]): Promise<void> => {
  const wanted = [...new Set(productIds)];
  const products = await db.selectFrom('products').select(['id', 'status']).where('id', 'in', wanted).execute();
  const unknown = productIds.flatMap((id, i) =>
    products.some((p) => p.id === id) ? [] : [{ input: `items.${i}.product_id`, message: `no product ${id}` }],
  );
  if (unknown.length > 0) throw invalidInput(unknown, 'unknown product(s)');
  const unsellable = products.find((p) => p.status !== 'sellable');
  if (unsellable) throw new DomainError('product_not_sellable', `product ${unsellable.id} is not sellable`);
};
