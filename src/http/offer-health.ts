import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ownOffer } from '../commands/offers.js';
import { forecastHealth, healthRules } from '../domain/health-forecast.js';
import { Timestamp } from '../resources/values.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import type { Services } from './services.js';
import { supplierOf } from './supplier.js';

const Count = z.number().int().nullable();

export const HealthForecast = z
  .object({
    score: z.number().int(),
    routing_eligible: z.boolean(),
    cooldown_until: Timestamp.nullable(),
    rules: z
      .object({
        start: z.number().int(),
        routing_minimum: z.number().int(),
        cooldown_at_or_below: z.number().int(),
        cooldown_minutes: z.number().int(),
        deactivation_after_cooldown_hours: z.number().int(),
        score_after_cooldown: z.number().int(),
        score_after_reactivation: z.number().int(),
        points: z.record(z.string(), z.number().int()).describe('health points per signal'),
        cooldown_at_once_for: z.array(z.string()),
        healthcheck_every_minutes: z.number().int(),
        healthcheck_in_cooldown_every_minutes: z.number().int(),
      })
      .describe('the health table this service applies, with its numbers'),
    next_consequence: z
      .object({
        consequence: z.enum(['leaves_routing', 'cooldown', 'deactivation']),
        failed_calls: Count.describe('more failed reservation or order calls that bring it about'),
        failed_healthchecks: Count.describe('more failed scheduled healthchecks that bring it about'),
        minutes: Count.describe('for deactivation: minutes of continued unavailability'),
        message: z.string(),
      })
      .nullable()
      .describe('null when no failure can count against the offer (uploaded keys, not active)'),
    recovery: z
      .object({ at: Timestamp.nullable(), message: z.string() })
      .nullable()
      .describe('when it is routable again if nothing fails; null when nothing is to recover'),
    one_step_away: z.boolean().describe('one more failure brings the next consequence'),
  })
  .meta({ id: 'HealthForecast' });

const health: Route = (api, services) =>
  api.get(
    '/offers/:offer_id/health',
    {
      schema: {
        summary: "Your offer's health: the rules with their numbers, and what the next failures would do",
        description:
          "The current score; the health table's rules; how many more failed calls or healthchecks (or minutes of unavailability in a cooldown) before the next consequence; and when it recovers if nothing fails. Worked out from the same table the service applies. Errors: 404 not_found (also another supplier's offer).",
        tags: ['offers'],
        params: z.object({ offer_id: z.string().min(1).max(100) }),
        response: { 200: HealthForecast, ...problems(404) },
      },
    },
    async (req) => {
      const offer = await ownOffer(services.commands, supplierOf(req).supplierId, req.params.offer_id);
      const f = forecastHealth(offer, services.clock.now());
      return {
        score: f.score,
        routing_eligible: f.routingEligible,
        cooldown_until: f.cooldownUntil,
        rules: healthRules(),
        next_consequence: f.next && {
          consequence: f.next.consequence,
          failed_calls: f.next.failedCalls,
          failed_healthchecks: f.next.failedHealthchecks,
          minutes: f.next.minutes,
          message: f.next.message,
        },
        recovery: f.recovery,
        one_step_away: f.oneStepAway,
      };
    },
  );

export const registerOfferHealthRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [health]);
