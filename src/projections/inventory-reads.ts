import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface InventoryFilter {
  /** A status as the read model keeps it (`delivered`, `removed`, `held`…). */
  status?: string;
  batchId?: string;
  /** 1 to 4 characters the shown end of a key's mask ends with, any case. */
  last?: string;
  after?: string;
  limit: number;
}

/** A page of an offer's items by id (never their values), one row past `limit` when there are more. */
export const listInventoryItems = (db: Kysely<Database>, offerId: string, filter: InventoryFilter) => {
  let q = db
    .selectFrom('inventory_items')
    .selectAll()
    .where('offer_id', '=', offerId)
    .orderBy('id')
    .limit(filter.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.batchId) q = q.where('batch_id', '=', filter.batchId);
  // a few characters typed by a person: the mask's shown end, compared in capitals
  if (filter.last) q = q.where(sql<boolean>`right(tail, ${filter.last.length}) = ${filter.last.toUpperCase()}`);
  if (filter.after) q = q.where('id', '>', filter.after);
  return q.execute();
};

/** What a file item was uploaded as (its name and type), by item id. */
export const inventoryFileNames = async (db: Kysely<Database>, itemIds: readonly string[]) =>
  itemIds.length === 0
    ? []
    : db
        .selectFrom('inventory_items')
        .select(['id', 'file_name', 'content_type'])
        .where('id', 'in', [...itemIds])
        .execute();

/** An item's offer and status, whichever offer it is in. */
export const inventoryItemById = (db: Kysely<Database>, itemId: string) =>
  db.selectFrom('inventory_items').select(['id', 'offer_id', 'status']).where('id', '=', itemId).executeTakeFirst();

/**
 * A page of the keys found held by two suppliers, by held item, each item with its offer,
 * supplier and status now; `open`: only those whose held item is still under review.
 */
export const listKeyCollisions = (db: Kysely<Database>, filter: { open: boolean; after?: string; limit: number }) => {
  let q = db
    .selectFrom('key_collisions as c')
    .innerJoin('offers as o', 'o.id', 'c.offer_id')
    .leftJoin('inventory_items as i', 'i.id', 'c.item_id')
    .leftJoin('inventory_items as w', 'w.id', 'c.other_item_id')
    .select([
      'c.item_id',
      'c.offer_id',
      'o.supplier_id',
      'i.status',
      'c.other_item_id',
      'c.other_offer_id',
      'c.other_supplier_id',
      'w.status as other_status',
      'c.detected_at',
    ])
    .orderBy('c.item_id')
    .limit(filter.limit + 1);
  if (filter.open) q = q.where('i.status', '=', 'held');
  if (filter.after) q = q.where('c.item_id', '>', filter.after);
  return q.execute();
};
