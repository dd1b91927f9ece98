import { DomainError } from '../domain/errors.js';
import { type InventoryCommand, inventoryDecider, type InventoryState, type ItemStatus } from '../domain/inventory.js';
import type { OfferCommand } from '../domain/offer.js';
import { offerDecider } from '../domain/offer.js';
import { derivedFamily } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { dropValues, openValues, type OpenedValue } from './inventory-values.js';
import { claimantsOf, releaseClaims } from './key-claims.js';
import { loadOffer } from './offers.js';
import { inventoryStream, offerStream } from './streams.js';

/** What a withdrawal names: items by id (one, or a selection), or a whole batch. */
export type Withdrawal = { itemIds: readonly string[] } | { batchId: string };

export interface WithdrawalResult {
  withdrawn: string[];
  /** Named items that were not withdrawn, with their status (unknown: not in this offer). */
  skipped: { itemId: string; status: ItemStatus | 'unknown' }[];
  stockAvailable: number;
}

/** A batch's items in upload order: an upload's (or an import's) item ids are one family (src/ids.ts). */
const itemsOfBatch = (state: InventoryState, batchId: string): string[] => {
  const ids: string[] = [];
  for (let p = 0; p < state.order.length; p++) {
    const id = state.order.at(p);
    if (id !== undefined && derivedFamily(id) === batchId) ids.push(id);
  }
  return ids;
};

/**
 * Takes back available items (and items under review): their values are dropped, the stock
 * figures move in the same event. Items of the selection or batch in any other status are
 * left as they are and named in the answer (a sold key stays sold).
 */
export const withdrawInventory = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  withdrawal: Withdrawal,
  caller: Caller,
): Promise<WithdrawalResult> => {
  const { offer, inventory } = await loadOffer(deps, supplierId, offerId);
  const named =
    'itemIds' in withdrawal ? [...new Set(withdrawal.itemIds)] : itemsOfBatch(inventory, withdrawal.batchId);
  if (named.length === 0)
    throw new DomainError(
      'not_found',
      `batch ${'batchId' in withdrawal ? withdrawal.batchId : ''} has no item in this offer`,
    );
  const result = await execute(
    deps,
    inventoryStream(offerId),
    inventoryDecider,
    (now): InventoryCommand => ({
      type: 'WithdrawItems',
      data: { offerId, itemIds: named, lowStockThreshold: offer.terms.lowStockThreshold, now },
    }),
    caller,
  );
  const withdrawn = result.events.flatMap((e) => (e.type === 'InventoryItemsWithdrawn' ? e.data.itemIds : []));
  await dropValues(deps, withdrawn);
  await releaseClaims(deps.db, claimantsOf(result.state, withdrawn));
  const gone = new Set(withdrawn);
  return {
    withdrawn,
    skipped: named
      .filter((id) => !gone.has(id))
      .map((itemId) => ({ itemId, status: result.state.items.get(itemId)?.status ?? 'unknown' })),
    stockAvailable: result.state.available,
  };
};

/**
 * An item's value in clear, on the supplier's explicit Reveal: recorded first in the offer's
 * history (which token, when), so no value is shown that the history does not name.
 */
export const revealItem = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  itemId: string,
  tokenId: string | null,
  caller: Caller,
): Promise<OpenedValue> => {
  await loadOffer(deps, supplierId, offerId);
  const state = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
  const item = state.items.get(itemId);
  if (!item) throw new DomainError('not_found', `inventory item ${itemId} not found`);
  if (item.status === 'removed')
    throw new DomainError('invalid_state', `item ${itemId} was withdrawn: its value is no longer kept`);
  const value = (await openValues(deps, [itemId])).get(itemId);
  if (!value) throw new DomainError('invalid_state', `the value of item ${itemId} is no longer kept`);
  await execute(
    deps,
    offerStream(offerId),
    offerDecider,
    (now): OfferCommand => ({ type: 'RecordReveal', data: { itemId, tokenId, now } }),
    caller,
  );
  return value;
};
