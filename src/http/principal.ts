import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Environment } from '../config.js';
import type { Database } from '../db/schema.js';
import { keyedTokenHash, presented, tokenPrefix } from '../crypto/tokens.js';
import { supplierOfTokenHash } from '../projections/supplier-reads.js';

/** Who is calling, resolved once per request from the bearer token. */
export type Principal =
  | { kind: 'supplier'; supplierId: string; supplierName: string; tokenId: string; rateLimits: Record<string, number> }
  | { kind: 'operator' }
  | { kind: 'anonymous'; ip: string };

const bearer = (req: FastifyRequest): string | undefined => {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
};

/**
 * Known supplier tokens for under a second: a busy client then costs one token lookup per
 * second, and a revocation or a change of the supplier's rate limits takes effect on every
 * instance within a second (the contract)
 * without a cross-instance invalidation channel. The revoking instance clears its cache at
 * once. One cache per database: a token is only known to the service whose tables hold it,
 * also when several services share one process.
 */
export const TOKEN_TTL_MS = 1_000;
const TOKEN_CACHE_LIMIT = 10_000;
type TokenCache = Map<string, { principal: Principal; until: number }>;
const caches = new WeakMap<Kysely<Database>, TokenCache>();
/**
 * Look-ups under way, by token hash: the requests that find a token's entry expired at the
 * same moment (a busy client's, every second) share one look-up instead of each sending its own.
 */
type UnderWay = Map<string, Promise<Principal | undefined>>;
const lookingUp = new WeakMap<Kysely<Database>, UnderWay>();
/**
 * How many times each database's tokens were forgotten: a look-up that started before a
 * revocation may read the token still valid, and must not put it back in the cache after
 * the revoking instance cleared it.
 */
const forgotten = new WeakMap<Kysely<Database>, number>();

const cacheOf = (db: Kysely<Database>): TokenCache => {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map() as TokenCache));
  return cache;
};

const underWayOf = (db: Kysely<Database>): UnderWay => {
  let underWay = lookingUp.get(db);
  if (!underWay) lookingUp.set(db, (underWay = new Map() as UnderWay));
  return underWay;
};

export const forgetTokens = (db: Kysely<Database>) => {
  forgotten.set(db, (forgotten.get(db) ?? 0) + 1);
  cacheOf(db).clear();
  // a look-up that started before the revocation may answer the revoked token: requests
  // from now on start their own
  underWayOf(db).clear();
};

/**
 * A token of the other environment, a revoked token or an unknown one all resolve to
 * anonymous: the route then answers 401 without saying which it was. Answers without a
 * promise when the token is known from the cache (most requests): the hook every request
 * runs then takes no turn of the microtask queue.
 */
export const resolvePrincipal = (
  req: FastifyRequest,
  deps: { db: Kysely<Database>; env: Environment; operatorToken: string; secretKey: string },
): Principal | Promise<Principal> => {
  const token = bearer(req);
  if (!token) return { kind: 'anonymous', ip: req.ip };
  const { isSecret, hash } = presented(token, deps.operatorToken);
  if (isSecret) return OPERATOR;
  if (!token.startsWith(tokenPrefix(deps.env))) return { kind: 'anonymous', ip: req.ip };
  const cached = cacheOf(deps.db).get(hash);
  if (cached && cached.until > Date.now()) return cached.principal;
  const underWay = underWayOf(deps.db);
  let found = underWay.get(hash);
  if (!found) {
    const started = lookUp(deps, hash);
    const done = () => {
      if (underWay.get(hash) === started) underWay.delete(hash);
    };
    started.then(done, done);
    underWay.set(hash, (found = started));
  }
  // an unknown token is anonymous at the address of the request that presented it
  return found.then(
    (principal) => principal ?? { kind: 'anonymous', ip: req.ip },
    (error: unknown) => {
      // the database cannot be asked (a failover under way): a token known a moment ago is
      // still known, so reads a replica answers go on; a revocation cleared it from the cache
      const known = cacheOf(deps.db).get(hash);
      if (known && known.until + KNOWN_WHILE_UNREACHABLE_MS > Date.now()) return known.principal;
      throw error;
    },
  );
};

/** How long a known token outlives its cache entry while its look-up fails. */
const KNOWN_WHILE_UNREACHABLE_MS = 60_000;

const OPERATOR: Principal = Object.freeze({ kind: 'operator' });

/** The supplier a presented token's plain hash belongs to, or undefined for an unknown or revoked one. */
const lookUp = async (
  deps: { db: Kysely<Database>; env: Environment; secretKey: string },
  hash: string,
): Promise<Principal | undefined> => {
  const generation = forgotten.get(deps.db) ?? 0;
  // rows hold keyed hashes (src/crypto/tokens.ts): one HMAC per look-up, none per cached request
  const row = await supplierOfTokenHash(deps.db, keyedTokenHash(deps.secretKey, hash), deps.env);
  if (!row) return undefined;
  const principal: Principal = {
    kind: 'supplier',
    supplierId: row.supplier_id,
    supplierName: row.name,
    tokenId: row.token_id,
    rateLimits: row.rate_limits ?? {},
  };
  // answered to the requests that asked before a revocation, but not kept for later ones
  if ((forgotten.get(deps.db) ?? 0) !== generation) return principal;
  const knownTokens = cacheOf(deps.db);
  if (knownTokens.size >= TOKEN_CACHE_LIMIT) knownTokens.delete(knownTokens.keys().next().value!);
  knownTokens.set(hash, { principal, until: Date.now() + TOKEN_TTL_MS });
  return principal;
};
