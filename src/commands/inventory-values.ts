import { type Kysely, sql } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import { required } from '../domain/required.js';
import { derivedFamily } from '../ids.js';

/**
 * Where key values and files are kept, sealed. An upload's values are one set: one row of
 * `inventory_value_sets` per statement, sealed as one AES-256-GCM message, under the
 * family of the upload's item ids (`derivedFamily`), so any item id finds its set. One
 * seal and one row per upload, not per key: sealing and indexing 1,000 rows was most of an
 * upload's cost. Values kept one row per item (`inventory_values`: a supplier's declared
 * deliveries, and uploads stored before sets) are read and removed alike.
 */

/** An accepted item's value, to be sealed and stored. */
export interface Value {
  itemId: string;
  kind: 'text' | 'file';
  content: string | Buffer;
  /** Its keyed fingerprint, when already taken: kept in the set so that it is not taken again. */
  fingerprint?: string;
}

/** A stored value in clear: text keys and declared items as UTF-8, files as their bytes. */
export interface OpenedValue {
  kind: 'text' | 'file' | 'declared';
  bytes: Buffer;
  /** Its keyed fingerprint, if it was stored with it. */
  fingerprint?: string;
}

interface ValueDeps {
  db: Kysely<Database>;
  secretBox: SecretBox;
}

/**
 * The clear content of a set: per item id, in order, its kind and content (files in base64),
 * and its fingerprint where the writer had taken it (an import's, whose preview takes them;
 * sets written before carry none, and their readers take it again).
 */
type SetEntries = (
  [kind: 'text' | 'file', content: string] | [kind: 'text' | 'file', content: string, fingerprint: string]
)[];

const sealEntries = (box: SecretBox, entries: SetEntries): string => box.seal(JSON.stringify(entries));

const entriesOf = (values: readonly Value[]): SetEntries =>
  values.map((v) => {
    const content = typeof v.content === 'string' ? v.content : v.content.toString('base64');
    return v.fingerprint === undefined ? [v.kind, content] : [v.kind, content, v.fingerprint];
  });

const openSet = (box: SecretBox, sealed: string): SetEntries => JSON.parse(box.open(sealed)) as SetEntries;

const familiesOf = (itemIds: readonly string[]) => [...new Set(itemIds.map(derivedFamily))];

/**
 * The sets that may hold these items' values: those of their ids' families (by the primary
 * key) whose range of ids holds one of them. A set lists its ids in order, and ids of one
 * family sort by their place (src/ids.ts), so an import's family of a hundred sets reads the
 * set of each id, not all of them (an overlap of the arrays cost a million comparisons a set).
 */
const setsOf = (db: Kysely<Database>, itemIds: readonly string[]) =>
  db
    .selectFrom('inventory_value_sets')
    .where('family', 'in', familiesOf(itemIds))
    .where(
      sql<boolean>`exists (select from unnest(${sql.val([...itemIds])}::text[]) as w(id)
        where (w.id collate "C") >= item_ids[1] and (w.id collate "C") <= item_ids[cardinality(item_ids)])`,
    );

/** The values of these items kept one row per item. */
const singleRowsOf = (db: Kysely<Database>, itemIds: readonly string[]) =>
  db.selectFrom('inventory_values').where('item_id', 'in', [...itemIds]);

/** Stores one part of an upload's values (its `part`-th statement) as one sealed row. */
export const storeValueSet = async (
  deps: ValueDeps,
  offerId: string,
  part: number,
  values: readonly Value[],
  now: Date,
): Promise<void> => {
  const [first] = values;
  if (!first) throw new Error('a value set holds at least one value');
  const family = derivedFamily(first.itemId);
  if (values.some((v) => derivedFamily(v.itemId) !== family)) throw new Error('a value set holds one upload only');
  await sql`insert into inventory_value_sets (family, part, offer_id, item_ids, sealed, created_at)
    values (${family}, ${part}, ${offerId}, ${values.map((v) => v.itemId)}, ${sealEntries(deps.secretBox, entriesOf(values))}, ${now})`.execute(
    deps.db,
  );
};

/**
 * Stores an import's sets anew, all in one transaction of two statements: its parts stored
 * by an earlier run of the same import (stopped before it was recorded) are replaced, since
 * its item ids and values are the same. One statement for all the rows, not one per set:
 * a hundred sets one after another were waits on the server the size of the sealing itself.
 */
export const replaceValueSets = async (
  deps: ValueDeps,
  offerId: string,
  sets: readonly (readonly Value[])[],
  now: Date,
): Promise<void> => {
  const rows = sets.map((values, part) => {
    const [first] = values;
    if (!first) throw new Error('a value set holds at least one value');
    const family = derivedFamily(first.itemId);
    if (values.some((v) => derivedFamily(v.itemId) !== family)) throw new Error('a value set holds one upload only');
    return {
      family,
      part,
      itemIds: values.map((v) => v.itemId),
      sealed: sealEntries(deps.secretBox, entriesOf(values)),
    };
  });
  const families = [...new Set(rows.map((r) => r.family))];
  if (families.length !== 1) throw new Error("the sets replaced are one upload's");
  // item_ids as one JSON document: unnest would flatten an array of arrays
  await deps.db.transaction().execute(async (trx) => {
    await sql`delete from inventory_value_sets where family = ${families[0]}`.execute(trx);
    await sql`insert into inventory_value_sets (family, part, offer_id, item_ids, sealed, created_at)
      select ${families[0]}, s.part, ${offerId},
        array(select jsonb_array_elements_text(s.item_ids)), s.sealed, ${now}
      from unnest(${rows.map((r) => r.part)}::int[], ${rows.map((r) => JSON.stringify(r.itemIds))}::jsonb[],
        ${rows.map((r) => r.sealed)}::text[]) as s(part, item_ids, sealed)`.execute(trx);
  });
};

