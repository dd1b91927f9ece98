import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import { newId } from '../ids.js';
import { OPERATION_RETENTION_MS } from '../commands/context.js';
import { isDatabaseUnavailable } from '../db/faults.js';
import { reconnectPause } from '../eventstore/wakeup.js';
import { HttpProblem } from './problem.js';

const RETENTION_MS = OPERATION_RETENTION_MS;
/**
 * How long an in-flight key stays its owner's without a sign of life. The owner renews it
 * every RENEW_MS while the request runs, so only a dead owner (a crashed process, a lost
 * database session) lets it lapse; a retry then takes the key over.
 */
export const LEASE_MS = 15_000;
export const RENEW_MS = 5_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers worth replaying; rate-limit headers are computed afresh for the retry. */
const REPLAYED_HEADERS = ['content-type', 'location'];

interface Claim {
  scope: string;
  key: string;
  /** This request, as the key's owner: a taken-over owner's late writes change nothing. */
  owner: string;
  /** The operation's identity: the same across every run of the key. */
  operationId: string;
  /** Taken over from an owner that is gone: the operation may have run (in part) before. */
  resumed: boolean;
  heartbeat: NodeJS.Timeout;
}

/** Who holds a key: what a release names. */
type Owned = Pick<Claim, 'scope' | 'key' | 'owner'>;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim;
  }
}

/**
 * The identity of the operation a request runs: recorded against its Idempotency-Key before
 * any effect, so a run after a takeover (the first owner crashed) finds what the first run
 * wrote (the same order id) instead of doing it twice. Without a key: a fresh id.
 */
export const operationIdOf = (req: FastifyRequest): string => req.idempotency?.operationId ?? newId();

/** The operation's identity and whether an earlier run of it may have left effects to find. */
export const operationOf = (req: FastifyRequest): { id: string; resumed: boolean } => ({
  id: operationIdOf(req),
  resumed: req.idempotency?.resumed ?? false,
});

const requestText = (req: FastifyRequest) =>
  `${req.method} ${req.url}\n${req.body === undefined ? '' : JSON.stringify(req.body)}`;

// keyed with the service key: a stored hash tells nothing about the request to whoever reads the table
const fingerprint = (secretKey: string, req: FastifyRequest) =>
  createHmac('sha256', secretKey).update(requestText(req)).digest('hex');
// keys stored before hashes were keyed (they expire within a day of the upgrade)
const legacyFingerprint = (req: FastifyRequest) => createHash('sha256').update(requestText(req)).digest('hex');

/**
 * Idempotency-Key, as the IETF draft has it, for every route marked `idempotent`: the first
 * request with a key runs and its answer is stored; a retry with the same body gets that
 * answer again with `Idempotent-Replay: true`; a retry while the first still runs gets 409
 * (with Retry-After: when its lease ends); the same key with another body gets 422. Keys
 * belong to the caller and live 24 hours. A 5xx answer is not stored: the key is released
 * at once, and the retry runs the operation again under the same identity.
 */
