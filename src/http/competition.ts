import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readPricingRule, removePricingRule, setPricingRule } from '../commands/pricing.js';
import { BeatBy, PricingRuleBody, toRule, WHEN_ALONE } from './pricing-rule-schema.js';
import {
  compareForRouting,
  isEligible,
  marketFor,
  MIN_ROUTING_HEALTH,
  type RoutableOffer,
  simulateRank,
} from '../domain/routing.js';
import { HEALTH } from '../domain/offer-health.js';
import { ownOfferOn } from '../projections/offer-reads.js';
import { productExists } from '../projections/product-reads.js';
import { routableOffers } from '../resources/market.js';
import { routableOf, snapshotOfRow } from '../resources/offer-resource.js';
import { HttpProblem } from './problem.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { Money, Timestamp } from '../resources/values.js';
import { eur, MAX_AMOUNT } from '../domain/money.js';
import { type Services } from './services.js';
import { operationOf } from './idempotency.js';
import { registerRoutes, type Route } from './routes.js';

/**
 * Health as a band, never the score: enough to see why a cheaper offer is not winning,
 * not a fingerprint of one supplier. `excellent` 90 and above, `good` 70 to 89 (routable),
 * `poor` below 70 (not routed).
 */
export const healthBand = (health: number): 'excellent' | 'good' | 'poor' =>
  health >= HEALTH.excellentBand ? 'excellent' : health >= MIN_ROUTING_HEALTH ? 'good' : 'poor';

const CompetingOffer = z.object({
  price: Money,
  health_band: z.enum(['excellent', 'good', 'poor']),
  routing_eligible: z.boolean().describe('health, cooldown and stock allow routing now'),
  yours: z.boolean().describe('the caller’s own offer'),
  rank: z.number().int().nullable().describe('place in the routing order (1 = routed first); null when not eligible'),
});

const Competition = z
  .object({
    product_id: z.string(),
    buyer_price: Money.nullable().describe('the price the buyer pays now: the first offer in routing order'),
    active_offers: z.number().int().describe('active offers that routing may choose now'),
    offers: z
      .array(CompetingOffer)
      .describe('every active offer, eligible ones in routing order first; no supplier or offer identity'),
    position: z
      .object({
        price: Money,
        rank: z.number().int(),
        would_be_selected: z.boolean(),
        lowest_competing_price: Money.nullable(),
      })
      .nullable()
      .describe('where your offer would stand at `price` (or at its current price); null without either'),
  })
  .meta({ id: 'Competition' });

const PricingRuleResource = z
  .object({
    offer_id: z.string(),
    beat_by: BeatBy,
    floor: Money,
    ceiling: Money,
    max_changes_per_hour: z.number().int(),
    when_alone: z.enum(WHEN_ALONE),
    changes_in_last_hour: z.number().int(),
    last_repriced_at: Timestamp.nullable(),
    updated_at: Timestamp,
  })
  .meta({ id: 'PricingRule' });

const OfferParams = z.object({ offer_id: z.string().min(1).max(100) });

/** The product's competing offers as one supplier sees them, and where its offer would stand at `price`. */
const competitionOf = async (services: Services, productId: string, supplierId: string, price?: number) => {
  if (!(await productExists(services.db, productId)))
    throw new HttpProblem('not_found', `product ${productId} not found`);
  const now = services.clock.now();
  const active = (await routableOffers(services.db, [productId])).get(productId) ?? [];
  const ranked = active.filter((o) => isEligible(o, now)).sort(compareForRouting);
  const rest = active.filter((o) => !isEligible(o, now)).sort((a, b) => a.price - b.price || b.health - a.health);
  const entry = (o: RoutableOffer, rank: number | null) => ({
    price: eur(o.price),
    health_band: healthBand(o.health),
    routing_eligible: rank !== null,
    yours: o.supplierId === supplierId,
    rank,
  });
  const market = marketFor(active, supplierId, now);
  const own = await ownOfferOn(services.db, productId, supplierId);
  const at = price ?? own?.price_amount;
  let position = null;
  if (at !== undefined) {
    const sim = simulateRank(
      [...active.filter((o) => o.supplierId !== supplierId), ...(own ? [routableOf(snapshotOfRow(own))] : [])],
      supplierId,
      at,
      now,
    );
    position = {
      price: eur(at),
      rank: sim.rank,
      would_be_selected: sim.wouldBeSelected,
      lowest_competing_price: sim.lowestCompetingPrice === null ? null : eur(sim.lowestCompetingPrice),
    };
  }
  return {
    product_id: productId,
    buyer_price: market.buyer_price,
    active_offers: market.active_offers,
    offers: [...ranked.map((o, i) => entry(o, i + 1)), ...rest.map((o) => entry(o, null))],
    position,
  };
};