/** Deletes parts this upload stored itself (never a part of the same name stored by another). */
export const deleteValueSets = async (deps: ValueDeps, family: string, parts: readonly number[]): Promise<void> => {
  if (parts.length === 0) return;
  await deps.db
    .deleteFrom('inventory_value_sets')
    .where('family', '=', family)
    .where('part', 'in', [...parts])
    .execute();
};

/** Which of these items have a stored value. */
export const storedValueIds = async (deps: ValueDeps, itemIds: readonly string[]): Promise<string[]> => {
  if (itemIds.length === 0) return [];
  const wanted = new Set(itemIds);
  const sets = await setsOf(deps.db, itemIds).select('item_ids').execute();
  const single = await singleRowsOf(deps.db, itemIds).select('item_id').execute();
  return [...sets.flatMap((s) => s.item_ids.filter((id) => wanted.has(id))), ...single.map((r) => r.item_id)];
};

/** These items' values in clear, by item id; items without one are absent. */
export const openValues = async (deps: ValueDeps, itemIds: readonly string[]): Promise<Map<string, OpenedValue>> => {
  const opened = new Map<string, OpenedValue>();
  if (itemIds.length === 0) return opened;
  const wanted = new Set(itemIds);
  const sets = await setsOf(deps.db, itemIds).select(['item_ids', 'sealed']).execute();
  for (const set of sets) {
    if (!set.item_ids.some((id) => wanted.has(id))) continue;
    const entries = openSet(deps.secretBox, set.sealed);
    set.item_ids.forEach((id, i) => {
      if (!wanted.has(id)) return;
      const [kind, content] = required(entries[i], `the value of item ${id} in its set`);
      opened.set(id, { kind, bytes: Buffer.from(content, kind === 'text' ? 'utf8' : 'base64') });
    });
  }
  const single = await singleRowsOf(deps.db, itemIds).select(['item_id', 'kind', 'sealed']).execute();
  for (const row of single)
    opened.set(row.item_id, {
      kind: row.kind as OpenedValue['kind'],
      bytes: deps.secretBox.openBytes(row.sealed),
    });
  return opened;
};

/** One stored set in clear, by its family and part (an import's chunk): its item ids and values, in order. */
export const openValueSet = async (
  deps: ValueDeps,
  family: string,
  part: number,
): Promise<{ itemId: string; value: OpenedValue }[]> => {
  const set = await deps.db
    .selectFrom('inventory_value_sets')
    .select(['item_ids', 'sealed'])
    .where('family', '=', family)
    .where('part', '=', part)
    .executeTakeFirst();
  if (!set) return [];
  const entries = openSet(deps.secretBox, set.sealed);
  return set.item_ids.map((itemId, i) => {
    const [kind, content, fingerprint] = required(entries[i], `the value of item ${itemId} in its set`);
    const bytes = Buffer.from(content, kind === 'text' ? 'utf8' : 'base64');
    return { itemId, value: fingerprint === undefined ? { kind, bytes } : { kind, bytes, fingerprint } };
  });
};

/**
 * Deletes these items' values wherever they are kept. A set that keeps other values is
 * sealed anew without them (under a new nonce), under its row's lock so that two removals
 * from one set do not undo each other.
 */
export const dropValues = async (deps: ValueDeps, itemIds: readonly string[]): Promise<void> => {
  if (itemIds.length === 0) return;
  const dropped = new Set(itemIds);
  await deps.db.transaction().execute(async (trx) => {
    const sets = await setsOf(trx, itemIds)
      .select(['family', 'part', 'item_ids', 'sealed'])
      // locked in one order by every caller: two that drop from the same sets never deadlock
      .orderBy('family')
      .orderBy('part')
      .forUpdate()
      .execute();
    for (const set of sets) {
      if (!set.item_ids.some((id) => dropped.has(id))) continue;
      const entries = openSet(deps.secretBox, set.sealed);
      const kept = set.item_ids.flatMap((id, i) =>
        dropped.has(id) ? [] : [{ id, entry: required(entries[i], `the value of item ${id} in its set`) }],
      );
      if (kept.length === 0) {
        await trx
          .deleteFrom('inventory_value_sets')
          .where('family', '=', set.family)
          .where('part', '=', set.part)
          .execute();
        continue;
      }
      await trx
        .updateTable('inventory_value_sets')
        .set({
          item_ids: kept.map((k) => k.id),
          sealed: sealEntries(
            deps.secretBox,
            kept.map((k) => k.entry),
          ),
        })
        .where('family', '=', set.family)
        .where('part', '=', set.part)
        .execute();
    }
    for (let i = 0; i < itemIds.length; i += 1000)
      await trx
        .deleteFrom('inventory_values')
        .where('item_id', 'in', itemIds.slice(i, i + 1000))
        .execute();
  });
};
