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
 * another item holds. One statement in the usual case (the insert and the owners it met);
 * a key another upload claimed during that statement is read once more after it.
 */
export const claimKeys = async (
  db: Kysely<Database>,
  supplierId: string,
  offerId: string,
  claims: readonly Claimant[],
): Promise<Map<string, Owner>> => {
  const owners = new Map<string, Owner>();
  if (claims.length === 0) return owners;
  const fingerprints = claims.map((c) => c.fingerprint);
  const ours = new Set(claims.map((c) => c.itemId));
  const { rows } = await sql<OwnerRow & { how: 'claimed' | 'held' }>`
    with mine as (
      select * from unnest(${fingerprints}::text[], ${claims.map((c) => c.itemId)}::text[])
        with ordinality as m(fingerprint, item_id, place)
    ), claimed as (
      insert into key_fingerprints (fingerprint, item_id, offer_id, supplier_id)
      select distinct on (fingerprint) fingerprint, item_id, ${offerId}, ${supplierId} from mine
      order by fingerprint, place
      on conflict (fingerprint) do nothing
      returning fingerprint
    )
    select 'claimed' as how, fingerprint, null as item_id, null as offer_id, null as supplier_id, false as stale
    from claimed
    union all
    select 'held', k.fingerprint, k.item_id, k.offer_id, k.supplier_id, k.claimed_at < now() - ${STALE_AFTER}::interval
    from key_fingerprints k where k.fingerprint = any(${fingerprints}::text[])`.execute(db);
  const answered = new Set(rows.map((r) => r.fingerprint));
  for (const r of rows) if (r.how === 'held' && !ours.has(r.item_id)) owners.set(r.fingerprint, ownerOf(r));
  // claimed by another upload while this statement ran: its snapshot did not show them
  const unseen = [...new Set(fingerprints.filter((f) => !answered.has(f)))];
  if (unseen.length > 0) {
    const late = await sql<OwnerRow>`
      select fingerprint, item_id, offer_id, supplier_id, claimed_at < now() - ${STALE_AFTER}::interval as stale
      from key_fingerprints where fingerprint = any(${unseen}::text[])`.execute(db);
    for (const r of late.rows) if (!ours.has(r.item_id)) owners.set(r.fingerprint, ownerOf(r));
  }
  return owners;
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
