import { fingerprinter } from '../crypto/fingerprint.js';
import { DomainError } from '../domain/errors.js';
import {
  type InventoryCommand,
  type InventoryEvent,
  inventoryDecider,
  type InventoryUploadedData,
  type NewItem,
} from '../domain/inventory.js';
import { maskOf, type Rejection, type ValidItem, validateItem } from '../domain/inventory-items.js';
import { keyFormatCheck, productDecider } from '../domain/product.js';
import { required } from '../domain/required.js';
import { derivedFamily, derivedIds, newId } from '../ids.js';
import { type Caller, type CommandDeps, execute, executeTogether } from './context.js';
import { streamOf, type StreamOf, type Writes } from './handle-together.js';
import { stateOf } from './handle.js';
import { deleteValueSets, dropValues, storedValueIds, storeValueSet, type Value } from './inventory-values.js';
import { type Claimant, claimantsOf, claimKeys, type Owner, releaseClaims, takeOverClaims } from './key-claims.js';
import { loadOffer } from './offers.js';
import { inventoryStream, productStream } from './streams.js';

export interface UploadResult {
  accepted: number;
  rejected: Rejection[];
  itemIds: string[];
  stockAvailable: number;
}

/**
 * Validates every item, seals the accepted values as one set (`inventory-values.ts`), then records
 * the upload on the offer's inventory stream. Values are written first so that no event
 * ever names an item whose value is missing; values of an upload that is then refused
 * (a duplicate found under the stream lock) are deleted again.
 */
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
  const { rejected, accepted } = validateItems(rawItems, await keyFormatOf(deps, offer.productId));
  const now = deps.clock.now();
  // one family of ids per upload, whose values are kept as one set (inventory-values.ts)
  const uploads = uploadsOf(accepted, derivedIds(operation?.id ?? newId()));
  const values = uploads.map((u) => u.value);
  const items = newItemsOf(deps, uploads);
  if (mode === 'strict' && rejected.length > 0) {
    // refused anyway: let the decider list the duplicates too, before anything is stored
    const state = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
    inventoryDecider.decide(
      { type: 'UploadInventory', data: { offerId, mode, items: items.all(), rejected, now: now.toISOString() } },
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
  // the fingerprints are taken while the values' INSERTs run
  await storeValues(deps, offerId, values, now, items.fingerprintTo);
  const claims = await claimsOf(deps, supplierId, offerId, items.all());
  const refused = [...rejected, ...claims.rejected].sort((a, b) => a.index - b.index);
  return recordUpload(deps, { offerId, mode, items: claims.items, rejected: refused }, caller, claims);
};

/**
 * Records items whose values are stored already (a chunk of an import): their keys claimed,
 * the upload decided and appended as one of the API's in partial mode. What is not recorded
 * loses its value and claim.
 */
export const recordStoredItems = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  items: NewItem[],
  caller: Caller,
  alongside?: Alongside,
  /** The items' claims when taken already (`claimKeys`, started ahead by the import). */
  claimed?: Promise<Map<string, Owner>>,
): Promise<UploadResult> => {
  const claims = await claimsOf(deps, supplierId, offerId, items, claimed);
  return recordUpload(
    deps,
    { offerId, mode: 'partial', items: claims.items, rejected: claims.rejected },
    caller,
    claims,
    alongside,
  );
};

/**
 * A write on another stream that belongs with an upload (an import's record of its chunk),
 * decided from what the upload recorded and appended with it: one write instead of two, and
 * a crash leaves both or neither.
 */
export interface Alongside {
  stream: StreamOf;
  decide: (writes: Writes, uploaded: Pick<UploadResult, 'accepted' | 'rejected'>, now: string) => void;
}

/** The product's key format as one check (any key fits a product without one). */
export const keyFormatOf = async (deps: CommandDeps, productId: string) => {
  const state = await stateOf(deps, productStream(productId), productDecider);
  return keyFormatCheck(state?.keyFormat ?? null);
};

