import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InventoryState } from '../domain/inventory.js';

/**
 * One owner per key value across the marketplace (`key_fingerprints`, by keyed fingerprint,
 * never the key). An upload claims its keys before its event is appended: the primary key
 * makes two uploads of the same key meet here, whichever of them appends first, so a key is
 * never for sale twice. A claim names an item; an item whose upload never got recorded
 * leaves a claim that only its own supplier's next upload, or time, takes over.
 */

export interface Claimant {
  itemId: string;
  fingerprint: string;
}

/** The item holding a key, and whether its claim is old enough that an unrecorded item is gone for good. */
export interface Owner {
  itemId: string;
  offerId: string;
  supplierId: string;
  stale: boolean;
}

/**
 * Longer than an upload takes between its claims and its event: an unrecorded item whose
 * claim is older belongs to an upload that died in between.
 */
const STALE_AFTER = '10 minutes';

interface OwnerRow {
  fingerprint: string;
  item_id: string;
  offer_id: string;
  supplier_id: string;
  stale: boolean;
}

const ownerOf = (r: OwnerRow): Owner => ({
  itemId: r.item_id,
  offerId: r.offer_id,
  supplierId: r.supplier_id,
  stale: r.stale,
});

/**
 * Claims each key for its item and answers, by fingerprint, the owner of every key that
 * another item holds. One statement in the usual case, where every key is new: the insert,
 * answering the keys it claimed. Only the keys it did not claim (held already, or claimed by
 * another upload while it ran) are looked up after it: probing the index again for every key
 * the insert had just placed cost as much as the insert.
 */
export const claimKeys = async (
  db: Kysely<Database>,
  supplierId: string,
  offerId: string,
  claims: readonly Claimant[],
): Promise<Map<string, Owner>> => {
  const owners = new Map<string, Owner>();
  const ours = new Set(claims.map((c) => c.itemId));
  let pending: readonly Claimant[] = claims;
  // a key found neither claimed nor held was let go of between the two statements: claimed again
  while (pending.length > 0) {
    const claimed = await claimNew(db, supplierId, offerId, pending);
    const unclaimed = [...new Set(pending.map((c) => c.fingerprint).filter((f) => !claimed.has(f)))];
    if (unclaimed.length === 0) break;
    const held = await sql<OwnerRow>`
      select fingerprint, item_id, offer_id, supplier_id, claimed_at < now() - ${STALE_AFTER}::interval as stale
      from key_fingerprints where fingerprint = any(${unclaimed}::text[])`.execute(db);
    const found = new Set(held.rows.map((r) => r.fingerprint));
    for (const r of held.rows) if (!ours.has(r.item_id)) owners.set(r.fingerprint, ownerOf(r));
    pending = pending.filter((c) => !claimed.has(c.fingerprint) && !found.has(c.fingerprint));
  }
  return owners;
};

/** Inserts the claims of keys no one holds; answers the fingerprints it claimed. */
const claimNew = async (
  db: Kysely<Database>,
  supplierId: string,
  offerId: string,
  claims: readonly Claimant[],
): Promise<Set<string>> => {
  // the arrays as one JSON document each: the driver escapes a text[] element by element
  const { rows } = await sql<{ fingerprint: string }>`
    insert into key_fingerprints (fingerprint, item_id, offer_id, supplier_id)
    select distinct on (f.fingerprint) f.fingerprint, i.item_id, ${offerId}, ${supplierId}
    from jsonb_array_elements_text(${JSON.stringify(claims.map((c) => c.fingerprint))}::jsonb)
        with ordinality as f(fingerprint, place)
      join jsonb_array_elements_text(${JSON.stringify(claims.map((c) => c.itemId))}::jsonb) with ordinality
        as i(item_id, place) on i.place = f.place
    order by f.fingerprint, f.place
    on conflict (fingerprint) do nothing
    returning fingerprint`.execute(db);
  return new Set(rows.map((r) => r.fingerprint));
};

/** These items with their keys' fingerprints, as the offer's state knows them. */
export const claimantsOf = (state: InventoryState, itemIds: readonly string[]): Claimant[] =>
  itemIds.flatMap((itemId) => {
    const item = state.items.get(itemId);
    return item ? [{ itemId, fingerprint: item.fingerprint }] : [];
  });

/** Lets go of these items' claims (only where the item still holds the key). */
export const releaseClaims = async (db: Kysely<Database>, claims: readonly Claimant[]): Promise<void> => {
  if (claims.length === 0) return;
  await sql`delete from key_fingerprints k
    using unnest(${claims.map((c) => c.fingerprint)}::text[], ${claims.map((c) => c.itemId)}::text[])
      as c(fingerprint, item_id)
    where k.fingerprint = c.fingerprint and k.item_id = c.item_id`.execute(db);
};

/**
 * Moves claims to these items from the items that held them (`from`), where those still do:
 * an item recorded in their place (the earlier one withdrawn, or never recorded).
 */
export const takeOverClaims = async (
  db: Kysely<Database>,
  supplierId: string,
  offerId: string,
  claims: readonly (Claimant & { from: string })[],
): Promise<void> => {
  if (claims.length === 0) return;
  await sql`update key_fingerprints k
    set item_id = c.item_id, offer_id = ${offerId}, supplier_id = ${supplierId}, claimed_at = now()
    from unnest(${claims.map((c) => c.fingerprint)}::text[], ${claims.map((c) => c.itemId)}::text[],
                ${claims.map((c) => c.from)}::text[]) as c(fingerprint, item_id, from_id)
    where k.fingerprint = c.fingerprint and k.item_id = c.from_id`.execute(db);
};

/** Gives the key to this item whoever held it: the operator's review found it the rightful one. */
export const awardClaim = async (
  db: Kysely<Database>,
  claim: Claimant & { offerId: string; supplierId: string },
): Promise<void> => {
  await sql`insert into key_fingerprints (fingerprint, item_id, offer_id, supplier_id)
    values (${claim.fingerprint}, ${claim.itemId}, ${claim.offerId}, ${claim.supplierId})
    on conflict (fingerprint) do update set item_id = excluded.item_id, offer_id = excluded.offer_id,
      supplier_id = excluded.supplier_id, claimed_at = now()`.execute(db);
};
