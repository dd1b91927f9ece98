import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { feeSchedule } from '../domain/fees.js';
import { commissionFor, eur } from '../domain/money.js';
import { checkRule, ruleDecision } from '../domain/pricing-rule.js';
import { lowestRoutable, simulateRank } from '../domain/routing.js';
import { PricingRuleBody, toRule } from './pricing-rule-schema.js';
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

const RULE_OUTCOMES = ['beats_lowest', 'held_by_floor', 'held_by_ceiling', 'alone_keeps', 'alone_ceiling'] as const;

const RulePreview = z
  .object({
    price: Money.describe('the price the rule would set now'),
    from_price: Money.describe('the price it starts from (the request’s `price`)'),
    changes: z.boolean().describe('whether the rule would change the price now'),
    outcome: z
      .enum(RULE_OUTCOMES)
      .describe(
        'why: beats_lowest (the lowest competing price less the margin), held_by_floor, held_by_ceiling, alone_keeps (no competitor: the price stays), alone_ceiling (no competitor: the ceiling, as when_alone asks)',
      ),
  })
  .describe('present when the request gave a pricing_rule');

const Simulation = z.object({
  gross: Money,
  commission: Money,
  net: Money,
  would_be_selected: z.boolean(),
  rank: z.number().int().describe('1 = routed first'),
  lowest_competing_price: Money.nullable(),
  pricing_rule: RulePreview.optional(),
});

const SimulateBody = z
  .object({
    product_id: z.string().min(1).max(100),
    price: MoneyInput,
    pricing_rule: PricingRuleBody.optional(),
  })
  .strict();

/** A price's earnings and rank; with a rule, the rule's price now from `price`, and why. */
const simulate = async (services: Services, supplierId: string, body: z.infer<typeof SimulateBody>) => {
  const { product_id, price, pricing_rule } = body;
  const rule = pricing_rule && toRule(pricing_rule);
  if (rule) checkRule(rule, 'pricing_rule.');
  if (!(await productExists(services.db, product_id)))
    throw new HttpProblem('not_found', `product ${product_id} not found`);
  const active = (await routableOffers(services.db, [product_id])).get(product_id) ?? [];
  const others = active.filter((o) => o.supplierId !== supplierId);
  // the caller's own offer counts whatever its status (a draft or inactive one too)
  const own = await ownOfferOn(services.db, product_id, supplierId);
  const now = services.clock.now();
  // the rule sees the competitors the repricer sees: the other suppliers' routable offers
  const decision = rule && ruleDecision(rule, lowestRoutable(others, now), price.amount);
  const at = decision?.price ?? price.amount;
  const sim = simulateRank([...others, ...(own ? [routableOf(snapshotOfRow(own))] : [])], supplierId, at, now);
  const commission = commissionFor(at);
  return {
    gross: eur(at),
    commission: eur(commission),
    net: eur(at - commission),
    would_be_selected: sim.wouldBeSelected,
    rank: sim.rank,
    lowest_competing_price: sim.lowestCompetingPrice === null ? null : eur(sim.lowestCompetingPrice),
    ...(decision && {
      pricing_rule: {
        price: eur(decision.price),
        from_price: eur(price.amount),
        changes: decision.price !== price.amount,
        outcome: decision.outcome,
      },
    }),
  };
};

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
          "gross, commission and net per the fee schedule; rank (1 = routed first) and would_be_selected by the routing rule against the other suppliers' eligible offers, the caller's own offer taking the simulated price (an inactive one at health 70). With `pricing_rule` (the body of PUT /offers/{offer_id}/pricing-rule), a rule's preview before it is saved: `price` is where the rule starts from (the offer's price now), `pricing_rule` in the answer says what the rule would set now and why, and every other figure is at that price. Nothing is saved. Errors: 404 not_found (product); 422 validation_failed (a rule's floor above its ceiling too).",
        tags: ['fees'],
        body: SimulateBody,
        response: { 200: Simulation, ...problems(404) },
      },
    },
    async (req) => simulate(services, supplierOf(req).supplierId, req.body),
  );
};
