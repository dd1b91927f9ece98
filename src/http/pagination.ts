import { z } from 'zod';
import { HttpProblem } from './problem.js';

/**
 * One pagination mechanism for every list: keyset on a unique, ordered column, with an
 * opaque cursor that carries the last key seen. Pages stay stable while rows are added.
 */
export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

export const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .describe(`1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}`),
  cursor: z.string().min(1).max(500).optional().describe('next_cursor of the previous page'),
};

export const encodeCursor = (key: string): string =>
  Buffer.from(JSON.stringify({ k: key }), 'utf8').toString('base64url');

const unknownCursor = () =>
  new HttpProblem('validation_failed', 'cursor is not one this service issued', {
    errors: [{ field: 'querystring.cursor', message: 'unknown cursor' }],
  });

export const decodeCursor = (cursor: string | undefined): string | undefined => {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    // the keys this service puts in a cursor are ids and sequence numbers: printable ASCII,
    // so a crafted one (a NUL PostgreSQL text cannot hold) is refused here, not by the database
    if (typeof parsed.k === 'string' && /^[\x21-\x7e]{1,200}$/.test(parsed.k)) return parsed.k;
  } catch {
    // fall through to the problem below
  }
  throw unknownCursor();
};

/**
 * A cursor over a sequence number (`bigint` columns): digits only, and no larger than
 * the exact integers a number holds, so no crafted cursor reaches the database as a value
 * it cannot compare.
 */
export const decodeSeqCursor = (cursor: string | undefined): number | undefined => {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const seq = /^\d{1,16}$/.test(key) ? Number(key) : NaN;
  if (!Number.isSafeInteger(seq)) throw unknownCursor();
  return seq;
};

/** Fetch limit + 1 rows, answer `limit` of them and a cursor when there were more. */
export const page = <Row, Out>(rows: Row[], limit: number, keyOf: (row: Row) => string, map: (row: Row) => Out) => {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { data: shown.map(map), next_cursor: more ? encodeCursor(keyOf(shown[shown.length - 1]!)) : null };
};

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });
