import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  endListenSession,
  loadListenSession,
  openListenSession,
  POLL_BATCH,
  pollListenSession,
} from '../commands/webhook-listen.js';
import { LISTEN_EVENT_TYPES, LISTEN_LEASE_MS, MAX_LISTEN_SESSIONS } from '../domain/webhook-listen-session.js';
import { Timestamp } from '../resources/values.js';
import { operationIdOf } from './idempotency.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import { type Services } from './services.js';
import { callerOf, supplierOf } from './supplier.js';

const tags = ['webhooks'];
/** The longest a poll waits for an event: well inside the lease, and inside common proxies' idle timeouts. */
const MAX_WAIT_S = 25;

const Events = z
  .array(z.union([z.enum(LISTEN_EVENT_TYPES), z.literal('*')]))
  .min(1)
  .max(LISTEN_EVENT_TYPES.length + 1)
  .refine((events) => new Set(events).size === events.length, 'each event type once');

const ListenSession = z
  .object({
    id: z.string(),
    events: z.array(z.string()),
    secret: z.string().optional().describe("whsec_…; only in the opening answer: the forwarded events' signing secret"),
    lease_until: Timestamp.describe(
      `the session ends unless polled before then; each poll moves it ${LISTEN_LEASE_MS / 1000} s on`,
    ),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookListenSession' });

const ForwardedEvent = z
  .object({
    id: z.string().describe("the event's copy for this session; acknowledge it by this id"),
    event_id: z.string(),
    event_type: z.string(),
    created_at: Timestamp,
    headers: z
      .record(z.string(), z.string())
      .describe("a webhook delivery's headers, signed now with the session's secret: forward them as they are"),
    body: z.string().describe('the envelope, exactly the signed bytes'),
  })
  .meta({ id: 'WebhookListenEvent' });

const Params = z.object({ session_id: z.string().min(1).max(100) });

const open: Route = (api, services) =>
  api.post(
    '/webhook-listen-sessions',
    {
      config: { idempotent: true },
      schema: {
        summary: `Open a forwarding session for \`listen\`: your events while you poll it, signed with its own secret (shown once); no endpoint needed, at most ${MAX_LISTEN_SESSIONS} at once`,
        tags,
        body: z
          .object({ events: Events.default(['*']) })
          .strict()
          .default({ events: ['*'] }),
        response: { 201: ListenSession, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { session, secret, leaseUntil } = await openListenSession(
        services.commands,
        supplierOf(req).supplierId,
        req.body.events,
        callerOf(req),
        operationIdOf(req),
      );
      return reply.code(201).send({
        id: session.id,
        events: session.events,
        secret,
        lease_until: leaseUntil.toISOString(),
        created_at: session.openedAt,
      });
    },
  );

const poll: Route = (api, services) =>
  api.post(
    '/webhook-listen-sessions/:session_id/poll',
    {
      // a poll is a read of what waits; its acknowledgements only drop what was read before
      config: { limitClass: 'reads' },
      schema: {
        summary: `Acknowledge what the last poll handed over, renew the lease, and take the events waiting (up to ${POLL_BATCH}, oldest first; with none, waits up to wait_seconds for one)`,
        tags,
        params: Params,
        body: z
          .object({
            ack: z.array(z.string().min(1).max(100)).max(POLL_BATCH).default([]),
            wait_seconds: z.number().int().min(0).max(MAX_WAIT_S).default(0),
          })
          .strict()
          .default({ ack: [], wait_seconds: 0 }),
        response: {
          200: z.object({ data: z.array(ForwardedEvent), lease_until: Timestamp }),
          ...problems(404, 409),
        },
      },
    },
    async (req) => {
      const { events, leaseUntil } = await pollListenSession(
        services.commands,
        supplierOf(req).supplierId,
        req.params.session_id,
        {
          ack: req.body.ack,
          waitMs: req.body.wait_seconds * 1000,
          // the instance stopping, or the caller gone: answer what there is now
          stopping: () => services.isStopping() || req.raw.socket.destroyed,
          caller: callerOf(req),
        },
      );
      return { data: events, lease_until: leaseUntil.toISOString() };
    },
  );

const close: Route = (api, services) =>
  api.delete(
    '/webhook-listen-sessions/:session_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'End a forwarding session: nothing more is copied to it, and what waits is dropped',
        tags,
        params: Params,
        response: { 204: z.null(), ...problems(404) },
      },
    },
    async (req, reply) => {
      await loadListenSession(services.commands, supplierOf(req).supplierId, req.params.session_id);
      await endListenSession(services.commands, req.params.session_id, 'closed', callerOf(req));
      return reply.code(204).send(null);
    },
  );

export const registerWebhookListenRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [open, poll, close]);
