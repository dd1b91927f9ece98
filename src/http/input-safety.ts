import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem } from './problem.js';

/**
 * Input that JSON and HTTP allow but Postgres cannot store, checked once for every route
 * instead of per schema: a NUL character or a lone UTF-16 surrogate in any string (text
 * and jsonb columns refuse both, which would surface as a 500 deep inside a command),
 * JSON nested deeper than any of our documents, and bytes that are not UTF-8.
 */

/** Deeper than any body the API defines (the deepest is a handful of levels). */
export const MAX_JSON_DEPTH = 32;

// a NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one
// eslint-disable-next-line no-control-regex -- NUL is what Postgres cannot store
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const unstorableReason = (s: string): string | undefined => {
  const m = UNSTORABLE.exec(s);
  if (!m) return undefined;
  return m[0] === '\u0000' ? 'must not contain a NUL character' : 'must not contain a lone UTF-16 surrogate';
};

/**
 * The first string (value or object key) in `value` that cannot be stored, named by its
 * path as validation errors name fields (`body.items.3.value`). Walks with an explicit
 * stack: the depth is already capped for bodies, but query and params come from elsewhere.
 */
export const findUnstorable = (value: unknown, root: string): { field: string; message: string } | undefined => {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = unstorableReason(v);
      if (reason) return { field: path, message: reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const reason = unstorableReason(key);
        if (reason) return { field: path, message: `a key ${reason}` };
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
  return undefined;
};

/**
 * How deeply `text` (JSON) nests arrays and objects, stopping as soon as it passes `limit`.
 * A linear scan before parsing, so a body of 10,000 nested arrays never reaches a recursive
 * consumer (schema validation, serialisation) that would overflow the stack.
 */
export const exceedsDepth = (text: string, limit: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's bytes as text, or undefined when they are not UTF-8 (not silently replaced). */
export const decodeUtf8 = (bytes: Buffer): string | undefined => {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
};

/** What of a request is checked, in the order its fields are named. */
const PARTS = ['params', 'query', 'body'] as const;

/**
 * Runs before schema validation on every route (after the Idempotency-Key check), so a bad
 * string is a 422 naming its field whatever the route, and nothing downstream sees it.
 */
export const registerInputSafety = (app: FastifyInstance) => {
  // synchronous: it runs on every request
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    for (const part of PARTS) {
      const bad = findUnstorable(req[part], part);
      if (bad) return done(new HttpProblem('validation_failed', `${bad.field}: ${bad.message}`, { errors: [bad] }));
    }
    done();
  });
};
