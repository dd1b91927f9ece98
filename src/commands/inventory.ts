import { sql } from 'kysely';
import { fingerprinter } from '../crypto/fingerprint.js';
import { DomainError } from '../domain/errors.js';
import { type InventoryCommand, inventoryDecider, type NewItem } from '../domain/inventory.js';
import { type Rejection, validateItem } from '../domain/inventory-items.js';
import { derivedIds, newId } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { load } from './handle.js';
import { loadOffer } from './offers.js';
import { inventoryStream } from './streams.js';

export interface UploadResult {
  accepted: number;
  rejected: Rejection[];
  itemIds: string[];
  stockAvailable: number;
}

/**
 * Validates every item, seals the accepted values into `inventory_values`, then records
 * the upload on the offer's inventory stream. Values are written first so that no event
 * ever names an item whose value is missing; values of an upload that is then refused
 * (a duplicate found under the stream lock) are deleted again.
 */
// eslint-disable-next-line max-lines-per-function -- one upload: refusals, duplicates and the append, in order
export const uploadInventory = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  mode: 'strict' | 'partial',
  rawItems: unknown[],
  caller: Caller,
  /**
   * From the request's Idempotency-Key: item ids follow from its id, so a run after a crash
   * (`resumed`) finds the first run's upload.
   */
  operation?: { id: string; resumed: boolean },
): Promise<UploadResult> => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  if (offer.stockMode !== 'uploaded')
    throw new DomainError(
      'stock_mode_mismatch',
      'inventory uploads are for uploaded offers; declare stock with PUT /offers/{offer_id}/stock',
    );

  const rejected: Rejection[] = [];
  const items: NewItem[] = [];
  const contents: (string | Buffer)[] = [];
  const now = deps.clock.now();
  const idOf = operation ? derivedIds(operation.id) : () => newId();
  const fingerprintOf = fingerprinter(deps.secretKey);
  rawItems.forEach((raw, index) => {
    const result = validateItem(raw, index);
    if ('rejection' in result) return void rejected.push(result.rejection);
    const { item } = result;
    const content = item.kind === 'text' ? item.value : item.bytes;
    items.push({
      itemId: idOf(index),
      index,
      kind: item.kind,
      fingerprint: fingerprintOf(item.kind, content),
      fileName: item.kind === 'file' ? item.fileName : null,
      contentType: item.kind === 'file' ? item.contentType : null,
    });
    contents.push(content);
  });
  if (mode === 'strict' && rejected.length > 0) {
    // refused anyway: let the decider list the duplicates too, before anything is stored
    const { state } = await load(deps.store, inventoryStream(offerId), inventoryDecider, deps.states);
    inventoryDecider.decide(
      { type: 'UploadInventory', data: { offerId, mode, items, rejected, now: now.toISOString() } },
      state,
    );
  }

  // only a run after a crash can meet values of its own: a first run's ids are new
  if (operation?.resumed && items.length > 0) {
    const earlier = await earlierRun(
      deps,
      offerId,
      items.map((i) => i.itemId),
    );
    if (earlier) return earlier;
  }

  await storeValues(deps, offerId, items, deps.secretBox.sealMany(contents), now);
  const forget = async (ids: string[]) => {
    for (let i = 0; i < ids.length; i += 1000)
      if (ids.length > 0)
        await deps.db
          .deleteFrom('inventory_values')
          .where('item_id', 'in', ids.slice(i, i + 1000))
          .execute();
  };

  try {
    const result = await execute(
      deps,
      inventoryStream(offerId),
      inventoryDecider,
      (now): InventoryCommand => ({ type: 'UploadInventory', data: { offerId, mode, items, rejected, now } }),
      caller,
    );
    const uploaded = result.events.find((e) => e.type === 'InventoryUploaded');
    const acceptedIds = uploaded?.type === 'InventoryUploaded' ? uploaded.data.items.map((i) => i.itemId) : [];
    const keep = new Set(acceptedIds);
    await forget(items.map((i) => i.itemId).filter((id) => !keep.has(id)));
    return {
      accepted: acceptedIds.length,
      rejected: uploaded?.type === 'InventoryUploaded' ? uploaded.data.rejected : rejected,
      itemIds: acceptedIds,
      stockAvailable: result.state.available,
    };
  } catch (error) {
    await forget(items.map((i) => i.itemId));
    throw error;
  }
};

/** Sealed characters per statement: a batch of files (up to 64 MB) goes in a few. */
const VALUES_CHARS_PER_STATEMENT = 16 * 1024 * 1024;

/**
 * The sealed values, in one statement for a batch of keys: columns as arrays (three
 * parameters), not a row of parameters per key, which costs 5,000 parameters to build,
 * send and parse for 1,000 keys.
 */
const storeValues = async (
  deps: CommandDeps,
  offerId: string,
  items: readonly NewItem[],
  sealed: readonly string[],
  now: Date,
) => {
  for (let start = 0; start < items.length;) {
    let end = start + 1;
    let chars = sealed[start]!.length;
    while (end < items.length && chars + sealed[end]!.length <= VALUES_CHARS_PER_STATEMENT)
      chars += sealed[end++]!.length;
    const batch = items.slice(start, end);
    await sql`insert into inventory_values (item_id, offer_id, kind, sealed, created_at)
      select v.item_id, ${offerId}, v.kind, v.sealed, ${now}::timestamptz
      from unnest(${batch.map((i) => i.itemId)}::text[], ${batch.map((i) => i.kind)}::text[],
                  ${sealed.slice(start, end)}::text[]) as v(item_id, kind, sealed)`.execute(deps.db);
    start = end;
  }
};

/**
 * The same upload run again (its Idempotency-Key taken over after a crash): when the first
 * run recorded it, its result is the answer; values a crash left without their event are
 * dropped so the upload can run afresh.
 */
const earlierRun = async (deps: CommandDeps, offerId: string, itemIds: string[]): Promise<UploadResult | undefined> => {
  const left = await deps.db.selectFrom('inventory_values').select('item_id').where('item_id', 'in', itemIds).execute();
  if (left.length === 0) return undefined;
  const ours = new Set(itemIds);
  const recorded = (await deps.store.readStream(inventoryStream(offerId))).find(
    (e) =>
      e.type === 'InventoryUploaded' &&
      (e.data as { items: { itemId: string }[] }).items.some((i) => ours.has(i.itemId)),
  );
  const accepted = recorded ? (recorded.data as { items: { itemId: string }[] }).items.map((i) => i.itemId) : [];
  const keep = new Set(accepted);
  const stray = left.map((r) => r.item_id).filter((id) => !keep.has(id));
  for (let i = 0; i < stray.length; i += 1000)
    await deps.db
      .deleteFrom('inventory_values')
      .where('item_id', 'in', stray.slice(i, i + 1000))
      .execute();
  if (!recorded) return undefined;
  const { state } = await load(deps.store, inventoryStream(offerId), inventoryDecider, deps.states);
  return {
    accepted: accepted.length,
    rejected: (recorded.data as { rejected: Rejection[] }).rejected,
    itemIds: accepted,
    stockAvailable: state.available,
  };
};

export const removeInventoryItem = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  itemId: string,
  caller: Caller,
) => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  const result = await execute(
    deps,
    inventoryStream(offerId),
    inventoryDecider,
    (now): InventoryCommand => ({
      type: 'RemoveItem',
      data: { offerId, itemId, lowStockThreshold: offer.terms.lowStockThreshold, now },
    }),
    caller,
  );
  // the supplier took the key back: its value is no longer ours to keep
  await deps.db.deleteFrom('inventory_values').where('item_id', '=', itemId).execute();
  return result.state;
};
