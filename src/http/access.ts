import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LimitClass } from './limits.js';
import { HttpProblem } from './problem.js';
import { type Principal, resolvePrincipal } from './principal.js';
import type { Bucket, Verdict } from './rate-limiter.js';
import { type Services } from './services.js';

const limitClassOf = (req: FastifyRequest): LimitClass =>
  req.routeOptions.config?.limitClass ?? (req.method === 'GET' || req.method === 'HEAD' ? 'reads' : 'writes');

const isOperatorPath = (url: string) => url.startsWith('/operator/');

/** Refuses a caller the route is not for (after counting it: a 401 carries the headers too). */
const admit = (req: FastifyRequest, reply: FastifyReply) => {
  const config = req.routeOptions.config ?? {};
  const url = req.routeOptions.url ?? req.url;
  if (config.public || req.is404 || url.startsWith('/api/v1/docs')) return;
  const wanted = isOperatorPath(url) ? 'operator' : 'supplier';
  if (req.principal.kind !== wanted) {
    reply.header('www-authenticate', 'Bearer');
    throw new HttpProblem('unauthorized', 'a valid bearer token is required');
  }
};

export interface AccessControl {
  /**
   * Resolves the caller and counts the request against its rate-limit buckets, setting the
   * X-RateLimit headers; throws `rate_limited` past a limit. Also used for requests fastify
   * refuses before routing, so those carry the same headers and count the same way.
   */
  meter(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  register(app: FastifyInstance): void;
}

/**
 * The rate-limit buckets a request counts against. A cached principal is the same object for
 * a second: its buckets are built once, not per request.
 */
const bucketsOf = (limits: Services['limits']) => {
  const bucketCache = new WeakMap<Principal, Partial<Record<LimitClass, Bucket[]>>>();
  return (req: FastifyRequest): Bucket[] => {
    const p = req.principal;
    switch (p.kind) {
      case 'supplier': {
        const cls = limitClassOf(req);
        let byClass = bucketCache.get(p);
        if (!byClass) bucketCache.set(p, (byClass = {}));
        return (byClass[cls] ??= [
          // a limit raised for this supplier over the operator API replaces the spec's number
          { name: `token:${p.tokenId}:${cls}`, limit: p.rateLimits[cls] ?? limits[cls] },
          { name: `supplier:${p.supplierId}`, limit: p.rateLimits.per_supplier ?? limits.per_supplier },
        ]);
      }
      case 'operator':
        return [{ name: 'operator', limit: limits.operator }];
      case 'anonymous':
        return [{ name: `ip:${p.ip}`, limit: limits.unauthenticated }];
    }
  };
};

/** Sets the X-RateLimit headers; throws `rate_limited` past a limit. */
const answerVerdict = (verdict: Verdict, reply: FastifyReply) => {
  reply.header('x-ratelimit-limit', verdict.limit);
  reply.header('x-ratelimit-remaining', verdict.remaining);
  reply.header('x-ratelimit-reset', verdict.reset);
  if (!verdict.allowed)
    throw new HttpProblem(
      'rate_limited',
      `rate limit of ${verdict.limit} requests per minute exceeded; retry after ${verdict.retryAfter} s`,
      {},
      {
        'retry-after': String(verdict.retryAfter),
      },
    );
};

/**
 * Who may call, and how often, for every route: resolve the token, count the request
 * against its rate-limit buckets (so even a 401 carries the X-RateLimit headers and
 * unauthenticated callers are limited per IP), then refuse callers the route is not for.
 */
export const accessControl = (services: Services): AccessControl => {
  const bucketsFor = bucketsOf(services.limits);

  /**
   * Counts the request of a resolved caller; throws (or rejects) `rate_limited` past a limit.
   * Decided from memory, unless a bucket's instance needs budget first (near its limit).
   */
  const count = (req: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    const unlimited = req.routeOptions.config?.unlimited;
    if (unlimited === true || (typeof unlimited === 'function' && unlimited(req))) return;
    const verdict = services.rateLimiter.hit(bucketsFor(req), services.clock.now());
    if (verdict instanceof Promise) return verdict.then((v) => answerVerdict(v, reply));
    answerVerdict(verdict, reply);
  };

  const resolve = (req: FastifyRequest) =>
    resolvePrincipal(req, {
      db: services.db,
      env: services.config.env,
      operatorToken: services.operatorToken,
      secretKey: services.commands.secretKey,
    });

  const meter = async (req: FastifyRequest, reply: FastifyReply) => {
    req.principal = await resolve(req);
    await count(req, reply);
  };

  // a callback hook, synchronous when the caller is known from the cache: it runs on every
  // request, and an async one costs a promise and a turn of the microtask queue
  const register = (app: FastifyInstance) =>
    app.addHook('onRequest', (req, reply, done) => {
      const fail = (error: unknown) => done(error instanceof Error ? error : new Error(String(error)));
      const decide = (principal: Principal) => {
        req.principal = principal;
        try {
          const counting = count(req, reply);
          if (counting instanceof Promise) return void counting.then(() => admit(req, reply)).then(() => done(), fail);
          admit(req, reply);
        } catch (refusal) {
          return done(refusal as Error);
        }
        done();
      };
      const principal = resolve(req);
      if (principal instanceof Promise) principal.then(decide, fail);
      else decide(principal);
    });

  return { meter, register };
};
