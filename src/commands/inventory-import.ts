import { sql } from 'kysely';
import { fingerprinter } from '../crypto/fingerprint.js';
import { DomainError, invalidInput } from '../domain/errors.js';
import { inventoryDecider, type NewItem } from '../domain/inventory.js';
import {
  chunksOf,
  IMPORT_CHUNK,
  type ImportCommand,
  importDecider,
  type ImportState,
} from '../domain/inventory-import.js';
import { maskOf } from '../domain/inventory-items.js';
import {
  lineOfKey,
  lineRuns,
  MAX_KEYS_PER_IMPORT,
  type KeyLine,
  type ReadKeyFile,
  readKeyFile,
  type RefusedLine,
} from '../domain/key-file.js';
import { required } from '../domain/required.js';
import { derivedFamily, derivedIds, derivedSeq, newId } from '../ids.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { streamOf } from './handle-together.js';
import { keyFormatOf, recordStoredItems } from './inventory.js';
import { claimKeys, type Owner, releaseClaims } from './key-claims.js';
import { openValueSet, replaceValueSets } from './inventory-values.js';
import { loadOffer } from './offers.js';
import { importStream, inventoryStream } from './streams.js';

/**
 * What a file would add, before anything is stored: the preview, and what an import starts
 * from. Each key carries the fingerprint its judging took, stored with its value so that
 * recording it does not take it again.
 */
export interface ImportPlan extends ReadKeyFile {
  fileName: string;
  keys: (KeyLine & { fingerprint: string })[];
}

const checkedOffer = async (deps: CommandDeps, supplierId: string, offerId: string) => {
  const view = await loadOffer(deps, supplierId, offerId);
  if (view.offer.stockMode !== 'uploaded')
    throw new DomainError('stock_mode_mismatch', 'imports are for uploaded offers; a declared offer has no keys');
  return view;
};

/**
 * Reads the file and judges every line: the file's own refusals (`readKeyFile`), then the keys
 * already in the supplier's stock (this offer's, and any other offer's of the supplier, by
 * their claims). Another supplier's keys are not looked for here: a preview never tells
 * whether a key is held elsewhere.
 */
export const planImport = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  fileName: string,
  text: string,
): Promise<ImportPlan> => {
  const { offer, inventory } = await checkedOffer(deps, supplierId, offerId);
  const read = readKeyFile(text, await keyFormatOf(deps, offer.productId));
  if (read.keys.length > MAX_KEYS_PER_IMPORT)
    throw invalidInput([
      {
        input: 'content',
        message: `a file holds at most ${MAX_KEYS_PER_IMPORT.toLocaleString('en')} keys; this one holds ${read.keys.length.toLocaleString('en')}`,
      },
    ]);
  const fingerprintOf = fingerprinter(deps.secretKey);
  const fingerprints = read.keys.map((k) => fingerprintOf('text', k.value));
  // the fingerprints as one JSON document: the driver escapes a text[] element by element
  const { rows } = await sql<{ fingerprint: string }>`
    select k.fingerprint from jsonb_array_elements_text(${JSON.stringify(fingerprints)}::jsonb) as f(fingerprint)
      join key_fingerprints k on k.fingerprint = f.fingerprint
    where k.supplier_id = ${supplierId}`.execute(deps.db);
  const claimed = new Set(rows.map((r) => r.fingerprint));
  const inStock = (fp: string) => claimed.has(fp) || inventory.fingerprints.has(fp);
  const refused: RefusedLine[] = [...read.refused];
  const keys = read.keys.flatMap((k, i) => {
    const fingerprint = required(fingerprints[i], `the fingerprint of line ${k.line}`);
    if (!inStock(fingerprint)) return [{ ...k, fingerprint }];
    refused.push({ line: k.line, reason: 'already_in_stock', shown: maskOf(k.value).mask });
    return [];
  });
  refused.sort((a, b) => a.line - b.line);
  return { fileName, lines: read.lines, keys, refused };
};

/** An import's item ids: one family (its batch), the `n`-th key's id its `n`-th. */
const idsOf = (importId: string) => derivedIds(importId);
export const batchOf = (importId: string) => derivedFamily(idsOf(importId)(0));

/**
 * Starts an import: the keys' values stored, sealed a chunk to a set,
 * then the job recorded, whose timer (processes/inventory-imports.ts) records the chunks.
 * Answers the job as started; a retry of the same request (its Idempotency-Key) finds it.
 */
