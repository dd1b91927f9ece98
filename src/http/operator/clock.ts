import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '../schemas.js';
import { type Services } from '../services.js';

/** Moves the service's clock forward and runs what fell due; only with SVC_TEST_CLOCK=1. */
export const registerOperatorClockRoutes = (app: FastifyInstance, services: Services) => {
  const { advanceClock } = services;
  if (!advanceClock) return; // the route does not exist: 404 like any unknown path
  app.withTypeProvider<ZodTypeProvider>().post(
    '/clock/advance',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Advance the test clock and run due timers (SVC_TEST_CLOCK=1 only)',
        tags: ['operator'],
        body: z
          .object({
            seconds: z
              .number()
              .int()
              .min(1)
              .max(400 * 24 * 3600),
          })
          .strict(),
        response: { 200: z.object({ now: z.string() }), ...problems() },
      },
    },
    async (req) => ({ now: (await advanceClock(req.body.seconds)).toISOString() }),
  );
};
