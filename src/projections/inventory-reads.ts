import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A page of an offer's items by id (never their values; removed ones left out), one row past `limit` when there are more. */
export const listInventoryItems = (
  db: Kysely<Database>,
  offerId: string,
  filter: { status?: string; after?: string; limit: number },
) => {
  let q = db
    .selectFrom('inventory_items')
    .selectAll()
    .where('offer_id', '=', offerId)
    .where('status', '!=', 'removed')
    .orderBy('id')
    .limit(filter.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
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
