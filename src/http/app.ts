import { registerReplicaReads } from './replica-reads.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { newId } from '../ids.js';
import { answerFrameworkError, registerErrorHandling } from './errors.js';
import { registerIdempotency } from './idempotency.js';
import { decodeUtf8, exceedsDepth, MAX_JSON_DEPTH, registerInputSafety } from './input-safety.js';
import { HttpProblem } from './problem.js';
import type { LimitClass } from './limits.js';
import { registerOperatorRoutes } from './operator/index.js';
import type { Principal } from './principal.js';
import { registerProductRoutes } from './products.js';
import { registerOfferRoutes } from './offers.js';
import { registerOfferRoutingRoutes } from './offer-routing.js';
import { registerOfferHealthRoutes } from './offer-health.js';
import { registerInventoryRoutes } from './inventory.js';
import { registerInventoryImportRoutes } from './inventory-imports.js';
import { registerFeeRoutes } from './fees.js';
import { registerOrderRoutes } from './orders.js';
import { registerBalanceRoutes } from './balance.js';
import { registerPayoutRoutes } from './payouts.js';
import { registerPayoutDestinationRoutes } from './payout-destinations.js';
import { registerWebhookRoutes } from './webhooks.js';
import { registerCertificationRoutes } from './certification.js';
import { registerCompetitionRoutes } from './competition.js';
import { registerWebhookRecoveryRoutes } from './webhook-recovery.js';
import { registerWebhookListenRoutes } from './webhook-listen.js';
import { webhookDocs } from './webhook-docs.js';
import { type AccessControl, accessControl } from './access.js';
import { registerSystemRoutes } from './system.js';
import { registerHomeRoutes } from './home.js';
import { registerLedgerSigningKeyRoute } from './ledger-signing-key.js';
import { registerWitnessRoutes } from './witnesses.js';
import { registerWhoamiRoutes } from './whoami.js';
import { registerMetrics } from './metrics.js';
import { documentObject, documentOperation } from './openapi.js';
import { listenOrigin, openApiServers, withServers } from './openapi-servers.js';
import { registerConsole } from './console/index.js';
import { type Services } from './services.js';
import { answerClientError } from './client-errors.js';
import { registerRewindRefusal } from './store-rewound.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Rate-limit class; GET defaults to `reads`, other methods to `writes`. */
    limitClass?: LimitClass;
    /** Accepts Idempotency-Key (every mutating endpoint). */
    idempotent?: boolean;
    /** Needs no token (health, docs, the OpenAPI document). */
    public?: boolean;
    /**
     * Outside rate limiting (health probes); as a function, outside it when the function
     * says so (the console's pages of a signed-in supplier, metered by the API calls they make).
     */
    unlimited?: boolean | ((req: FastifyRequest) => boolean);
    /**
     * Text media types the 200 answer also comes in, chosen by Accept (type → what it holds):
     * the handler sends them as they are; the OpenAPI document lists them beside the JSON.
     */
    textFormats?: Record<string, string>;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

export const API_PREFIX = '/api/v1';
export const OPERATOR_PREFIX = '/operator/v1';

/** Bodies are small JSON documents; routes that take uploads raise their own limit. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * A client has this long to send a whole request, body included: a body trickled in a byte
 * at a time would otherwise hold a socket for ever (Node's default is 5 minutes, checked
 * every 30 s). Generous for an upload of a few MiB on a slow link.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/**
 * A connection silent both ways for this long is closed. Longer than any handler waits on a
 * supplier (validate then execute of a top-up: 10 s + 30 s).
 */
export const CONNECTION_TIMEOUT_MS = 120_000;

/** How an onSend hook hands its payload on. */
type OnSendDone = (error: Error | null, payload: unknown) => void;

/**
 * Is part of the request's body still unread? A request without one is never waiting for
 * it, even while its message is not yet marked complete: an answer decided synchronously,
 * within the parser's call that read the head, comes before the parser marks it.
 */
