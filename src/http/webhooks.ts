import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  loadEndpoint,
  rotateEndpointSecret,
  testFire,
  updateEndpoint,
} from '../commands/webhooks.js';
import { stateOf } from '../commands/handle.js';
import {
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  webhookEndpointDecider,
  type WebhookEndpointState,
} from '../domain/webhook-endpoint.js';
import { DELIVERY_OUTCOMES, deliveryOutcome } from '../outbound/webhook-outcome.js';
import { endpointFailures, listDeliveryAttempts, listSupplierEndpoints } from '../projections/webhook-reads.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { operationOf } from './idempotency.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { operationIdOf } from './idempotency.js';
import { webhookStream } from '../commands/streams.js';
import { iso, Timestamp } from '../resources/values.js';
import { registerRoutes, type Route } from './routes.js';
import { attemptOf, resendDelivery } from '../processes/webhook-resend.js';
import { type Services } from './services.js';

const tags = ['webhooks'];
const EventType = z.enum(WEBHOOK_EVENT_TYPES);
// `ledger.checkpoint` is named explicitly or not at all: `*` is the contract's list
const Events = z
  .array(z.union([z.enum(SUBSCRIBABLE_EVENT_TYPES), z.literal('*')]))
  .min(1)
  .max(SUBSCRIBABLE_EVENT_TYPES.length + 1)
  .refine((events) => new Set(events).size === events.length, 'each event type once');
const Url = z.string().min(1).max(2000);
const RateLimit = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .nullable()
  .describe('deliveries per second the sender keeps to; null: no limit');

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string(),
    status: z.enum(['active', 'disabled']),
    secret: z.string().optional().describe('whsec_…; only in the creation and rotation answers'),
    rate_limit: z.number().int().nullable().describe('deliveries per second; null: no limit'),
    consecutive_failures: z.number().int(),
    disabled_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

const Outcome = z
  .enum(DELIVERY_OUTCOMES)
  .describe(
    'succeeded (2xx); http_error (another status, in response_status); connection_refused (nothing listens at the address); connection_failed; timeout; target_refused (an address the service may not call)',
  );

const TestFireResult = z.object({
  delivery_id: z.string(),
  event_type: z.string(),
  response_status: z.number().int().describe('0 when no HTTP answer came (outcome says why)'),
  duration_ms: z.number().int(),
  succeeded: z.boolean(),
  outcome: Outcome,
});

const DeliveryRow = z
  .object({
    id: z.string().describe('the attempt id'),
    delivery_id: z.string(),
    webhook_id: z.string(),
    webhook_url: z.string().nullable().describe("the endpoint's URL (as it is now)"),
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    test_fire: z.boolean(),
    recovered: z.boolean().describe('sent by POST /webhooks/{webhook_id}/recover'),
    succeeded: z.boolean(),
    response_status: z.number().int().nullable().describe('null when no HTTP answer came (outcome says why)'),
    outcome: Outcome,
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

const DeliveryDetail = DeliveryRow.extend({
  request_headers: z.record(z.string(), z.string()),
  request_body: z.string().describe('exactly the signed body'),
  response_body: z.string().nullable().describe('the first 4 KB'),
});

const Params = z.object({ webhook_id: z.string().min(1).max(100) });

interface AttemptJoin {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  url: string | null;
  event_id: string;
  event_type: string;
  attempt: number;
  test_fire: boolean;
  recovered: boolean;
  succeeded: boolean;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  created_at: Date;
}

/** One attempt as the delivery log shows it, in the list and in the single read. */
const attemptRow = (r: AttemptJoin) => ({
  id: r.id,
  delivery_id: r.delivery_id,
  webhook_id: r.endpoint_id,
  webhook_url: r.url,
  event_id: r.event_id,
  event_type: r.event_type,
  attempt: r.attempt,
  test_fire: r.test_fire,
  recovered: r.recovered,
  succeeded: r.succeeded,
  response_status: r.response_status,
  outcome: deliveryOutcome(r.succeeded, r.error),
  duration_ms: r.duration_ms,
  error: r.error,
  created_at: iso(r.created_at),
});

/** An endpoint as its stream holds it, with its failure count; the secret only when just made. */
const endpointResource = async (services: Services, e: WebhookEndpointState, secret?: string) => ({
  id: e.id,
  url: e.settings.url,
  events: e.settings.events,
  description: e.settings.description,
  status: e.status,
  ...(secret && { secret }),
  rate_limit: e.settings.rateLimit ?? null,
  // written by commands and the sender, never by a projection: read without the wait
  consecutive_failures: (await endpointFailures(services.plainDb, [e.id])).get(e.id) ?? 0,
  disabled_at: e.disabledAt,
  created_at: e.createdAt,
});

/** The rate limit is not in the read model: at most 10 endpoints, each state is cached. */
const rateLimitsOf = async (services: Services, endpointIds: readonly string[]) => {
  const limits = new Map<string, number | null>();
  for (const id of endpointIds) {
    const state = await stateOf(services.commands, webhookStream(id), webhookEndpointDecider);
    limits.set(id, state?.settings.rateLimit ?? null);
  }
  return limits;
};

const create: Route = (api, services) =>
  api.post(
    '/webhooks',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Register a webhook endpoint (public HTTPS; at most 10); the secret is shown once',
        tags,
        body: z
          .object({
            url: Url,
            events: Events,
            description: z.string().max(500).default(''),
            rate_limit: RateLimit.optional(),
          })
          .strict(),
        response: { 201: WebhookEndpoint, ...problems() },
      },
    },
    async (req, reply) => {
      const { rate_limit, ...settings } = req.body;
      const { endpoint, secret } = await createEndpoint(
        services.commands,
        supplierOf(req).supplierId,
        { ...settings, ...(rate_limit && { rateLimit: rate_limit }) },
        callerOf(req),
        operationIdOf(req),
      );
      return reply.code(201).send(await endpointResource(services, endpoint, secret));
    },
  );

