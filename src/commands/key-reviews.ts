import { sql } from 'kysely';
import { DomainError } from '../domain/errors.js';
import {
  type CollidingItem,
  type HeldOnUpload,
  type HoldReason,
  type InventoryCommand,
  inventoryDecider,
} from '../domain/inventory.js';
import { offerDecider } from '../domain/offer.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { awardClaim } from './key-claims.js';
import { inventoryStream, offerStream } from './streams.js';

/**
 * The operator's side of items under review, and what follows a collision found at upload:
 * the other supplier's item is held too, unless it is no longer live (then the held copy is
 * the only one, and goes back on sale).
 */

const threshold = async (deps: CommandDeps, offerId: string) => {
  const state = await stateOf(deps, offerStream(offerId), offerDecider);
  if (!state) throw new DomainError('not_found', `offer ${offerId} not found`);
  return state;
};

/** Holds available items of one offer from sale, under review. */
export const holdItems = async (
  deps: CommandDeps,
  offerId: string,
  itemIds: readonly string[],
  reason: HoldReason,
  collidesWith: CollidingItem | null,
  caller: Caller,
) => {
  const offer = await threshold(deps, offerId);
  return execute(
    deps,
    inventoryStream(offerId),
    inventoryDecider,
    (now): InventoryCommand => ({
      type: 'HoldItems',
      data: { offerId, itemIds, reason, collidesWith, lowStockThreshold: offer.terms.lowStockThreshold, now },
    }),
    caller,
  );
};

/**
 * Ends an item's review: back for sale, and its key is this item's from now on (the review
 * found it the rightful one; the other is the operator's to invalidate).
 */
export const clearReview = async (deps: CommandDeps, offerId: string, itemId: string, caller: Caller) => {
  const offer = await threshold(deps, offerId);
  const result = await execute(
    deps,
    inventoryStream(offerId),
    inventoryDecider,
    (now): InventoryCommand => ({ type: 'ClearReview', data: { offerId, itemIds: [itemId], now } }),
    caller,
  );
  const item = result.state.items.get(itemId);
  if (!item) throw new DomainError('not_found', `inventory item ${itemId} not found`);
  if (item.status !== 'available') return result;
  await awardClaim(deps.db, { itemId, fingerprint: item.fingerprint, offerId, supplierId: offer.supplierId });
  return result;
};

/** Whether a claim is still fresh: an item not recorded yet may be on its way. */
const claimFresh = async (deps: CommandDeps, itemId: string) => {
  const { rows } = await sql<{ fresh: boolean }>`
    select claimed_at > now() - interval '10 minutes' as fresh from key_fingerprints where item_id = ${itemId}`.execute(
    deps.db,
  );
  return rows.some((r) => r.fresh);
};

export type CollisionOutcome = 'held_both' | 'other_not_for_sale' | 'other_gone' | 'other_not_recorded_yet';

/**
 * What a collision found at upload leads to, for one held item: the other supplier's item
 * held too while it is for sale; kept as it is when it is reserved, sold, invalidated or
 * held already; when it was withdrawn or never recorded, the held item is the only copy and
 * is cleared. An item not recorded yet while its claim is fresh is looked at again later.
 */
export const followCollision = async (
  deps: CommandDeps,
  offerId: string,
  held: HeldOnUpload & { heldItemId: string },
  caller: Caller,
): Promise<CollisionOutcome> => {
  const ours = await threshold(deps, offerId);
  const state = await stateOf(deps, inventoryStream(held.offerId), inventoryDecider, { fresh: true });
  const status = state.items.get(held.itemId)?.status;
  if (status === undefined && (await claimFresh(deps, held.itemId))) return 'other_not_recorded_yet';
  if (status === undefined || status === 'removed') {
    await clearReview(deps, offerId, held.heldItemId, caller);
    return 'other_gone';
  }
  if (status !== 'available') return 'other_not_for_sale';
  await holdItems(
    deps,
    held.offerId,
    [held.itemId],
    'key_collision',
    { itemId: held.heldItemId, offerId, supplierId: ours.supplierId },
    caller,
  );
  return 'held_both';
};
