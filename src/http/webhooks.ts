import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
  countAttempt,
} from '../commands/webhooks.js';
import { load } from '../commands/handle.js';
import { DomainError } from '../domain/errors.js';
import {
  DISABLE_AFTER_FAILURES,
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  webhookEndpointDecider,
  type WebhookEndpointState,
} from '../domain/webhook-endpoint.js';
import { LOG_RETENTION_MS } from '../processes/webhooks.js';
import { sendAttempt } from '../outbound/webhook-send.js';
import { DELIVERY_OUTCOMES, deliveryOutcome } from '../outbound/webhook-outcome.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { operationOf } from './idempotency.js';
import { HttpProblem } from './problem.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { operationIdOf } from './idempotency.js';
import { webhookStream } from '../commands/streams.js';
import { iso, Timestamp } from '../resources/values.js';
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

// eslint-disable-next-line max-lines-per-function -- registers the resource's routes, one call per route
export const registerWebhookRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = services.commands;

  // the counters are written by commands and the sender, never by a projection: they never
  // trail the events, so their reads need not wait for the read models
  const failuresOf = async (ids: string[]) => {
    if (ids.length === 0) return new Map<string, number>();
    const rows = await services.plainDb
      .selectFrom('webhook_endpoint_failures')
      .selectAll()
      .where('endpoint_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.endpoint_id, r.consecutive_failures]));
  };
  const resource = async (e: WebhookEndpointState, secret?: string) => ({
    id: e.id,
    url: e.settings.url,
    events: e.settings.events,
    description: e.settings.description,
    status: e.status,
    ...(secret && { secret }),
    rate_limit: e.settings.rateLimit ?? null,
    consecutive_failures: (await failuresOf([e.id])).get(e.id) ?? 0,
    disabled_at: e.disabledAt,
    created_at: e.createdAt,
  });

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
        deps,
        supplierOf(req).supplierId,
        { ...settings, ...(rate_limit && { rateLimit: rate_limit }) },
        callerOf(req),
        operationIdOf(req),
      );
      return reply.code(201).send(await resource(endpoint, secret));
    },
  );

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
      let q = services.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('supplier_id', '=', supplierOf(req).supplierId)
        .where('deleted', '=', false)
        .orderBy('id')
        .limit(req.query.limit + 1);
      if (after) q = q.where('id', '>', after);
      const rows = await q.execute();
      const failures = await failuresOf(rows.map((r) => r.id));
      // the rate limit is not in the read model: at most 10 endpoints, each state is cached
      const limits = new Map<string, number | null>();
      for (const r of rows)
        limits.set(
          r.id,
          (await load(deps.store, webhookStream(r.id), webhookEndpointDecider, deps.states)).state?.settings
            .rateLimit ?? null,
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
    async (req) => resource(await loadEndpoint(deps, supplierOf(req).supplierId, req.params.webhook_id)),
  );

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
          ? await enableEndpoint(deps, supplierId, req.params.webhook_id, callerOf(req), settings)
          : await updateEndpoint(deps, supplierId, req.params.webhook_id, settings, callerOf(req));
      if (status === 'disabled')
        endpoint = (await disableEndpoint(deps, req.params.webhook_id, 'supplier_request', 0, callerOf(req))).state!;
      return resource(endpoint);
    },
  );

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
        deps,
        supplierOf(req).supplierId,
        req.params.webhook_id,
        callerOf(req),
        operationOf(req).resumed,
      );
      return reply.code(204).send(null);
    },
  );

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
        deps,
        supplierOf(req).supplierId,
        req.params.webhook_id,
        callerOf(req),
        operationOf(req).id,
      );
      return resource(endpoint, secret);
    },
  );

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
      const endpoint = await loadEndpoint(deps, supplierOf(req).supplierId, req.params.webhook_id);
      const r = await testFire(deps, endpoint, req.body.event);
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
      let q = services.db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select([
          'a.id',
          'a.delivery_id',
          'd.endpoint_id',
          'e.url',
          'd.event_id',
          'd.event_type',
          'a.attempt',
          'd.test_fire',
          'd.recovered',
          'a.succeeded',
          'a.response_status',
          'a.duration_ms',
          'a.error',
          'a.created_at',
        ])
        .where('a.supplier_id', '=', supplierOf(req).supplierId)
        .orderBy('a.id', 'desc')
        .limit(limit + 1);
      if (webhook_id) q = q.where('d.endpoint_id', '=', webhook_id);
      if (event_type) q = q.where('d.event_type', '=', event_type);
      if (event_id) q = q.where('d.event_id', '=', event_id);
      if (status) q = q.where('a.succeeded', '=', status === 'succeeded');
      if (from) q = q.where('a.created_at', '>=', new Date(from));
      if (to) q = q.where('a.created_at', '<', new Date(to));
      if (before) q = q.where('a.id', '<', before);
      const rows = await q.execute();
      return page(rows, limit, (r) => r.id, attemptRow);
    },
  );

  const attemptOf = async (supplierId: string, id: string) => {
    // an attempt id, or a delivery id (its latest attempt)
    const row = await services.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('a')
      .select([
        'd.endpoint_id',
        'e.url',
        'd.event_id',
        'd.event_type',
        'd.test_fire',
        'd.recovered',
        'd.body',
        'd.created_at as delivery_created_at',
        'd.attempts',
      ])
      .where('a.supplier_id', '=', supplierId)
      .where((eb) => eb.or([eb('a.id', '=', id), eb('a.delivery_id', '=', id)]))
      .orderBy('a.attempt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) throw new HttpProblem('not_found', `webhook delivery ${id} not found`);
    return row;
  };

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
      const r = await attemptOf(supplierOf(req).supplierId, req.params.delivery_id);
      return {
        ...attemptRow(r),
        request_headers: r.request_headers,
        request_body: r.request_body,
        response_body: r.response_body,
      };
    },
  );

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
      const supplierId = supplierOf(req).supplierId;
      const r = await attemptOf(supplierId, req.params.delivery_id);
      if (services.clock.now().getTime() - new Date(r.delivery_created_at).getTime() > LOG_RETENTION_MS)
        throw new DomainError('invalid_state', 'deliveries can be resent for 30 days');
      const endpoint = await loadEndpoint(deps, supplierId, r.endpoint_id);
      if (endpoint.status !== 'active')
        throw new DomainError('invalid_state', 'the endpoint is disabled; re-enable it first');
      const attempt = r.attempts + 1;
      const result = await sendAttempt(
        deps,
        endpoint,
        { id: r.delivery_id, eventId: r.event_id, eventType: r.event_type, body: r.body, supplierId },
        attempt,
        // a success ends a delivery still on its ladder: no further attempt is due
        (succeeded) => ({ attempts: attempt, ...(succeeded && { status: 'succeeded', next_attempt_at: null }) }),
      );
      // a resend is an attempt like any other: its failure can be the 30th in a row, and a
      // 410 is the receiver saying it is gone, whichever attempt it answers
      const failures = r.test_fire ? 0 : await countAttempt(deps, endpoint.id, result.succeeded);
      if (!r.test_fire && result.responseStatus === 410)
        await disableEndpoint(deps, endpoint.id, 'gone', failures, callerOf(req));
      else if (!r.test_fire && !result.succeeded && failures >= DISABLE_AFTER_FAILURES)
        await disableEndpoint(deps, endpoint.id, 'consecutive_failures', failures, callerOf(req));
      return {
        delivery_id: r.delivery_id,
        event_type: r.event_type,
        response_status: result.responseStatus,
        duration_ms: result.durationMs,
        succeeded: result.succeeded,
        outcome: deliveryOutcome(result.succeeded, result.error),
      };
    },
  );
};