export const startImport = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  plan: ImportPlan,
  caller: Caller,
  operation?: { id: string; resumed: boolean },
): Promise<ImportState> => {
  const importId = operation?.id ?? newId();
  if (operation?.resumed) {
    const state = await stateOf(deps, importStream(importId), importDecider);
    if (state) return state;
  }
  const idOf = idsOf(importId);
  const sets = Array.from({ length: chunksOf(plan.keys.length, IMPORT_CHUNK) }, (_, chunk) =>
    plan.keys.slice(chunk * IMPORT_CHUNK, (chunk + 1) * IMPORT_CHUNK).map((k, i) => ({
      itemId: idOf(chunk * IMPORT_CHUNK + i),
      kind: 'text' as const,
      content: k.value,
      fingerprint: k.fingerprint,
    })),
  );
  // a run resumed after a crash stores its sets again: the first run's are the same values
  if (sets.length > 0) await replaceValueSets(deps, offerId, sets, deps.clock.now());
  const result = await execute(
    deps,
    importStream(importId),
    importDecider,
    (at): ImportCommand => ({
      type: 'StartImport',
      data: {
        importId,
        offerId,
        supplierId,
        fileName: plan.fileName,
        lines: plan.lines,
        keys: plan.keys.length,
        keyLines: lineRuns(plan.keys),
        refused: plan.refused,
        chunkSize: IMPORT_CHUNK,
        at,
      },
    }),
    caller,
  );
  return required(result.state, `import ${importId}`);
};

/** The supplier's import of this offer, as it stands. */
export const loadImport = async (deps: CommandDeps, supplierId: string, offerId: string, importId: string) => {
  await loadOffer(deps, supplierId, offerId);
  const state = await stateOf(deps, importStream(importId), importDecider);
  if (!state || state.offerId !== offerId || state.supplierId !== supplierId)
    throw new DomainError('not_found', `import ${importId} not found`);
  return state;
};

/**
 * A chunk's items from its stored set (the chunk's part of the import's family): fingerprinted
 * and masked as an upload's are, the fingerprint the one stored with the value (a set stored
 * before fingerprints were kept in it has it taken here).
 */
const chunkItems = async (deps: CommandDeps, importId: string, chunk: number): Promise<NewItem[]> => {
  const fingerprintOf = fingerprinter(deps.secretKey);
  // a value dropped since (a key refused when its chunk was first recorded) is not in the set
  return (await openValueSet(deps, batchOf(importId), chunk)).map(({ itemId, value }) => {
    const text = value.bytes.toString('utf8');
    return {
      itemId,
      index: derivedSeq(itemId),
      kind: 'text' as const,
      fingerprint: value.fingerprint ?? fingerprintOf('text', text),
      fileName: null,
      contentType: null,
      mask: maskOf(text).mask,
      size: null,
    };
  });
};

/**
 * Records the next chunk on the offer's inventory and its result on the job, in one append. A
 * chunk the offer's stream holds already (recorded before a crash by a version that appended
 * the two one after the other, its result not) is not uploaded again: its result is read from
 * the stream.
 */
const storeChunk = async (deps: CommandDeps, state: ImportState, { items, claimed }: ChunkAhead, caller: Caller) => {
  const chunk = state.results.length;
  const inventory = await stateOf(deps, inventoryStream(state.offerId), inventoryDecider, { fresh: true });
  const lineOf = (index: number) => lineOfKey(state.keyLines, index);
  const idOf = idsOf(state.importId);
  const first = chunk * state.chunkSize;
  const ids = Array.from({ length: Math.min(state.chunkSize, state.keys - first) }, (_, i) => idOf(first + i));
  const record = (accepted: number, refused: RefusedLine[], now: string): ImportCommand => ({
    type: 'RecordChunk',
    data: { chunk, accepted, refused, now },
  });
  if (ids.some((id) => inventory.items.has(id))) {
    // claims taken ahead for items recorded already are their own (the same item ids); one
    // taken ahead for an item the chunk did not record is let go of again
    await claimed.catch(() => undefined);
    await releaseClaims(
      deps.db,
      items.filter((i) => !inventory.items.has(i.itemId)),
    );
    const accepted = ids.filter((id) => inventory.items.has(id)).length;
    const refused = ids.flatMap((id, i) =>
      inventory.items.has(id) ? [] : [{ line: lineOf(first + i), reason: 'already_in_stock' as const, shown: '' }],
    );
    await execute(deps, importStream(state.importId), importDecider, (now) => record(accepted, refused, now), caller);
    return;
  }
  const shown = new Map(items.map((i) => [i.index, i.mask]));
  await recordStoredItems(
    deps,
    state.supplierId,
    state.offerId,
    items,
    caller,
    {
      stream: streamOf(importStream(state.importId), importDecider),
      decide: (writes, uploaded, now) =>
        void writes.on(importStream(state.importId), importDecider, [
          record(
            uploaded.accepted,
            uploaded.rejected.map((r) => ({
              line: lineOf(r.index),
              reason: 'already_in_stock' as const,
              shown: shown.get(r.index) ?? '',
            })),
            now,
          ),
        ]),
    },
    claimed,
  );
};

