import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import { HttpProblem } from './problem.js';

const RETENTION_MS = 24 * 60 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers worth replaying; rate-limit headers are computed afresh for the retry. */
const REPLAYED_HEADERS = ['content-type', 'location'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

const fingerprint = (req: FastifyRequest) =>
  createHash('sha256')
    .update(`${req.method} ${req.url}\n${req.body === undefined ? '' : JSON.stringify(req.body)}`)
    .digest('hex');

/**
 * Idempotency-Key, as the IETF draft has it, for every route marked `idempotent`: the first
 * request with a key runs and its answer is stored; a retry with the same body gets that
 * answer again with `Idempotent-Replay: true`; a retry while the first still runs gets 409;
 * the same key with another body gets 422. Keys belong to the caller and live 24 hours.
 * A 5xx answer is not stored, so the retry runs the operation again.
 */
export const registerIdempotency = (
  app: FastifyInstance,
  deps: { db: Kysely<Database>; clock: Clock; secretBox: SecretBox; scopeOf: (req: FastifyRequest) => string },
) => {
  const { db, clock } = deps;

  const keyOf = (req: FastifyRequest): string | undefined => {
    if (!req.routeOptions.config?.idempotent) return undefined;
    const raw = req.headers['idempotency-key'];
    return Array.isArray(raw) ? raw[0] : raw;
  };

  // the key is checked before the body, so a malformed key is named whatever the body holds
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const key = keyOf(req);
    if (key !== undefined && !KEY_PATTERN.test(key))
      throw new HttpProblem('validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
        errors: [{ field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
      });
  });

  // claimed once the request is valid: a refused body does not take the key
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(req);
    if (key === undefined) return;
    const scope = deps.scopeOf(req);
    const hash = fingerprint(req);
    const now = clock.now();

    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ scope, key, request_hash: hash, state: 'in_flight', created_at: now, expires_at: new Date(now.getTime() + RETENTION_MS) })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) {
        req.idempotency = { scope, key };
        return;
      }
      const stored = await db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
      if (!stored) continue; // expired and purged in between: try to take it again
      if (stored.expires_at.getTime() <= now.getTime()) {
        await db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('expires_at', '<=', now).execute();
        continue;
      }
      if (stored.request_hash !== hash)
        throw new HttpProblem('idempotency_key_reused', 'this Idempotency-Key was used with a different request; use a fresh key per operation');
      if (stored.state === 'in_flight')
        throw new HttpProblem('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry later');
      const headers = (stored.response_headers ?? {}) as unknown as Record<string, string>;
      return reply
        .code(stored.response_status!)
        .headers(headers)
        .header('idempotent-replay', 'true')
        .send(stored.response_body ? deps.secretBox.open(stored.response_body) : '');
    }
    throw new HttpProblem('idempotency_key_in_use', 'this Idempotency-Key is changing hands; retry later');
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    const where = db.deleteFrom('idempotency_keys').where('scope', '=', claim.scope).where('key', '=', claim.key);
    if (reply.statusCode >= 500) {
      await where.execute();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await db
      .updateTable('idempotency_keys')
      .set({
        state: 'done',
        response_status: reply.statusCode,
        response_headers: JSON.stringify(headers),
        // answers carry secrets shown once (tokens, signing secrets): kept sealed, like every stored secret
        response_body: deps.secretBox.seal(typeof payload === 'string' ? payload : payload == null ? '' : String(payload)),
      })
      .where('scope', '=', claim.scope)
      .where('key', '=', claim.key)
      .execute();
    return payload;
  });

  // a request that never reached onSend (client gone mid-way) must not block its key for a day
  app.addHook('onResponse', async (req) => {
    const claim = req.idempotency;
    if (!claim) return;
    await db.deleteFrom('idempotency_keys').where('scope', '=', claim.scope).where('key', '=', claim.key).where('state', '=', 'in_flight').execute();
  });
};

export const purgeIdempotencyKeys = (db: Kysely<Database>, now: Date) => db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