/** Each raw item judged: a rejection, or a valid item with its index in the upload. */
const validateItems = (rawItems: unknown[], format: (value: string) => string | undefined) => {
  const rejected: Rejection[] = [];
  const accepted: { index: number; item: ValidItem }[] = [];
  rawItems.forEach((raw, index) => {
    const result = validateItem(raw, index, format);
    if ('rejection' in result) rejected.push(result.rejection);
    else accepted.push({ index, item: result.item });
  });
  return { rejected, accepted };
};

interface Upload {
  index: number;
  item: ValidItem;
  value: Value;
}

const uploadsOf = (accepted: { index: number; item: ValidItem }[], idOf: (seq: number) => string): Upload[] =>
  accepted.map(({ index, item }) => ({
    index,
    item,
    value: { itemId: idOf(index), kind: item.kind, content: item.kind === 'text' ? item.value : item.bytes },
  }));

/**
 * The uploads as the inventory records them, with their values' fingerprints: taken up to
 * an item as needed (`fingerprintTo`), while the values are stored, if nothing is refused first.
 */
const newItemsOf = (deps: CommandDeps, uploads: readonly Upload[]) => {
  const fingerprintOf = fingerprinter(deps.secretKey);
  const fingerprints: string[] = [];
  const fingerprintTo = (end: number) => {
    for (const { value } of uploads.slice(fingerprints.length, end))
      fingerprints.push(fingerprintOf(value.kind, value.content));
  };
  const all = (): NewItem[] => {
    fingerprintTo(uploads.length);
    return uploads.map(({ index, item, value }, i) => ({
      itemId: value.itemId,
      index,
      kind: item.kind,
      fingerprint: required(fingerprints[i], `the fingerprint of item ${value.itemId}`),
      fileName: item.kind === 'file' ? item.fileName : null,
      contentType: item.kind === 'file' ? item.contentType : null,
      mask: item.kind === 'text' ? maskOf(item.value).mask : '',
      size: item.kind === 'file' ? item.bytes.length : null,
    }));
  };
  return { fingerprintTo, all };
};

/** Records the upload on the offer's inventory stream, keeping only the values and claims the stream holds. */
const recordUpload = async (
  deps: CommandDeps,
  upload: { offerId: string; mode: 'strict' | 'partial'; items: NewItem[]; rejected: Rejection[] },
  caller: Caller,
  claims: KeyClaims,
  alongside?: Alongside,
): Promise<UploadResult> => {
  const { offerId, rejected } = upload;
  const stream = inventoryStream(offerId);
  const command = (now: string): InventoryCommand => ({ type: 'UploadInventory', data: { ...upload, now } });
  const recorded = (events: readonly InventoryEvent[]) => {
    const uploaded = events.find((e) => e.type === 'InventoryUploaded');
    return uploaded?.type === 'InventoryUploaded'
      ? { itemIds: uploaded.data.itemIds, rejected: uploaded.data.rejected }
      : { itemIds: [], rejected };
  };
  try {
    const result = alongside
      ? await executeTogether(
          deps,
          [streamOf(stream, inventoryDecider), alongside.stream],
          (writes, now) => {
            const written = writes.on(stream, inventoryDecider, [command(now)]);
            const { itemIds, rejected: refused } = recorded(written.events);
            alongside.decide(writes, { accepted: itemIds.length, rejected: refused }, now);
            return written;
          },
          caller,
        )
      : await execute(deps, stream, inventoryDecider, command, caller);
    const { itemIds: acceptedIds, rejected: refused } = recorded(result.events);
    // what the stream holds now is kept, not only what this run recorded: a run of the same
    // operation beside this one (the key taken over from a stalled owner) derives the same
    // item ids, and may have recorded them first
    const unrecorded = claims.stored.filter((i) => !result.state.items.has(i.itemId));
    await dropValues(
      deps,
      unrecorded.map((i) => i.itemId),
    );
    await releaseClaims(deps.db, unrecorded);
    await takeOverClaims(
      deps.db,
      claims.supplierId,
      offerId,
      claims.takeOvers.filter((t) => result.state.items.has(t.itemId)),
    );
    return {
      accepted: acceptedIds.length,
      rejected: refused,
      itemIds: acceptedIds,
      stockAvailable: result.state.available,
    };
  } catch (error) {
    // best effort: values left here are the value-set sweep's (commands/value-set-sweep.ts)
    await dropUnrecorded(deps, offerId, claims.stored).catch(() => undefined);
    throw error;
  }
};