/** A chunk's items, and their keys' claims, taken ahead while the chunk before is recorded. */
interface ChunkAhead {
  items: NewItem[];
  claimed: Promise<Map<string, Owner>>;
}

/**
 * The chunk's items from its set, and its keys claimed as soon as they are known: the
 * claims (an insert of a chunk's keys into `key_fingerprints`) run on the server while the
 * chunk before is decided and appended. A claim taken ahead is what the chunk's own recording
 * would take (the same items, the same keys): a run stopped before recording the chunk
 * leaves it as a stop between claiming and recording always has, and a run after it finds
 * the claims its own.
 */
const chunkAhead = async (deps: CommandDeps, state: ImportState, chunk: number): Promise<ChunkAhead> => {
  const items = await chunkItems(deps, state.importId, chunk);
  const claimed = claimKeys(deps.db, state.supplierId, state.offerId, items);
  // awaited by the chunk's recording; not left unhandled if the job stops before it
  claimed.catch(() => undefined);
  return { items, claimed };
};

/** Runs an import to its end from wherever it stands; `onChunk` after each chunk (a test stops there). */
export const runImport = async (
  service: CommandDeps,
  importId: string,
  caller: Caller,
  onChunk: (done: number) => Promise<void> | void = () => undefined,
): Promise<ImportState> => {
  // the job reads its own streams, never a read model: its writes do not wait for them,
  // and the feed applies a chunk while the next one is recorded
  const deps: CommandDeps = {
    ...service,
    projections: Object.create(service.projections, { waitFor: { value: async () => true } }) as ProjectionRunner,
  };
  // the next chunk's set is read, opened, its items made and its keys claimed while this one
  // is written: reads, of a set that nothing but this job's own recording changes (a refused
  // key's value dropped from its own chunk's set, never from the next's), and the claims the
  // next chunk's recording takes first
  let next: { chunk: number; ahead: Promise<ChunkAhead> } | undefined;
  const aheadOf = (state: ImportState, chunk: number) => {
    const ahead = next?.chunk === chunk ? next.ahead : undefined;
    next = undefined;
    // a failed read ahead is read again when its turn comes
    return ahead ? ahead.catch(() => chunkAhead(deps, state, chunk)) : chunkAhead(deps, state, chunk);
  };
  const readAhead = (state: ImportState, chunk: number) => {
    if (chunk >= chunksOf(state.keys, state.chunkSize)) return;
    next = { chunk, ahead: chunkAhead(deps, state, chunk) };
    // not left unhandled if the job stops before its turn
    next.ahead.catch(() => undefined);
  };
  for (;;) {
    const state = await stateOf(deps, importStream(importId), importDecider, { fresh: true });
    if (!state) throw new DomainError('not_found', `import ${importId} not found`);
    if (state.status === 'completed') return state;
    if (state.results.length >= chunksOf(state.keys, state.chunkSize)) {
      // completed means in the lists: the read models have the last chunk before the job says so
      // (a bound reached leaves the lists a moment behind, the job completed all the same)
      await service.projections.waitFor(await service.store.lastCommitted());
      const done = await execute(
        deps,
        importStream(importId),
        importDecider,
        (now): ImportCommand => ({ type: 'CompleteImport', data: { batchId: batchOf(importId), now } }),
        caller,
      );
      return required(done.state, `import ${importId}`);
    }
    const chunk = state.results.length;
    const ahead = await aheadOf(state, chunk);
    // the next chunk's claims wait for this one's: one claim at a time, in the file's order
    await ahead.claimed.catch(() => undefined);
    readAhead(state, chunk + 1);
    await storeChunk(deps, state, ahead, caller);
    await onChunk(chunk + 1);
  }
};
