import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { UNAVAILABLE_RETRY_AFTER_S } from '../db/faults.js';
import { listenOrigin, withServers } from './openapi-servers.js';
import { problemCodes } from './problem-codes.js';
import { type Services } from './services.js';

const PING_TIMEOUT_MS = 2_000;

const databaseAnswers = async (services: Services): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  const ping = sql`select 1`.execute(services.plainDb).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, late]);
  } finally {
    clearTimeout(timer);
  }
};

/** Health probes, the OpenAPI document and the error-code catalogue: no token needed. */
export const registerSystemRoutes = (app: FastifyInstance, services: Services) => {
  const probe = { public: true, unlimited: true };

  app.get('/healthz', { config: probe, schema: { hide: true } }, async () => ({ status: 'ok' }));

  // ready = caught up once since start AND the database answers now: a load balancer takes
  // the instance out while its database is unreachable and back once it is
  app.get('/readyz', { config: probe, schema: { hide: true } }, async (_req, reply) => {
    if (services.isStopping()) return reply.code(503).send({ status: 'stopping' });
    if (!services.isReady()) return reply.code(503).send({ status: 'starting' });
    if (services.isRewound()) {
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      return reply.code(503).send({ status: 'store_rewound' });
    }
    const reachable = await databaseAnswers(services);
    if (!reachable) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
    return reply.code(reachable ? 200 : 503).send({ status: reachable ? 'ready' : 'database_unreachable' });
  });

  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async (req) =>
    withServers(app.swagger(), listenOrigin(services.config.host, services.config.port), req),
  );

  app.get(
    '/api/v1/errors',
    {
      config: { public: true },
      schema: {
        summary: 'Every problem code with its HTTP status and title',
        tags: ['system'],
        security: [],
        response: {
          200: z.object({ data: z.array(z.object({ code: z.string(), status: z.number(), title: z.string() })) }),
        },
      },
    },
    async () => ({ data: Object.entries(problemCodes).map(([code, { status, title }]) => ({ code, status, title })) }),
  );
};
