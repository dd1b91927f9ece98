import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { InventoryUploadedData } from '../domain/inventory.js';
import type { CommandDeps } from './context.js';
import { inventoryStream } from './streams.js';

/**
 * A set is looked at once this long after it was stored. An upload's item ids (and so its
 * set's name) belong to one operation: a run of it resumed under its Idempotency-Key
 * starts within the key's 24 hours and stores its own set afresh (`earlierRun`), so a set
 * this old is never recorded later by anyone.
 */
export const SWEEP_AFTER_MS = 48 * 60 * 60_000;
/** Sets looked at per statement. */
const BATCH = 200;

interface UncheckedSet {
  family: string;
  part: number;
  offer_id: string;
  item_ids: string[];
  /** Whether the read models know one of its items (then an event recorded them). */
  known: boolean;
}

/**
 * Finds the value sets no upload recorded, and deletes them. An upload stores its values
 * before its event; a process killed in between, or a failed append whose clean-up could
 * not reach the database, leaves a set of sealed keys no item names. Each set is looked at
 * once, when it is old enough (`SWEEP_AFTER_MS`): one whose items the inventory read model
 * knows is kept (only an event puts them there); for the others the offer's inventory
 * stream, the source of truth, decides: kept when an upload there names one of its items,
 * deleted when none does. The read model alone would not do: while it is rebuilt it does
 * not know yet what the events recorded. Answers how many sets were deleted.
 */
export const sweepValueSets = async (
  deps: Pick<CommandDeps, 'db' | 'store'>,
  now: Date,
  log?: Logger,
): Promise<number> => {
  let deleted = 0;
  for (;;) {
    const sets = await uncheckedSets(deps, new Date(now.getTime() - SWEEP_AFTER_MS));
    if (sets.length === 0) return deleted;
    const unknown = sets.filter((s) => !s.known);
    const named = await itemsNamedByUploads(deps, [...new Set(unknown.map((s) => s.offer_id))]);
    const recorded = (s: UncheckedSet) => s.known || s.item_ids.some((id) => named.has(id));
    await markChecked(deps, sets.filter(recorded));
    const gone = await deleteSets(
      deps,
      sets.filter((s) => !recorded(s)),
    );
    for (const set of gone)
      log?.warn(
        { offerId: set.offer_id, family: set.family, part: set.part, values: set.item_ids.length },
        'deleted the sealed values of an upload no event recorded',
      );
    deleted += gone.length;
  }
};

const uncheckedSets = async (deps: Pick<CommandDeps, 'db'>, storedBefore: Date): Promise<UncheckedSet[]> => {
  const { rows } = await sql<UncheckedSet>`
    select s.family, s.part, s.offer_id, s.item_ids,
      exists (select 1 from inventory_items i where i.id = any(s.item_ids)) as known
    from inventory_value_sets s
    where not s.checked and s.created_at < ${storedBefore}
    order by s.created_at, s.family, s.part
    limit ${BATCH}`.execute(deps.db);
  return rows;
};

/** The item ids the uploads recorded in these offers' inventory streams name. */
const itemsNamedByUploads = async (deps: Pick<CommandDeps, 'store'>, offerIds: string[]): Promise<Set<string>> => {
  const named = new Set<string>();
  for (const offerId of offerIds)
    for (const event of await deps.store.readStream(inventoryStream(offerId)))
      if (event.type === 'InventoryUploaded')
        for (const id of (event.data as InventoryUploadedData).itemIds) named.add(id);
  return named;
};

const keysOf = (sets: UncheckedSet[]) => ({
  families: sets.map((s) => s.family),
  parts: sets.map((s) => s.part),
});

const markChecked = async (deps: Pick<CommandDeps, 'db'>, sets: UncheckedSet[]): Promise<void> => {
  if (sets.length === 0) return;
  const { families, parts } = keysOf(sets);
  await sql`update inventory_value_sets s set checked = true
    from unnest(${families}::text[], ${parts}::int[]) as k(family, part)
    where s.family = k.family and s.part = k.part`.execute(deps.db);
};

/** Deletes these sets if still unchecked; answers those deleted. */
const deleteSets = async (deps: Pick<CommandDeps, 'db'>, sets: UncheckedSet[]): Promise<UncheckedSet[]> => {
  if (sets.length === 0) return [];
  const { families, parts } = keysOf(sets);
  const { rows } = await sql<{ family: string; part: number }>`
    delete from inventory_value_sets s
    using unnest(${families}::text[], ${parts}::int[]) as k(family, part)
    where s.family = k.family and s.part = k.part and not s.checked
    returning s.family, s.part`.execute(deps.db);
  const gone = new Set(rows.map((r) => `${r.family}/${r.part}`));
  return sets.filter((s) => gone.has(`${s.family}/${s.part}`));
};