const competition: Route = (api, services) =>
  api.get(
    '/products/:product_id/competition',
    {
      schema: {
        summary:
          "The product's competing offers: prices and health bands, the buyer price, and where your offer would stand",
        description:
          "Other suppliers appear only as a price, a health band and routing eligibility: no supplier id, name or offer id. `price` (minor units) asks where your offer would rank at that price; without it, your offer's current price is used. Errors: 404 not_found (product); 422 validation_failed.",
        tags: ['products'],
        params: z.object({ product_id: z.string().min(1).max(100) }),
        querystring: z
          .object({
            price: z.coerce
              .number()
              .int()
              .min(1)
              .max(MAX_AMOUNT)
              .optional()
              .describe(`minor units: 1 to ${MAX_AMOUNT} (1,000,000.00 EUR)`),
          })
          .strict(),
        response: { 200: Competition, ...problems(404) },
      },
    },
    async (req) => competitionOf(services, req.params.product_id, supplierOf(req).supplierId, req.query.price),
  );

const pricingRuleResource = async (services: Services, supplierId: string, offerId: string) => {
  const r = await readPricingRule(services.commands, supplierId, offerId);
  return {
    offer_id: offerId,
    beat_by: r.rule.beatBy.kind === 'amount' ? { amount: r.rule.beatBy.amount } : { percent: r.rule.beatBy.bps / 100 },
    floor: eur(r.rule.floor),
    ceiling: eur(r.rule.ceiling),
    max_changes_per_hour: r.rule.maxChangesPerHour,
    when_alone: r.rule.whenAlone,
    changes_in_last_hour: r.changesInLastHour,
    last_repriced_at: r.lastRepricedAt,
    updated_at: r.updatedAt,
  };
};

const setRule: Route = (api, services) =>
  api.put(
    '/offers/:offer_id/pricing-rule',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Set the offer’s automatic pricing: beat the lowest competing price, within a floor and a ceiling',
        description:
          "The rule applies at once (the answer's offer price is the rule's), then whenever the product's market changes (offers activated, deactivated, repriced), at most max_changes_per_hour times in any hour; each change is an offer.repriced webhook event. Competitors are the other suppliers' routable offers; with none, `when_alone` says what happens: `keep` (the default) leaves the price where it is (moved into floor and ceiling if outside them), `ceiling` sets the ceiling. While a rule is on, a price set by hand is refused (409 pricing_rule_active). Preview a rule before saving it with POST /pricing/simulate. Errors: 404 not_found; 422 validation_failed (floor above ceiling, both or neither of beat_by.amount and beat_by.percent).",
        tags: ['offers'],
        params: OfferParams,
        body: PricingRuleBody,
        response: { 200: PricingRuleResource, ...problems(404) },
      },
    },
    async (req) => {
      const supplierId = supplierOf(req).supplierId;
      await setPricingRule(services.commands, supplierId, req.params.offer_id, toRule(req.body), callerOf(req));
      return pricingRuleResource(services, supplierId, req.params.offer_id);
    },
  );

const readRule: Route = (api, services) =>
  api.get(
    '/offers/:offer_id/pricing-rule',
    {
      schema: {
        summary: 'The offer’s pricing rule and how many changes it made in the last hour',
        description: 'Errors: 404 not_found (no such offer of yours, or no rule).',
        tags: ['offers'],
        params: OfferParams,
        response: { 200: PricingRuleResource, ...problems(404) },
      },
    },
    async (req) => pricingRuleResource(services, supplierOf(req).supplierId, req.params.offer_id),
  );

const removeRule: Route = (api, services) =>
  api.delete(
    '/offers/:offer_id/pricing-rule',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Stop automatic pricing; the price stays where it is',
        description: 'Errors: 404 not_found (no such offer of yours, or no rule).',
        tags: ['offers'],
        params: OfferParams,
        response: { 204: z.null(), ...problems(404) },
      },
    },
    async (req, reply) => {
      await removePricingRule(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        callerOf(req),
        operationOf(req).resumed,
      );
      return reply.code(204).send(null);
    },
  );

export const registerCompetitionRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [competition, setRule, readRule, removeRule]);
