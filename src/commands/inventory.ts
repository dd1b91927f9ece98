import { sql } from 'kysely';
import { fingerprinter } from '../crypto/fingerprint.js';
import { DomainError } from '../domain/errors.js';
import {
  type InventoryCommand,
  inventoryDecider,
  type InventoryUploadedData,
  type NewItem,
} from '../domain/inventory.js';
import { type Rejection, type ValidItem, validateItem } from '../domain/inventory-items.js';
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
  const accepted: { index: number; item: ValidItem }[] = [];
  rawItems.forEach((raw, index) => {
    const result = validateItem(raw, index);
    if ('rejection' in result) rejected.push(result.rejection);
    else accepted.push({ index, item: result.item });
  });
  const now = deps.clock.now();
  const idOf = operation ? derivedIds(operation.id) : () => newId();
  const values: Value[] = accepted.map(({ index, item }) => ({
    itemId: idOf(index),
    kind: item.kind,
    content: item.kind === 'text' ? item.value : item.bytes,
  }));
  // taken up to an item as needed: while the values are stored, if nothing is refused first
  const fingerprintOf = fingerprinter(deps.secretKey);
  const fingerprints: string[] = [];
  const fingerprintTo = (end: number) => {
    for (let i = fingerprints.length; i < end; i++)
      fingerprints.push(fingerprintOf(values[i]!.kind, values[i]!.content));
  };
  const newItems = (): NewItem[] => {
    fingerprintTo(values.length);
    return accepted.map(({ index, item }, i) => ({
      itemId: values[i]!.itemId,
      index,
      kind: item.kind,
      fingerprint: fingerprints[i]!,
      fileName: item.kind === 'file' ? item.fileName : null,
      contentType: item.kind === 'file' ? item.contentType : null,
    }));
  };
  if (mode === 'strict' && rejected.length > 0) {
    // refused anyway: let the decider list the duplicates too, before anything is stored
    const { state } = await load(deps.store, inventoryStream(offerId), inventoryDecider, deps.states);
    inventoryDecider.decide(
      { type: 'UploadInventory', data: { offerId, mode, items: newItems(), rejected, now: now.toISOString() } },
      state,
    );
  }

  // only a run after a crash can meet values of its own: a first run's ids are new
  if (operation?.resumed && values.length > 0) {
    const earlier = await earlierRun(
      deps,
      offerId,
      values.map((v) => v.itemId),
    );
    if (earlier) return earlier;
  }

  const forget = async (ids: string[]) => {
    for (let i = 0; i < ids.length; i += 1000)
      await deps.db
        .deleteFrom('inventory_values')
        .where('item_id', 'in', ids.slice(i, i + 1000))
        .execute();
  };
  // the fingerprints are taken while the values' INSERTs run
  await storeValues(deps, offerId, values, now, fingerprintTo, forget);
  const items = newItems();

  try {
    const result = await execute(
      deps,
      inventoryStream(offerId),
      inventoryDecider,
      (now): InventoryCommand => ({ type: 'UploadInventory', data: { offerId, mode, items, rejected, now } }),
      caller,
    );
    const uploaded = result.events.find((e) => e.type === 'InventoryUploaded');
    const acceptedIds = uploaded?.type === 'InventoryUploaded' ? uploaded.data.itemIds : [];
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

/** An accepted item's value, to be sealed and stored. */
interface Value {
  itemId: string;
  kind: 'text' | 'file';
  content: string | Buffer;
}

/** Values per INSERT: an upload of keys (at most 1,000) is one statement. */
const VALUES_PER_STATEMENT = 1000;
/** Bytes of content per statement: a batch of files (up to 64 MB) goes in a few. */
const VALUES_BYTES_PER_STATEMENT = 12 * 1024 * 1024;

const sizeOf = (content: string | Buffer) => (typeof content === 'string' ? content.length * 3 : content.length);

/**
 * Seals and stores the values: one statement for a batch of keys, whose rows go as one JSON
 * document, not a row of parameters per key (5,000 parameters to build, send and parse for
 * 1,000 keys) nor arrays (which the driver escapes element by element in JavaScript, where
 * JSON.stringify is native). Once a statement is on its way, `whileStored(end)`
 * does other work for the items before `end` (their fingerprints) and the next statement's
 * values are sealed. Answers once every value is stored; when a statement fails, after the
 * values the statements before it stored were deleted again (best effort: a resumed run
 * deletes what is left, see `earlierRun`).
 */
const storeValues = async (
  deps: CommandDeps,
  offerId: string,
  values: readonly Value[],
  now: Date,
  whileStored: (end: number) => void,
  forget: (ids: string[]) => Promise<void>,
) => {
  // one statement after another: a file batch's statements each carry up to 12 MB
  let stored: Promise<unknown> = Promise.resolve();
  const storedIds: string[] = [];
  for (let start = 0; start < values.length;) {
    let end = start + 1;
    let bytes = sizeOf(values[start]!.content);
    while (
      end < values.length &&
      end - start < VALUES_PER_STATEMENT &&
      bytes + sizeOf(values[end]!.content) <= VALUES_BYTES_PER_STATEMENT
    )
      bytes += sizeOf(values[end++]!.content);
    const chunk = values.slice(start, end);
    const sealed = deps.secretBox.sealMany(chunk.map((v) => v.content));
    const ids = chunk.map((v) => v.itemId);
    const insert = async () => {
      const rows = chunk.map((v, i) => ({ item_id: v.itemId, kind: v.kind, sealed: sealed[i] }));
      await sql`insert into inventory_values (item_id, offer_id, kind, sealed, created_at)
        select v.item_id, ${offerId}, v.kind, v.sealed, ${now}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(item_id text, kind text, sealed text)`.execute(
        deps.db,
      );
      storedIds.push(...ids);
    };
    stored = stored.then(insert);
    stored.catch(() => undefined); // awaited below, after the work done meanwhile
    // the pool hands a statement its connection on the next turn of the event loop: let
    // it go out before the work done while it runs
    await new Promise<void>((resolve) => setImmediate(resolve));
    whileStored(end);
    start = end;
  }
  try {
    await stored;
  } catch (error) {
    await forget(storedIds).catch(() => undefined);
    throw error;
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
    (e) => e.type === 'InventoryUploaded' && (e.data as InventoryUploadedData).itemIds.some((id) => ours.has(id)),
  );
  const accepted = recorded ? (recorded.data as InventoryUploadedData).itemIds : [];
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