/**
 * Drops the values and claims of these items that no upload recorded, as the stream says now:
 * another run of the same operation (same item ids) may have recorded them while this one failed.
 */
const dropUnrecorded = async (deps: CommandDeps, offerId: string, items: readonly NewItem[]) => {
  const state = await stateOf(deps, inventoryStream(offerId), inventoryDecider, { fresh: true });
  const unrecorded = items.filter((i) => !state.items.has(i.itemId));
  await dropValues(
    deps,
    unrecorded.map((i) => i.itemId),
  );
  await releaseClaims(deps.db, unrecorded);
};

/** What an upload's claims decided (`claimsOf`), and what its recording does with them. */
interface KeyClaims {
  supplierId: string;
  /** Every item whose value was stored: what is not recorded is dropped, value and claim. */
  stored: readonly NewItem[];
  /** Claims to move to these items once recorded, from items no longer live. */
  takeOvers: (Claimant & { from: string })[];
}

/**
 * Claims the upload's keys (key-claims.ts) and judges the keys another item holds: another
 * supplier's are stored under review (`collidesWith`), the same whatever that item is, so the
 * answer tells nothing of whose key it is or whether it is live; one of this supplier's other
 * offers' live keys is refused as in stock; a claim of an item no longer live (withdrawn, or
 * never recorded) is taken over once this upload is recorded. This offer's own keys are the
 * decider's to judge, from the offer's state.
 */
const claimsOf = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  stored: NewItem[],
  claimed?: Promise<Map<string, Owner>>,
): Promise<KeyClaims & { items: NewItem[]; rejected: Rejection[] }> => {
  const owners = await (claimed ?? claimKeys(deps.db, supplierId, offerId, stored));
  const items: NewItem[] = [];
  const rejected: Rejection[] = [];
  const takeOvers: (Claimant & { from: string })[] = [];
  for (const item of stored) {
    const owner = owners.get(item.fingerprint);
    if (!owner) items.push(item);
    else if (owner.supplierId !== supplierId) {
      items.push({
        ...item,
        collidesWith: { itemId: owner.itemId, offerId: owner.offerId, supplierId: owner.supplierId },
      });
    } else if (owner.offerId !== offerId && (await liveElsewhere(deps, owner)))
      rejected.push({ index: item.index, code: 'duplicate_key', message: 'this key is already in your stock' });
    else {
      items.push(item);
      takeOvers.push({ itemId: item.itemId, fingerprint: item.fingerprint, from: owner.itemId });
    }
  }
  return { supplierId, stored, items, rejected, takeOvers };
};

/**
 * Whether an item of another of the supplier's offers holds its key: recorded and not
 * withdrawn, or not recorded yet by an upload that may still be running.
 */
const liveElsewhere = async (deps: CommandDeps, owner: Owner) => {
  const state = await stateOf(deps, inventoryStream(owner.offerId), inventoryDecider);
  const status = state.items.get(owner.itemId)?.status;
  return status === undefined ? !owner.stale : status !== 'removed';
};

/** Values per statement: an upload of keys (at most 1,000) is one set, one row. */
const VALUES_PER_STATEMENT = 1000;
/** Bytes of content per statement: a batch of files (up to 64 MB) goes in a few. */
const VALUES_BYTES_PER_STATEMENT = 12 * 1024 * 1024;

