import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { feeSchedule } from '../domain/fees.js';
import { commissionFor, eur } from '../domain/money.js';
import { simulateRank } from '../domain/routing.js';
import { ownOfferOn } from '../projections/offer-reads.js';
import { productExists } from '../projections/product-reads.js';
import { routableOffers } from '../resources/market.js';
import { routableOf, snapshotOfRow } from '../resources/offer-resource.js';
import { HttpProblem } from './problem.js';
import { MoneyInput, problems } from './schemas.js';
import { supplierOf } from './supplier.js';
import { Money } from '../resources/values.js';
import { type Services } from './services.js';

const FeeSchedule = z
  .object({
    version: z.string(),
    effective_from: z.string(),
    currency: z.literal('EUR'),
    commission: z.object({ rate_bps: z.number().int(), min_fee: Money, applies: z.string() }),
    listing_fee: z.null(),
    price_change_fee: z.null(),
    payment_fees_charged_to_supplier: z.boolean(),
    payment_fees_charged_to_buyer: z.boolean(),
    settlement: z.object({ holding_period_days: z.number().int(), trigger: z.string() }),
    payout: z.object({ methods: z.array(z.string()), minimum: Money, fee: z.null() }),
    unfulfilled_sale_fee: z.null(),
    docs_url: z.string(),
  })
  .meta({ id: 'FeeSchedule' });

const Simulation = z.object({
  gross: Money,
  commission: Money,
  net: Money,
  would_be_selected: z.boolean(),
  rank: z.number().int().describe('1 = routed first'),
  lowest_competing_price: Money.nullable(),
});

export const registerFeeRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/fees',
    { schema: { summary: 'The fee schedule', tags: ['fees'], response: { 200: FeeSchedule, ...problems() } } },
    async (req) => feeSchedule(`${req.protocol}://${req.host}/api/v1/docs`),
  );

  api.post(
    '/pricing/simulate',
    {
      config: { limitClass: 'simulate' },
      schema: {
        summary: 'What a unit sold at this price earns, and where it would rank',
        description:
          "gross, commission and net per the fee schedule; rank (1 = routed first) and would_be_selected by the routing rule against the other suppliers' eligible offers, the caller's own offer taking the simulated price (an inactive one at health 70). Errors: 404 not_found (product); 422 validation_failed.",
        tags: ['fees'],
        body: z.object({ product_id: z.string().min(1).max(100), price: MoneyInput }).strict(),
        response: { 200: Simulation, ...problems(404) },
      },
    },
    async (req) => {
      const { product_id, price } = req.body;
      if (!(await productExists(services.db, product_id)))
        throw new HttpProblem('not_found', `product ${product_id} not found`);
      const supplierId = supplierOf(req).supplierId;
      const active = (await routableOffers(services.db, [product_id])).get(product_id) ?? [];
      // the caller's own offer counts whatever its status (a draft or inactive one too)
      const own = await ownOfferOn(services.db, product_id, supplierId);
      const offers = [
        ...active.filter((o) => o.supplierId !== supplierId),
        ...(own ? [routableOf(snapshotOfRow(own))] : []),
      ];
      const sim = simulateRank(offers, supplierId, price.amount, services.clock.now());
      const commission = commissionFor(price.amount);
      return {
        gross: eur(price.amount),
        commission: eur(commission),
        net: eur(price.amount - commission),
        would_be_selected: sim.wouldBeSelected,
        rank: sim.rank,
        lowest_competing_price: sim.lowestCompetingPrice === null ? null : eur(sim.lowestCompetingPrice),
      };
    },
  );
};
