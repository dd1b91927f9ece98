import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { newId } from '../ids.js';
import type { Services } from '../service.js';
import { registerErrorHandling } from './errors.js';
import { sendProblem } from './problem.js';
import { registerIdempotency } from './idempotency.js';
import type { LimitClass } from './limits.js';
import { registerOperatorRoutes } from './operator/index.js';
import type { Principal } from './principal.js';
import { registerProductRoutes } from './products.js';
import { registerOfferRoutes } from './offers.js';
import { registerInventoryRoutes } from './inventory.js';
import { registerFeeRoutes } from './fees.js';
import { registerOrderRoutes } from './orders.js';
import { registerBalanceRoutes } from './balance.js';
import { registerWebhookRoutes } from './webhooks.js';
import { webhookDocs } from './webhook-docs.js';
import { registerAccessControl } from './access.js';
import { registerSystemRoutes } from './system.js';
import { registerWhoamiRoutes } from './whoami.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Rate-limit class; GET defaults to `reads`, other methods to `writes`. */
    limitClass?: LimitClass;
    /** Accepts Idempotency-Key (every mutating endpoint). */
    idempotent?: boolean;
    /** Needs no token (health, docs, the OpenAPI document). */
    public?: boolean;
    /** Outside rate limiting (health probes). */
    unlimited?: boolean;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

export const API_PREFIX = '/api/v1';
export const OPERATOR_PREFIX = '/operator/v1';

/** Bodies are small JSON documents; routes that take uploads raise their own limit. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

export const buildHttpApp = async (services: Services, logger: Logger): Promise<FastifyInstance> => {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    genReqId: () => newId(),
    logController: new LogController({ requestIdLogLabel: 'trace_id' }),
    requestIdHeader: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // errors fastify raises before routing (an undecodable URL) leave as problems too
    frameworkErrors: (error, req, reply) => {
      reply.header('x-trace-id', req.id);
      void sendProblem(req, reply, 'bad_request', error.code === 'FST_ERR_BAD_URL' ? 'the URL is not validly encoded' : 'the request could not be read');
    },
  }) as unknown as FastifyInstance;
  // JSON only: a text/plain body is refused as an unsupported media type, not parsed as a string
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-trace-id', req.id);
  });
  // while shutting down, answers to requests already in flight close their connection, so a
  // keep-alive client does not hold the server open after its last answer
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.server.closeIdleConnections();
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  registerErrorHandling(app);
  registerAccessControl(app, services);
  registerIdempotency(app, {
    db: services.db,
    clock: services.clock,
    scopeOf: (req: FastifyRequest) => (req.principal.kind === 'supplier' ? `supplier:${req.principal.supplierId}` : req.principal.kind),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Supplier Marketplace API',
        version: 'v1',
        description: 'Offers, inventory, orders, balance and webhooks for suppliers; the operator API for the storefront and staff.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      webhooks: webhookDocs,
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { docExpansion: 'list' } });

  registerSystemRoutes(app, services);
  await app.register(
    async (api) => {
      registerWhoamiRoutes(api, services);
      registerProductRoutes(api, services);
      registerOfferRoutes(api, services);
      registerInventoryRoutes(api, services);
      registerFeeRoutes(api, services);
      registerOrderRoutes(api, services);
      registerBalanceRoutes(api, services);
      registerWebhookRoutes(api, services);
    },
    { prefix: API_PREFIX },
  );
  await app.register(async (op) => registerOperatorRoutes(op, services), { prefix: OPERATOR_PREFIX });
  return app;
};