const sizeOf = (content: string | Buffer) => (typeof content === 'string' ? content.length * 3 : content.length);

/** The values cut into statements of at most VALUES_PER_STATEMENT values and VALUES_BYTES_PER_STATEMENT bytes (a larger value alone). */
const statementsOf = (values: readonly Value[]): Value[][] => {
  const statements: Value[][] = [];
  let statement: Value[] = [];
  let bytes = 0;
  for (const value of values) {
    const size = sizeOf(value.content);
    if (
      statement.length > 0 &&
      (statement.length >= VALUES_PER_STATEMENT || bytes + size > VALUES_BYTES_PER_STATEMENT)
    ) {
      statements.push(statement);
      statement = [];
      bytes = 0;
    }
    statement.push(value);
    bytes += size;
  }
  if (statement.length > 0) statements.push(statement);
  return statements;
};

/**
 * Seals and stores the values: one set (one sealed row) per statement, a batch of keys in
 * one. Once a statement is on its way, `whileStored(end)` does other work for the items
 * before `end` (their fingerprints) and the next statement's values are sealed. Answers
 * once every value is stored; when a statement fails, after the sets the statements before
 * it stored were deleted again (best effort: a resumed run deletes what is left, see
 * `earlierRun`).
 */
const storeValues = async (
  deps: CommandDeps,
  offerId: string,
  values: readonly Value[],
  now: Date,
  whileStored: (end: number) => void,
) => {
  // one statement after another: a file batch's statements each carry up to 12 MB
  let stored: Promise<unknown> = Promise.resolve();
  const storedParts: number[] = [];
  let end = 0;
  for (const [part, chunk] of statementsOf(values).entries()) {
    end += chunk.length;
    const insert = async () => {
      await storeValueSet(deps, offerId, part, chunk, now);
      storedParts.push(part);
    };
    stored = stored.then(insert);
    stored.catch(() => undefined); // awaited below, after the work done meanwhile
    // the pool hands a statement its connection on the next turn of the event loop: let
    // it go out before the work done while it runs
    await new Promise<void>((resolve) => setImmediate(resolve));
    whileStored(end);
  }
  try {
    await stored;
  } catch (error) {
    const [first] = values;
    if (first) await deleteValueSets(deps, derivedFamily(first.itemId), storedParts).catch(() => undefined);
    throw error;
  }
};

/**
 * The same upload run again (its Idempotency-Key taken over after a crash): when the first
 * run recorded it, its result is the answer; values a crash left without their event are
 * dropped so the upload can run afresh.
 */
const earlierRun = async (deps: CommandDeps, offerId: string, itemIds: string[]): Promise<UploadResult | undefined> => {
  const left = await storedValueIds(deps, itemIds);
  if (left.length === 0) return undefined;
  const ours = new Set(itemIds);
  const recorded = (await deps.store.readStream(inventoryStream(offerId))).find(
    (e) => e.type === 'InventoryUploaded' && (e.data as InventoryUploadedData).itemIds.some((id) => ours.has(id)),
  );
  const accepted = recorded ? (recorded.data as InventoryUploadedData).itemIds : [];
  const keep = new Set(accepted);
  await dropValues(
    deps,
    left.filter((id) => !keep.has(id)),
  );
  if (!recorded) return undefined;
  const state = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
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
  /** Run again after its answer was lost: an item removed already is this run's removal. */
  resumed = false,
) => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  if (resumed) {
    const state = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
    if (state.items.get(itemId)?.status === 'removed') {
      await dropValues(deps, [itemId]);
      await releaseClaims(deps.db, claimantsOf(state, [itemId]));
      return state;
    }
  }
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
  // the supplier took the key back: its value is no longer ours to keep, and the key may come back
  await dropValues(deps, [itemId]);
  await releaseClaims(deps.db, claimantsOf(result.state, [itemId]));
  return result.state;
};
