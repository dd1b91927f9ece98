import { type Kysely, sql } from 'kysely';
import { literalOf } from '../db/inline.js';
import type { Database } from '../db/schema.js';
import { formatPosition, type Position, type Witness } from '../eventstore/port.js';
import { RewindFound } from '../eventstore/rewind.js';

export interface Checkpoint {
  position: Position;
  version: number;
  /** When the last rebuild that set it began (the process's clock); absent if none did since migration 026. */
  rebuiltAt?: Date;
}

export const readCheckpoint = async (db: Kysely<Database>, name: string): Promise<Checkpoint | undefined> => {
  const row = await db
    .selectFrom('projection_checkpoints')
    // as text: the pool reads bigint as a JS number, which rounds a KurrentDB position past 2^53
    .select(['commit_position', sql<string>`prepare_position::text`.as('prepare_position'), 'version', 'rebuilt_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return (
    row && {
      position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
      version: row.version,
      ...(row.rebuilt_at && { rebuiltAt: row.rebuilt_at }),
    }
  );
};

/** Records when the rebuild that just set the checkpoint began (inside its swap's transaction). */
export const markRebuilt = (db: Kysely<Database>, name: string, startedAt: Date) =>
  db.updateTable('projection_checkpoints').set({ rebuilt_at: startedAt }).where('name', '=', name).execute();

export const writeCheckpoint = (db: Kysely<Database>, name: string, position: Position, version: number, at: Date) =>
  writeCheckpoints(db, [{ name, position, version }], at);

/**
 * Serialises every writer of one projector's tables (live runners on any instance and a
 * rebuild's final swap) for the length of a transaction. Advisory locks take no
 * transaction id, so they do not hold back the event store's read horizon.
 */
export const lockProjector = (db: Kysely<Database>, name: string) =>
  sql`select pg_advisory_xact_lock(hashtext(${`projection:${name}`}))`.execute(db);

/** How many of `witnesses` are in es_events, each its id at its position: an expression to select. */
const witnessCount = (witnesses: Witness[]): string =>
  `(select count(*)::int from es_events where ${witnesses
    .map(
      (w) =>
        `(transaction_id = ${literalOf(w.position.commit.toString())}::xid8 and position = ${w.position.prepare.toString()} and event_id = ${literalOf(w.id)})`,
    )
    .join(' or ')})`;

/**
 * Opens a transaction on `connection`, takes the locks of several projectors (as
 * `lockProjector`, in name order) and reads their checkpoints, in one round trip: the
 * positions are those after every earlier holder committed. The names go into the text as
 * a literal (the simple protocol takes no parameters). The transaction ends with the
 * recorded writes of the batch and `StatementRecorder.commitOn`.
 *
 * With `witnesses` (events the batch follows and ends at, when the events live in this
 * database) the same statement checks they are all still stored, and raises `RewindFound`
 * if one is not: a process whose read positions belong to a history the store lost (a
 * failover that lost commits, a restore) must not write them as checkpoints, or the
 * projectors would skip the new events below them for good (src/eventstore/rewind.ts).
 */
export const beginAndClaim = async (
  connection: Kysely<Database>,
  names: string[],
  witnesses: Witness[] = [],
): Promise<Map<string, Checkpoint>> => {
  // The commit waits for the WAL flush like any other: a batch whose commit PostgreSQL lost
  // in a crash (asynchronous commits were lost that way) would be one this process believes
  // applied, and its feed, which outlives the database's restart, would never read it again.
  const distinct = [...new Map(witnesses.map((w) => [w.id, w])).values()];
  const check = distinct.length > 0 ? `, ${witnessCount(distinct)} as witnessed` : '';
  const { rows } = await sql<{
    name: string;
    commit_position: string;
    prepare_position: string;
    version: number;
    witnessed?: number;
  }>`
    ${sql.raw(`begin; select c.*${check} from projection_claim(${literalOf(names)}::text[]) c`)}`.execute(connection);
  const witnessed = rows[0]?.witnessed;
  if (witnessed !== undefined && witnessed < distinct.length)
    throw new RewindFound({
      cause: 'witness_lost',
      detail: `a projection batch follows events no longer stored (${distinct.map((w) => `${w.id} at ${formatPosition(w.position)}`).join(', ')})`,
    });
  return new Map(
    rows.map((r) => [
      r.name,
      { position: { commit: BigInt(r.commit_position), prepare: BigInt(r.prepare_position) }, version: r.version },
    ]),
  );
};

/** Advances several checkpoints in one statement (the caller holds their locks). */
export const writeCheckpoints = async (
  db: Kysely<Database>,
  checkpoints: { name: string; position: Position; version: number }[],
  at: Date,
) => {
  if (checkpoints.length === 0) return;
  const rows = checkpoints.map((c) => ({
    name: c.name,
    commit_position: c.position.commit.toString(),
    // as text: a KurrentDB position is a byte offset in its log and need not fit a double
    prepare_position: c.position.prepare.toString(),
    version: c.version,
    updated_at: at,
  }));
  await db
    .insertInto('projection_checkpoints')
    .values(rows)
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        commit_position: eb.ref('excluded.commit_position'),
        prepare_position: eb.ref('excluded.prepare_position'),
        version: eb.ref('excluded.version'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
};
