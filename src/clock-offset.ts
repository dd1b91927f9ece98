import { type Kysely, sql } from 'kysely';
import type { Database } from './db/schema.js';

/**
 * The operator test clock's offset lives in the database: a restarted sandbox (or another
 * instance on the same database) continues from the time the operator moved to, instead of
 * jumping back to real time under orders, timers and holds already dated in that future.
 */
export const loadClockOffset = async (db: Kysely<Database>): Promise<number> => {
  const { rows } = await sql<{ offset_ms: string }>`select offset_ms from test_clock_offset`.execute(db);
  return rows[0] ? Number(rows[0].offset_ms) : 0;
};

/** Adds `deltaMs` to the stored offset (advances from several instances add up); returns the total. */
export const addClockOffset = async (db: Kysely<Database>, deltaMs: number): Promise<number> => {
  const { rows } = await sql<{ offset_ms: string }>`
    insert into test_clock_offset (id, offset_ms) values (true, ${deltaMs})
    on conflict (id) do update set offset_ms = test_clock_offset.offset_ms + excluded.offset_ms
    returning offset_ms`.execute(db);
  return Number(rows[0]!.offset_ms);
};