// eslint-disable-next-line max-lines-per-function -- the Idempotency-Key mechanism's hooks, kept together
export const registerIdempotency = (
  app: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    clock: Clock;
    secretBox: SecretBox;
    secretKey: string;
    scopeOf: (req: FastifyRequest) => string;
  },
) => {
  const { db, clock } = deps;
  const leaseFrom = (now: Date) => new Date(now.getTime() + LEASE_MS);

  const keyOf = (req: FastifyRequest): string | undefined => {
    if (!req.routeOptions.config?.idempotent) return undefined;
    const raw = req.headers['idempotency-key'];
    return Array.isArray(raw) ? raw[0] : raw;
  };

  const claim = (
    req: FastifyRequest,
    scope: string,
    key: string,
    owner: string,
    operationId: string,
    resumed: boolean,
  ) => {
    const heartbeat = setInterval(() => {
      db.updateTable('idempotency_keys')
        .set({ lease_until: leaseFrom(clock.now()) })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('owner', '=', owner)
        .where('state', '=', 'in_flight')
        .execute()
        // a missed renewal costs nothing while the next one lands in time; the lease covers three
        .catch((error) => req.log.warn({ err: error }, 'idempotency lease renewal failed'));
    }, RENEW_MS);
    heartbeat.unref();
    req.idempotency = { scope, key, owner, operationId, resumed, heartbeat };
  };

  // the key is checked before the body, so a malformed key is named whatever the body holds
  // (a hook on every route, before the input check: synchronous, as it runs on every read too)
  app.addHook('preValidation', (req, _reply, done) => {
    const key = keyOf(req);
    if (key !== undefined && !KEY_PATTERN.test(key))
      return done(
        new HttpProblem('validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
          errors: [{ field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
        }),
      );
    done();
  });

  // claimed once the request is valid: a refused body does not take the key
  // eslint-disable-next-line max-lines-per-function -- claim, replay or take over a key: one decision read in one place
  const claimKey = async (req: FastifyRequest, reply: FastifyReply, scope: string, key: string, owner: string) => {
    const hash = fingerprint(deps.secretKey, req);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const operationId = newId();
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          scope,
          key,
          request_hash: hash,
          state: 'in_flight',
          created_at: now,
          expires_at: new Date(now.getTime() + RETENTION_MS),
          operation_id: operationId,
          owner,
          lease_until: leaseFrom(now),
        })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return void claim(req, scope, key, owner, operationId, false);
      const stored = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!stored) continue; // expired and purged in between: try to take it again
      if (stored.expires_at.getTime() <= now.getTime()) {
        await db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where('expires_at', '<=', now)
          .execute();
        continue;
      }
      if (stored.request_hash !== hash && stored.request_hash !== legacyFingerprint(req))
        throw new HttpProblem(
          'idempotency_key_reused',
          'this Idempotency-Key was used with a different request; use a fresh key per operation',
        );
      if (stored.state === 'in_flight') {
        const leaseLeft = stored.lease_until ? stored.lease_until.getTime() - now.getTime() : 0;
        if (leaseLeft > 0)
          throw new HttpProblem(
            'idempotency_key_in_use',
            'a request with this Idempotency-Key is still being processed; retry later',
            {},
            { 'retry-after': String(Math.max(1, Math.ceil(leaseLeft / 1000))) },
          );
        // its owner is gone (crashed, or answered 5xx): take the key over and run the
        // operation again under the identity recorded for it
        const taken = await db
          .updateTable('idempotency_keys')
          .set({ owner, lease_until: leaseFrom(now), operation_id: stored.operation_id ?? operationId })
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where('state', '=', 'in_flight')
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
          .returning('operation_id')
          .executeTakeFirst();
        if (taken) {
          req.log.info(
            { idempotency: { scope, taken_over: true } },
            'idempotency key taken over from an owner that is gone',
          );
          return void claim(req, scope, key, owner, taken.operation_id ?? operationId, true);
        }
        continue; // another retry took it first
      }
      const headers = stored.response_headers ?? {};
      return reply
        .code(stored.response_status!)
        .headers(headers)
        .header('idempotent-replay', 'true')
        .send(stored.response_body ? deps.secretBox.open(stored.response_body) : '');
    }
    throw new HttpProblem(
      'idempotency_key_in_use',
      'this Idempotency-Key is changing hands; retry later',
      {},
      { 'retry-after': '1' },
    );
  };

  const takeKey = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(req);
    if (key === undefined) return;
    const scope = deps.scopeOf(req);
    const owner = newId();
    try {
      return await claimKey(req, reply, scope, key, owner);
    } catch (error) {
      // the database went away while the key was being taken: whether the claim committed is
      // unknown (its answer was lost with the session), so it is let go once the database
      // answers again. A release names this request as the owner: it frees nothing else.
      if (isDatabaseUnavailable(error)) void releaseLater({ scope, key, owner }, req.log, Date.now() + LEASE_MS);
      throw error;
    }
  };

  /** Lets the key go at once, keeping its operation's identity for the retry. */
  const releaseNow = (claim: Owned) =>
    db
      .updateTable('idempotency_keys')
      .set({ owner: null, lease_until: clock.now() })
      .where('scope', '=', claim.scope)
      .where('key', '=', claim.key)
      .where('owner', '=', claim.owner)
      .where('state', '=', 'in_flight')
      .execute();

  /**
   * Lets the key go. While the database cannot be reached (the 5xx was a lost primary) it is
   * tried again in the background until it lands, for as long as the lease would have held
   * the key: a client's retry after a failover then runs at once instead of meeting 409
   * until the lease lapses. The release names its owner, so a late one changes nothing.
   */
  const release = async (claim: Claim, log: FastifyRequest['log']) => {
    try {
      await releaseNow(claim);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      void releaseLater(claim, log, Date.now() + LEASE_MS);
    }
  };

  const releaseLater = async (claim: Owned, log: FastifyRequest['log'], until: number) => {
    for (let attempt = 0; Date.now() < until; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, reconnectPause(attempt)).unref());
      try {
        await releaseNow(claim);
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) break;
      }
    }
    log.warn('idempotency key not released; its lease will lapse');
  };

  const storeAnswer = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    clearInterval(claim.heartbeat);
    try {
      if (reply.statusCode >= 500) {
        await release(claim, req.log);
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
          owner: null,
          lease_until: null,
          response_status: reply.statusCode,
          response_headers: JSON.stringify(headers),
          // answers carry secrets shown once (tokens, signing secrets): kept sealed, like every stored secret
          response_body: deps.secretBox.seal(
            typeof payload === 'string' ? payload : payload == null ? '' : String(payload),
          ),
        })
        .where('scope', '=', claim.scope)
        .where('key', '=', claim.key)
        .where('owner', '=', claim.owner)
        .execute();
    } catch (error) {
      // the database is unreachable: the answer still leaves; the key's lease lapses and a
      // retry re-runs the operation under the same identity, which finds what this run did
      req.log.warn({ err: error }, 'idempotency key not recorded; its lease will lapse');
    }
    return payload;
  };

  // a request that never reached onSend (client gone mid-way) must not block its key for a day
  const releaseUnanswered = async (req: FastifyRequest) => {
    const claim = req.idempotency;
    if (!claim) return;
    req.idempotency = undefined;
    clearInterval(claim.heartbeat);
    await release(claim, req.log).catch((error) =>
      req.log.warn({ err: error }, 'idempotency key not released; its lease will lapse'),
    );
  };

  // the rest runs on the routes that take a key only: a read pays for none of it. A route's
  // own hooks run after the application's, as these did when they were the application's.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...hooksOf(route.preHandler), takeKey];
    route.onSend = [...hooksOf(route.onSend), storeAnswer];
    route.onResponse = [...hooksOf(route.onResponse), releaseUnanswered];
  });
};

const hooksOf = <H>(hooks: H | H[] | undefined): H[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

export const purgeIdempotencyKeys = (db: Kysely<Database>, now: Date) =>
  db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();

/**
 * After the store went back in time (src/store-rewind.ts): an answer stored for a key taken
 * since `since` may name effects the store no longer holds, decided on what an instance held
 * of the lost history. Such keys are opened again, as if their request had died: the next
 * retry takes the key over and runs the operation again under its recorded identity, and
 * finds what of it the store holds (the same order, or none, which it then places). Answers
 * of keys lost with the rewind are gone with it; older answers stand with their effects,
 * which the store kept. Answers how many were opened.
 */
export const reopenAnsweredKeys = async (db: Kysely<Database>, since: Date, now: Date): Promise<number> => {
  const { numUpdatedRows } = await db
    .updateTable('idempotency_keys')
    .set({
      state: 'in_flight',
      owner: null,
      lease_until: now,
      response_status: null,
      response_headers: null,
      response_body: null,
    })
    .where('state', '=', 'done')
    // by the expiry index: a key expires a fixed time after it was taken
    .where('expires_at', '>=', new Date(since.getTime() + RETENTION_MS))
    .executeTakeFirst();
  return Number(numUpdatedRows);
};