const bodyPending = (req: FastifyRequest): boolean =>
  !req.raw.complete &&
  (req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0'));

/** The fastify instance with the service's timeouts, logging, proxy trust and pre-routing refusals. */
const createFastify = (services: Services, logger: Logger, access: AccessControl): FastifyInstance => {
  const logController = new LogController({ requestIdLogLabel: 'trace_id' });
  const requestTimeout = services.config.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return Fastify({
    requestTimeout,
    connectionTimeout: services.config.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS,
    // handed to http.createServer: the request timeout is enforced within a second, and the
    // headers have no longer than the whole request
    http: {
      connectionsCheckingInterval: Math.min(1000, requestTimeout / 4),
      headersTimeout: Math.min(requestTimeout, 30_000),
    },
    loggerInstance: logger,
    genReqId: () => newId(),
    logController,
    requestIdHeader: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // behind a proxy named in SVC_TRUST_PROXY the client's address is the one it forwards
    // (the per-IP limit counts clients, not the proxy); no proxy is trusted otherwise
    trustProxy: services.config.trustProxy ?? false,
    // a request that arrives while closing gets the service's own 503, with Retry-After (below)
    return503OnClosing: false,
    // what Node's HTTP parser refuses leaves as a problem too (client-errors.ts)
    clientErrorHandler: answerClientError,
    forceCloseConnections: 'idle',
    // errors fastify raises before routing (an undecodable URL) leave as problems too
    frameworkErrors: (error, req, reply) => {
      // fastify logs the incoming line of these but not the completed one
      reply.raw.once('finish', () => logController.requestCompleted(null, req, reply));
      void answerFrameworkError(error, req, reply, access.meter);
    },
  }) as unknown as FastifyInstance;
};

/** How request bodies are read and checked: JSON only, UTF-8 only, nesting capped; no body is no body. */
const registerBodyParsing = (app: FastifyInstance) => {
  // JSON only: a text/plain body is refused as an unsupported media type, not parsed as a string
  app.removeContentTypeParser('text/plain');
  // an empty body sent as application/json is no body (clients add the header to every POST),
  // so a route without a body accepts it and a route with one names the missing body
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // read as bytes: text that is not UTF-8 is refused rather than decoded with replacement
  // characters, and nesting is capped before anything recursive walks the document
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, bytes, done) => {
    const text = decodeUtf8(bytes as Buffer);
    if (text === undefined) return done(new HttpProblem('malformed_json', 'the body is not valid UTF-8'), undefined);
    if (text === '') return done(null, undefined);
    if (exceedsDepth(text, MAX_JSON_DEPTH))
      return done(
        new HttpProblem('validation_failed', `body: nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, {
          errors: [{ field: 'body', message: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }],
        }),
        undefined,
      );
    void json(req, text, done);
  });
  // fastify hands a missing body to the validator as null; it is no body, so a body schema
  // with defaults (test-fire's `event`) applies them instead of refusing "received null"
  app.setValidatorCompiler((route) => {
    const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
    return route.httpPart === 'body' ? (data: unknown) => validate(data === null ? undefined : data) : validate;
  });
  app.setSerializerCompiler(serializerCompiler);
};

/**
 * Connections while the instance runs and while it shuts down: a request reaching a closing
 * instance is told to come again, and an answer given before the body was read closes its
 * connection.
 */
const registerConnectionHandling = (app: FastifyInstance) => {
  // the hooks every request runs are synchronous where they can be: an async one costs a
  // promise and a turn of the microtask queue per request
  // while shutting down, answers to requests already in flight close their connection, so a
  // keep-alive client does not hold the server open after its last answer
  let closing = false;
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-trace-id', req.id);
    // a request that reached a closing instance (a proxy's reused connection) is told to come
    // again: with its Idempotency-Key, another instance answers it
    if (closing)
      return done(
        new HttpProblem(
          'service_unavailable',
          'this instance is shutting down; retry shortly',
          {},
          { 'retry-after': '1' },
        ),
      );
    done();
  });
  app.addHook('preClose', async () => {
    closing = true;
    app.server.closeIdleConnections();
  });
  // an answer given before the body was read (a 401, a 413, a 429 in onRequest) closes the
  // connection: otherwise Node keeps reading and discarding the rest of the body, and a
  // slow sender keeps the socket without ever being authenticated
  // (a body that already arrived with the head is read first: the parser takes it on the next turn)
  const answer = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: OnSendDone) => {
    if (closing || bodyPending(req)) reply.header('connection', 'close');
    done(null, payload);
  };
  app.addHook('onSend', (req, reply, payload, done) => {
    // no closure per request unless it has to wait
    if (!closing && bodyPending(req)) setImmediate(() => answer(req, reply, payload, done));
    else answer(req, reply, payload, done);
  });
};

/** The OpenAPI document and its reader, each copy naming the origin its request reached. */
const registerDocs = async (app: FastifyInstance, services: Services) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Supplier Marketplace API',
        version: 'v1',
        description:
          'Offers, inventory, orders, balance and webhooks for suppliers; the operator API for the storefront and staff.',
      },
      // each reader's copy names the origin its request reached (openapi-servers.ts)
      servers: openApiServers(listenOrigin(services.config.host, services.config.port)),
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      webhooks: webhookDocs,
    },
    transform: documentOperation,
    transformObject: documentObject,
  });
  await app.register(swaggerUi, {
    routePrefix: `${API_PREFIX}/docs`,
    uiConfig: { docExpansion: 'list' },
    transformSpecification: (doc, req) =>
      withServers(doc, listenOrigin(services.config.host, services.config.port), req),
  });
};

/** Every route: the public ones, the supplier API and the operator API, then the console. */
const registerAllRoutes = async (app: FastifyInstance, services: Services) => {
  registerSystemRoutes(app, services);
  registerHomeRoutes(app, services);
  registerLedgerSigningKeyRoute(app, services);
  await app.register(
    async (api) => {
      registerWhoamiRoutes(api, services);
      registerProductRoutes(api, services);
      registerOfferRoutes(api, services);
      registerOfferRoutingRoutes(api, services);
      registerOfferHealthRoutes(api, services);
      registerInventoryRoutes(api, services);
      registerInventoryImportRoutes(api, services);
      registerFeeRoutes(api, services);
      registerOrderRoutes(api, services);
      registerBalanceRoutes(api, services);
      registerWitnessRoutes(api, services);
      registerPayoutRoutes(api, services);
      registerPayoutDestinationRoutes(api, services);
      registerWebhookRoutes(api, services);
      registerCertificationRoutes(api, services);
      registerCompetitionRoutes(api, services);
      registerWebhookRecoveryRoutes(api, services);
      registerWebhookListenRoutes(api, services);
    },
    { prefix: API_PREFIX },
  );
  await app.register(async (op) => registerOperatorRoutes(op, { ...services, commands: services.operatorCommands }), {
    prefix: OPERATOR_PREFIX,
  });
  await registerConsole(app, services);
};

/** The app's mechanisms in the order they apply, then its routes. */
export const buildHttpApp = async (services: Services, logger: Logger): Promise<FastifyInstance> => {
  const access = accessControl(services);
  const app = createFastify(services, logger, access);
  registerBodyParsing(app);
  app.decorateRequest('principal', null as never);
  registerConnectionHandling(app);
  registerRewindRefusal(app, { rewound: services.isRewound, rewinds: services.rewinds });
  registerErrorHandling(app);
  registerMetrics(app, services);
  registerReplicaReads(app, services.replicaReads);
  access.register(app);
  registerIdempotency(app, {
    secretBox: services.secretBox,
    secretKey: services.commands.secretKey,
    db: services.plainDb,
    clock: services.clock,
    scopeOf: (req: FastifyRequest) =>
      req.principal.kind === 'supplier' ? `supplier:${req.principal.supplierId}` : req.principal.kind,
  });
  registerInputSafety(app);

  await registerDocs(app, services);
  await registerAllRoutes(app, services);
  return app;
};
