import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issueToken, rateLimitsOf, registerSupplier, revokeToken, setRateLimits } from '../../commands/suppliers.js';
import { raisableLimits, type RateLimitOverrides } from '../../domain/supplier.js';
import { HttpProblem } from '../problem.js';
import { problems } from '../schemas.js';
import { forgetTokens } from '../principal.js';
import { callerOf } from '../supplier.js';
import { operationIdOf, operationOf } from '../idempotency.js';
import { registerRoutes, type Route } from '../routes.js';
import { type Services } from '../services.js';

const tags = ['operator'];
const SupplierId = z.object({ supplier_id: z.string().min(1).max(100) });

// "Limits can be raised on request": the operator sets a supplier's requests per minute by
// class; every instance applies them within a second (they travel with the token lookup)
const perMinute = z.number().int().min(1).max(1_000_000);
const EffectiveLimits = z.object(
  Object.fromEntries(raisableLimits.map((k) => [k, z.number().int()])) as Record<
    (typeof raisableLimits)[number],
    z.ZodNumber
  >,
);
const effective = (services: Services, overrides: RateLimitOverrides) =>
  Object.fromEntries(raisableLimits.map((k) => [k, overrides[k] ?? services.limits[k]])) as Record<
    (typeof raisableLimits)[number],
    number
  >;

const register: Route = (api, services) =>
  api.post(
    '/suppliers',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Register a supplier; its first token is shown once',
        tags,
        body: z.object({ name: z.string().trim().min(1).max(200) }).strict(),
        response: {
          201: z.object({
            supplier: z.object({ id: z.string(), name: z.string() }),
            token: z.string(),
            token_id: z.string(),
          }),
          ...problems(),
        },
      },
    },
    async (req, reply) => {
      const { supplier, token, tokenId } = await registerSupplier(
        services.commands,
        req.body.name,
        callerOf(req),
        operationIdOf(req),
      );
      forgetTokens(services.db); // a re-run after a crash revokes the unseen token of the lost answer
      return reply.code(201).send({ supplier, token, token_id: tokenId });
    },
  );

const issue: Route = (api, services) =>
  api.post(
    '/suppliers/:supplier_id/tokens',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Issue another token for a supplier (shown once)',
        tags,
        params: SupplierId,
        response: { 201: z.object({ token: z.string(), token_id: z.string() }), ...problems(404) },
      },
    },
    async (req, reply) => {
      const { token, tokenId } = await issueToken(
        services.commands,
        req.params.supplier_id,
        callerOf(req),
        operationOf(req),
      );
      forgetTokens(services.db); // likewise
      return reply.code(201).send({ token, token_id: tokenId });
    },
  );

const revoke: Route = (api, services) =>
  api.delete(
    '/suppliers/:supplier_id/tokens/:token_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Revoke a token: it answers 401 from then on',
        tags,
        params: SupplierId.extend({ token_id: z.string().min(1).max(100) }),
        response: { 204: z.null().describe('revoked'), ...problems(404) },
      },
    },
    async (req, reply) => {
      await revokeToken(services.commands, req.params.supplier_id, req.params.token_id, callerOf(req));
      forgetTokens(services.db);
      return reply.code(204).send(null);
    },
  );

const readLimits: Route = (api, services) =>
  api.get(
    '/suppliers/:supplier_id/rate-limits',
    {
      schema: {
        summary: "A supplier's effective rate limits (requests per minute by class)",
        tags,
        params: SupplierId,
        response: { 200: EffectiveLimits, ...problems(404) },
      },
    },
    async (req) => {
      const overrides = await rateLimitsOf(services.commands, req.params.supplier_id);
      if (!overrides) throw new HttpProblem('not_found', `supplier ${req.params.supplier_id} not found`);
      return effective(services, overrides);
    },
  );

const setLimits: Route = (api, services) =>
  api.put(
    '/suppliers/:supplier_id/rate-limits',
    {
      config: { idempotent: true },
      schema: {
        summary: "Raise (or lower) a supplier's rate limits; classes not named keep their value",
        tags,
        params: SupplierId,
        body: z
          .object(
            Object.fromEntries(raisableLimits.map((k) => [k, perMinute.optional()])) as Record<
              (typeof raisableLimits)[number],
              z.ZodOptional<z.ZodNumber>
            >,
          )
          .strict(),
        response: { 200: EffectiveLimits, ...problems(404) },
      },
    },
    async (req) => {
      const limits = Object.fromEntries(
        Object.entries(req.body).filter(([, v]) => v !== undefined),
      ) as RateLimitOverrides;
      const overrides = await setRateLimits(services.commands, req.params.supplier_id, limits, callerOf(req));
      forgetTokens(services.db);
      return effective(services, overrides);
    },
  );

export const registerOperatorSupplierRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [register, issue, revoke, readLimits, setLimits]);
