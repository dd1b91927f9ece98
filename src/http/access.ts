import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LimitClass } from './limits.js';
import { HttpProblem } from './problem.js';
import { resolvePrincipal } from './principal.js';
import type { Bucket } from './rate-limiter.js';
import { type Services } from './services.js';

const limitClassOf = (req: FastifyRequest): LimitClass =>
  req.routeOptions.config?.limitClass ?? (req.method === 'GET' || req.method === 'HEAD' ? 'reads' : 'writes');

const isOperatorPath = (url: string) => url.startsWith('/operator/');

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
 * Who may call, and how often, for every route: resolve the token, count the request
 * against its rate-limit buckets (so even a 401 carries the X-RateLimit headers and
 * unauthenticated callers are limited per IP), then refuse callers the route is not for.
 */
export const accessControl = (services: Services): AccessControl => {
  const { limits } = services;

  const bucketsFor = (req: FastifyRequest): Bucket[] => {
    const p = req.principal;
    switch (p.kind) {
      case 'supplier': {
        const cls = limitClassOf(req);
        return [
          // a limit raised for this supplier over the operator API replaces the spec's number
          { name: `token:${p.tokenId}:${cls}`, limit: p.rateLimits[cls] ?? limits[cls] },
          { name: `supplier:${p.supplierId}`, limit: p.rateLimits.per_supplier ?? limits.per_supplier },
        ];
      }
      case 'operator':
        return [{ name: 'operator', limit: limits.operator }];
      case 'anonymous':
        return [{ name: `ip:${p.ip}`, limit: limits.unauthenticated }];
    }
  };

  const meter = async (req: FastifyRequest, reply: FastifyReply) => {
    req.principal = await resolvePrincipal(req, {
      db: services.db,
      env: services.config.env,
      operatorToken: services.operatorToken,
    });
    if (req.routeOptions.config?.unlimited) return;
    const verdict = services.rateLimiter.hit(bucketsFor(req), services.clock.now()); // from memory: no database write
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

  const register = (app: FastifyInstance) =>
    app.addHook('onRequest', async (req, reply) => {
      await meter(req, reply);
      const config = req.routeOptions.config ?? {};
      const url = req.routeOptions.url ?? req.url;
      if (config.public || req.is404 || url.startsWith('/api/v1/docs')) return;
      const wanted = isOperatorPath(url) ? 'operator' : 'supplier';
      if (req.principal.kind !== wanted) {
        reply.header('www-authenticate', 'Bearer');
        throw new HttpProblem('unauthorized', 'a valid bearer token is required');
      }
    });

  return { meter, register };
};