const list: Route = (api, services) =>
  api.get(
    '/webhooks',
    {
      schema: {
        summary: 'Your webhook endpoints',
        tags,
        querystring: z.object(pageQuery),
        response: { 200: listOf(WebhookEndpoint), ...problems() },
      },
    },
    async (req) => {
      const after = decodeCursor(req.query.cursor);
      const rows = await listSupplierEndpoints(services.db, supplierOf(req).supplierId, {
        after,
        limit: req.query.limit,
      });
      const failures = await endpointFailures(
        services.plainDb,
        rows.map((r) => r.id),
      );
      const limits = await rateLimitsOf(
        services,
        rows.map((r) => r.id),
      );
      return page(
        rows,
        req.query.limit,
        (r) => r.id,
        (r) => ({
          id: r.id,
          url: r.url,
          events: r.events,
          description: r.description,
          status: r.status as 'active',
          rate_limit: limits.get(r.id) ?? null,
          consecutive_failures: failures.get(r.id) ?? 0,
          disabled_at: r.disabled_at && iso(r.disabled_at),
          created_at: iso(r.created_at),
        }),
      );
    },
  );

const read: Route = (api, services) =>
  api.get(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'One webhook endpoint',
        tags,
        params: Params,
        response: { 200: WebhookEndpoint, ...problems(404) },
      },
    },
    async (req) =>
      endpointResource(
        services,
        await loadEndpoint(services.commands, supplierOf(req).supplierId, req.params.webhook_id),
      ),
  );

const update: Route = (api, services) =>
  api.patch(
    '/webhooks/:webhook_id',
    {
      config: { idempotent: true },
      schema: {
        summary:
          'Change url, events, description, rate_limit or status (status active re-enables after a passing test-fire)',
        tags,
        params: Params,
        body: z
          .object({
            url: Url.optional(),
            events: Events.optional(),
            description: z.string().max(500).optional(),
            rate_limit: RateLimit.optional(),
            status: z.enum(['active', 'disabled']).optional(),
          })
          .strict(),
        response: { 200: WebhookEndpoint, ...problems(404, 409) },
      },
    },
    async (req) => {
      const supplierId = supplierOf(req).supplierId;
      const { status, rate_limit, ...rest } = req.body;
      const settings = { ...rest, ...(rate_limit !== undefined && { rateLimit: rate_limit }) };
      // enabling runs its test-fire first: the changes are written with it, or not at all
      let endpoint =
        status === 'active'
          ? await enableEndpoint(services.commands, supplierId, req.params.webhook_id, callerOf(req), settings)
          : await updateEndpoint(services.commands, supplierId, req.params.webhook_id, settings, callerOf(req));
      if (status === 'disabled')
        endpoint = (
          await disableEndpoint(services.commands, req.params.webhook_id, 'supplier_request', 0, callerOf(req))
        ).state!;
      return endpointResource(services, endpoint);
    },
  );

const remove: Route = (api, services) =>
  api.delete(
    '/webhooks/:webhook_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Delete a webhook endpoint',
        tags,
        params: Params,
        response: { 204: z.null(), ...problems(404) },
      },
    },
    async (req, reply) => {
      await deleteEndpoint(
        services.commands,
        supplierOf(req).supplierId,
        req.params.webhook_id,
        callerOf(req),
        operationOf(req).resumed,
      );
      return reply.code(204).send(null);
    },
  );

