import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { InventoryUploadedData } from '../domain/inventory.js';
import { type CommandDeps, OPERATION_RETENTION_MS } from './context.js';
import { inventoryStream } from './streams.js';

/**
 * A set is looked at once this long after it was stored (on the service's clock). An
 * upload's item ids (and so its set's name) belong to one operation: a run of it resumed
 * under its Idempotency-Key starts within the key's lifetime and stores its own set afresh
 * (`earlierRun`), so a set twice that old is never recorded later by anyone.
 */
export const SWEEP_AFTER_MS = 2 * OPERATION_RETENTION_MS;
/**
 * And at least this long after it was stored in real time (the database's clock): the
 * service's clock can be moved days ahead (the operator test clock, on one instance), and
 * a set an upload still running just stored must not look old then. No upload runs an hour.
 */
const STORED_AT_LEAST = '1 hour';
/** Sets looked at per statement. */
const BATCH = 200;

interface UncheckedSet {
  family: string;
  part: number;
  offer_id: string;
  item_ids: string[];
  created_at: Date;
  /** Whether the read models know one of its items (then an event recorded them). */
  known: boolean;
}

type Cursor = Pick<UncheckedSet, 'created_at' | 'family' | 'part'>;

/**
 * Finds the value sets no upload recorded, and deletes them. An upload stores its values
 * before its event; a process killed in between, or a failed append whose clean-up could
 * not reach the database, leaves a set of sealed keys no item names. Each set is looked at
 * once, when it is old enough: one whose items the inventory read model knows is kept
 * (only an event puts them there); for the others the offer's inventory stream, the
 * source of truth, decides: kept when an upload there names one of its items, deleted when
 * none does. The read model alone would not do: a projector started afresh does not know
 * yet what the events recorded. An offer whose stream cannot be read now keeps its sets
 * for the next run. Answers how many sets were deleted.
 */
export const sweepValueSets = async (
  deps: Pick<CommandDeps, 'db' | 'store'>,
  now: Date,
  log?: Logger,
): Promise<number> => {
  const storedBefore = new Date(now.getTime() - SWEEP_AFTER_MS);
  let deleted = 0;
  for (let after: Cursor | undefined; ;) {
    const sets = await uncheckedSets(deps, storedBefore, after);
    if (sets.length === 0) return deleted;
    after = sets.at(-1);
    const streams = await uploadsOf(deps, [...new Set(sets.filter((s) => !s.known).map((s) => s.offer_id))], log);
    const named = (s: UncheckedSet) => streams.get(s.offer_id)?.(s.item_ids);
    await markChecked(
      deps,
      sets.filter((s) => s.known || named(s) === true),
    );
    const gone = await deleteSets(
      deps,
      sets.filter((s) => !s.known && named(s) === false),
    );
    for (const set of gone)
      log?.warn(
        { offerId: set.offer_id, family: set.family, part: set.part, values: set.item_ids.length },
        'deleted the sealed values of an upload no event recorded',
      );
    deleted += gone.length;
  }
};

const uncheckedSets = async (
  deps: Pick<CommandDeps, 'db'>,
  storedBefore: Date,
  after: Cursor | undefined,
): Promise<UncheckedSet[]> => {
  const { rows } = await sql<UncheckedSet>`
    select s.family, s.part, s.offer_id, s.item_ids, s.created_at,
      exists (select 1 from inventory_items i where i.id = any(s.item_ids)) as known
    from inventory_value_sets s
    where not s.checked and s.created_at < ${storedBefore}
      and s.stored_at < now() - ${STORED_AT_LEAST}::interval
      ${after ? sql`and (s.created_at, s.family, s.part) > (${after.created_at}, ${after.family}, ${after.part})` : sql``}
    order by s.created_at, s.family, s.part
    limit ${BATCH}`.execute(deps.db);
  return rows;
};

/**
 * Per offer, whether its recorded uploads name one of some item ids; an offer whose
 * stream could not be read is absent (its sets wait for the next run).
 */
const uploadsOf = async (
  deps: Pick<CommandDeps, 'store'>,
  offerIds: string[],
  log?: Logger,
): Promise<Map<string, (itemIds: string[]) => boolean>> => {
  const answers = new Map<string, (itemIds: string[]) => boolean>();
  for (const offerId of offerIds) {
    try {
      const named = new Set<string>();
      for (const event of await deps.store.readStream(inventoryStream(offerId)))
        if (event.type === 'InventoryUploaded')
          for (const id of (event.data as InventoryUploadedData).itemIds) named.add(id);
      answers.set(offerId, (itemIds) => itemIds.some((id) => named.has(id)));
    } catch (error) {
      log?.error({ err: error, offerId }, 'value sets of an offer not swept: its inventory stream could not be read');
    }
  }
  return answers;
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
