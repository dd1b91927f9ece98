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

export const decodeCursor = (cursor: string | undefined): string | undefined => {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof parsed.k === 'string') return parsed.k;
  } catch {
    // fall through to the problem below
  }
  throw new HttpProblem('validation_failed', 'cursor is not one this service issued', {
    errors: [{ field: 'querystring.cursor', message: 'unknown cursor' }],
  });
};

/** Fetch limit + 1 rows, answer `limit` of them and a cursor when there were more. */
export const page = <Row, Out>(rows: Row[], limit: number, keyOf: (row: Row) => string, map: (row: Row) => Out) => {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { data: shown.map(map), next_cursor: more ? encodeCursor(keyOf(shown[shown.length - 1]!)) : null };
};

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });
