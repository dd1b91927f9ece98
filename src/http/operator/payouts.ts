import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { movePayout, type PayoutTransition } from '../../commands/payouts.js';
import { PayoutWithEntries } from '../../resources/payout-resource.js';
import { recordedPayout } from '../recorded-payout.js';
import { problems } from '../schemas.js';
import { callerOf } from '../supplier.js';
import { type Services } from '../services.js';

const tags = ['operator'];
const Params = z.object({ payout_id: z.string().min(1).max(200) });
const OperatorPayout = PayoutWithEntries.extend({ supplier_id: z.string() }).meta({ id: 'OperatorPayout' });

/**
 * The payment rail's side of a payout, as staff (or the rail's integration) report it:
 * pending -> in_transit -> paid, or failed (from pending or in_transit) / cancelled (from
 * pending) giving the amount back to available. Repeating the same move is harmless.
 */
const MOVES: { path: string; to: PayoutTransition; summary: string }[] = [
  { path: 'in_transit', to: 'in_transit', summary: 'The payout left for the bank (pending -> in_transit)' },
  { path: 'paid', to: 'paid', summary: 'The bank confirmed the payout (in_transit -> paid; payout.paid)' },
  { path: 'failed', to: 'failed', summary: 'The payout failed: its amount returns to available (payout.failed)' },
  { path: 'cancel', to: 'cancelled', summary: 'Cancel a pending payout: its amount returns to available' },
];

export const registerOperatorPayoutRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const move of MOVES)
    api.post(
      `/payouts/:payout_id/${move.path}`,
      {
        config: { idempotent: true },
        schema: {
          summary: move.summary,
          tags,
          params: Params,
          ...(move.to === 'failed' && {
            body: z
              .object({
                failure_code: z
                  .string()
                  .trim()
                  .regex(/^[a-z0-9_]{1,64}$/)
                  .optional()
                  .describe('e.g. account_closed, invalid_account_number'),
              })
              .strict()
              .nullish()
              .describe('optional: a call without a body fails with could_not_process'),
          }),
          response: { 200: OperatorPayout, ...problems(404, 409) },
        },
      },
      async (req) => {
        const body = (req.body ?? {}) as { failure_code?: string };
        await movePayout(services.commands, req.params.payout_id, move.to, body.failure_code ?? null, callerOf(req));
        const { supplierId, ...payout } = await recordedPayout(services.db, req.params.payout_id);
        return { ...payout, supplier_id: supplierId };
      },
    );
};
