import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../service.js';
import { problemCodes } from './problem-codes.js';

/** Health probes, the OpenAPI document and the error-code catalogue: no token needed. */
export const registerSystemRoutes = (app: FastifyInstance, services: Services) => {
  const probe = { public: true, unlimited: true };

  app.get('/healthz', { config: probe, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: probe, schema: { hide: true } }, async (_req, reply) => {
    const ready = services.isReady();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'starting' });
  });

  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/api/v1/errors',
    {
      config: { public: true },
      schema: {
        summary: 'Every problem code with its HTTP status and title',
        tags: ['system'],
        security: [],
        response: { 200: z.object({ data: z.array(z.object({ code: z.string(), status: z.number(), title: z.string() })) }) },
      },
    },
    async () => ({ data: Object.entries(problemCodes).map(([code, { status, title }]) => ({ code, status, title })) }),
  );
};