const rotateSecret: Route = (api, services) =>
  api.post(
    '/webhooks/:webhook_id/rotate-secret',
    {
      config: { idempotent: true },
      schema: {
        summary: 'A new secret, shown once; for 24 hours the old one also signs (a second v1= entry)',
        tags,
        params: Params,
        response: { 200: WebhookEndpoint, ...problems(404) },
      },
    },
    async (req) => {
      const { endpoint, secret } = await rotateEndpointSecret(
        services.commands,
        supplierOf(req).supplierId,
        req.params.webhook_id,
        callerOf(req),
        operationOf(req).id,
      );
      return endpointResource(services, endpoint, secret);
    },
  );

const testFireNow: Route = (api, services) =>
  api.post(
    '/webhooks/:webhook_id/test',
    {
      config: { idempotent: true, limitClass: 'test' },
      schema: {
        summary: 'Send a signed canned fixture of a real event type (test_fire: true) now',
        tags,
        params: Params,
        body: z
          .object({ event: EventType.default('order.paid') })
          .strict()
          .default({ event: 'order.paid' }),
        response: { 200: TestFireResult, ...problems(404) },
      },
    },
    async (req) => {
      const endpoint = await loadEndpoint(services.commands, supplierOf(req).supplierId, req.params.webhook_id);
      const r = await testFire(services.commands, endpoint, req.body.event);
      return {
        delivery_id: r.deliveryId,
        event_type: req.body.event,
        response_status: r.responseStatus,
        duration_ms: r.durationMs,
        succeeded: r.succeeded,
        outcome: deliveryOutcome(r.succeeded, r.error),
      };
    },
  );

const deliveries: Route = (api, services) =>
  api.get(
    '/webhook-deliveries',
    {
      schema: {
        summary: 'The delivery log: one row per attempt, kept 30 days, newest first',
        tags,
        querystring: z.object({
          webhook_id: z.string().min(1).max(100).optional(),
          event_type: z.enum(SUBSCRIBABLE_EVENT_TYPES).optional(),
          event_id: z.string().min(1).max(100).optional(),
          status: z.enum(['succeeded', 'failed']).optional(),
          from: z.iso.datetime({ offset: true }).optional(),
          to: z.iso.datetime({ offset: true }).optional(),
          ...pageQuery,
        }),
        response: { 200: listOf(DeliveryRow), ...problems() },
      },
    },
    async (req) => {
      const { webhook_id, event_type, event_id, status, from, to, limit, cursor } = req.query;
      const before = decodeCursor(cursor);
      const rows = await listDeliveryAttempts(services.db, supplierOf(req).supplierId, {
        webhookId: webhook_id,
        eventType: event_type,
        eventId: event_id,
        succeeded: status === undefined ? undefined : status === 'succeeded',
        from: from ? new Date(from) : undefined,
        to: to ? new Date(to) : undefined,
        before,
        limit,
      });
      return page(rows, limit, (r) => r.id, attemptRow);
    },
  );

const delivery: Route = (api, services) =>
  api.get(
    '/webhook-deliveries/:delivery_id',
    {
      schema: {
        summary: 'One attempt with its exact signed request body and the first 4 KB of the answer',
        tags,
        params: z.object({ delivery_id: z.string().min(1).max(100) }),
        response: { 200: DeliveryDetail, ...problems(404) },
      },
    },
    async (req) => {
      const r = await attemptOf(services.db, supplierOf(req).supplierId, req.params.delivery_id);
      return {
        ...attemptRow(r),
        request_headers: r.request_headers,
        request_body: r.request_body,
        response_body: r.response_body,
      };
    },
  );

const resend: Route = (api, services) =>
  api.post(
    '/webhook-deliveries/:delivery_id/resend',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Deliver the same event and body again, now (possible for 30 days)',
        tags,
        params: z.object({ delivery_id: z.string().min(1).max(100) }),
        response: { 200: TestFireResult, ...problems(404, 409) },
      },
    },
    async (req) => {
      const { deliveryId, eventType, result } = await resendDelivery(
        services.commands,
        services.db,
        supplierOf(req).supplierId,
        req.params.delivery_id,
        callerOf(req),
      );
      return {
        delivery_id: deliveryId,
        event_type: eventType,
        response_status: result.responseStatus,
        duration_ms: result.durationMs,
        succeeded: result.succeeded,
        outcome: deliveryOutcome(result.succeeded, result.error),
      };
    },
  );

export const registerWebhookRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [
    create,
    list,
    read,
    update,
    remove,
    rotateSecret,
    testFireNow,
    deliveries,
    delivery,
    resend,
  ]);
