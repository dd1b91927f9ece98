import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadEndpoint } from '../commands/webhooks.js';
import { DomainError } from '../domain/errors.js';
import { RECOVERY_WINDOW_MS } from '../processes/webhook-recovery.js';
import { operationOf } from './idempotency.js';
import { problems } from './schemas.js';
import { supplierOf } from './supplier.js';
import { Timestamp } from '../resources/values.js';
import { type Services } from './services.js';
import { type RecoveryPayload } from '../processes/timer-kinds.js';

const Recovery = z
  .object({
    id: z.string().describe('the recovery; its deliveries carry recovered: true in the delivery log'),
    webhook_id: z.string(),
    since: Timestamp,
    until: Timestamp.describe('the moment of the request: later events were fanned out normally'),
    status: z.literal('scheduled'),
  })
  .meta({ id: 'WebhookRecovery' });

const badSince = (message: string) =>
  new DomainError('validation_failed', `since: ${message}`, { errors: [{ field: 'body.since', message }] });

export const registerWebhookRecoveryRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/webhooks/:webhook_id/recover',
    {
      config: { idempotent: true },
      schema: {
        summary:
          'Re-send every event the endpoint subscribes to since a moment (at most 14 days back), in order, as new deliveries marked recovered',
        description:
          "The deliveries are made in the background, one after another in event order and within the endpoint's rate_limit; each is a new delivery (same envelope id, the dedupe key) with recovered: true in the delivery log, and a failed one takes the retry ladder. Errors: 404 not_found; 409 invalid_state (the endpoint is disabled: re-enable it first); 422 validation_failed (since more than 14 days back or in the future).",
        tags: ['webhooks'],
        params: z.object({ webhook_id: z.string().min(1).max(100) }),
        body: z.object({ since: z.iso.datetime({ offset: true }) }).strict(),
        response: { 202: Recovery, ...problems(404, 409) },
      },
    },
    async (req, reply) => {
      const supplierId = supplierOf(req).supplierId;
      const endpoint = await loadEndpoint(services.commands, supplierId, req.params.webhook_id);
      const now = services.clock.now();
      const since = new Date(req.body.since);
      if (since.getTime() < now.getTime() - RECOVERY_WINDOW_MS) throw badSince('at most 14 days back');
      if (since.getTime() > now.getTime()) throw badSince('must not be in the future');
      if (endpoint.status !== 'active')
        throw new DomainError('invalid_state', 'the endpoint is disabled: re-enable it before recovering');
      // the recovery's id follows from the request's operation: a run again (its answer lost
      // to a crash or a 5xx) schedules the same recovery, which sends no event twice under one id
      const id = operationOf(req).id;
      const payload: RecoveryPayload = {
        recoveryId: id,
        endpointId: endpoint.id,
        supplierId,
        since: since.toISOString(),
        until: now.toISOString(),
        after: null,
        batch: 1,
      };
      await services.timers.schedule('webhook.recover', `${id}:1`, now, payload);
      return reply.code(202).send({
        id,
        webhook_id: endpoint.id,
        since: payload.since,
        until: payload.until,
        status: 'scheduled' as const,
      });
    },
  );
};
