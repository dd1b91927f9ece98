import { DomainError } from '../domain/errors.js';
import { offerDecider, PRICING_RULE_REASON, repricesInLastHour } from '../domain/offer.js';
import {
  type PricingRule,
  pricingRuleDecider,
  type PricingRuleState,
  targetPrice,
  type PricingRuleCommand,
  type PricingRuleEvent,
} from '../domain/pricing-rule.js';
import { rankOffers } from '../domain/routing.js';
import { routableOffers } from '../resources/market.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { load } from './handle.js';
import { loadOffer } from './offers.js';
import { offerStream, pricingRuleStream } from './streams.js';

const HOUR_MS = 3600_000;

export const setPricingRule = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  rule: PricingRule,
  caller: Caller,
) => {
  await loadOffer(deps, supplierId, offerId);
  const result = await execute(
    deps,
    pricingRuleStream(offerId),
    pricingRuleDecider,
    (now) => ({ type: 'SetPricingRule' as const, data: { offerId, supplierId, rule, now } }),
    caller,
  );
  return result.state;
};

export const removePricingRule = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  caller: Caller,
  /** Run again after its answer was lost: a rule gone already is this run's removal. */
  resumed = false,
) => {
  await loadOffer(deps, supplierId, offerId);
  if (resumed && !(await load(deps.store, pricingRuleStream(offerId), pricingRuleDecider, deps.states)).state.rule)
    return;
  await execute(
    deps,
    pricingRuleStream(offerId),
    pricingRuleDecider,
    (now) => ({ type: 'RemovePricingRule' as const, data: { offerId, supplierId, now } }),
    caller,
  );
};

/** The rule, and how many of the hour's changes it used; 404 when the offer has none. */
export const readPricingRule = async (deps: CommandDeps, supplierId: string, offerId: string) => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  const { state } = await load(deps.store, pricingRuleStream(offerId), pricingRuleDecider, deps.states);
  // a rule is set with its time; a deleted one leaves the time and no rule
  if (!state.rule || state.updatedAt === null)
    throw new DomainError('not_found', `offer ${offerId} has no pricing rule`);
  const recent = repricesInLastHour(offer, deps.clock.now().toISOString());
  return {
    rule: state.rule,
    updatedAt: state.updatedAt,
    changesInLastHour: recent.length,
    lastRepricedAt: offer.repricedAt?.at(-1) ?? null,
  };
};

export interface RepriceOutcome {
  /** Offers whose change limit held them back, and when their next change may happen. */
  deferred: { offerId: string; at: Date }[];
}

/**
 * Applies every pricing rule on the product's active offers, one offer after another, each
 * against the market as the previous change left it. Competitors are the other suppliers'
 * offers that routing would consider (eligible), as the buyer's price comes from those.
 */
export const repriceProduct = async (deps: CommandDeps, productId: string, caller: Caller): Promise<RepriceOutcome> => {
  const deferred: RepriceOutcome['deferred'] = [];
  const active = (await routableOffers(deps.db, [productId])).get(productId) ?? [];
  for (const candidate of active) {
    const { state: ruleState } = await load<PricingRuleState, PricingRuleCommand, PricingRuleEvent>(
      deps.store,
      pricingRuleStream(candidate.offerId),
      pricingRuleDecider,
      deps.states,
    );
    const rule = ruleState.rule;
    if (!rule) continue;
    const now = deps.clock.now();
    const market = (await routableOffers(deps.db, [productId])).get(productId) ?? [];
    const competitors = rankOffers(
      market.filter((o) => o.supplierId !== candidate.supplierId),
      now,
    );
    const lowest = competitors.length === 0 ? null : Math.min(...competitors.map((c) => c.price));
    const price = targetPrice(rule, lowest);
    const { state: offer } = await load(deps.store, offerStream(candidate.offerId), offerDecider, deps.states);
    if (!offer || offer.status !== 'active' || offer.terms.price === price) continue;
    const recent = repricesInLastHour(offer, now.toISOString());
    const [oldest] = recent;
    // at least one change a hour is allowed (the rule's schema), so a full hour has an oldest
    if (oldest !== undefined && recent.length >= rule.maxChangesPerHour) {
      // the oldest change of the hour leaves the window then; the market is looked at again
      deferred.push({ offerId: candidate.offerId, at: new Date(new Date(oldest).getTime() + HOUR_MS) });
      continue;
    }
    await execute(
      deps,
      offerStream(candidate.offerId),
      offerDecider,
      (at) => ({
        type: 'RepriceOffer' as const,
        data: { price, reason: PRICING_RULE_REASON, maxChangesPerHour: rule.maxChangesPerHour, now: at },
      }),
      caller,
    );
  }
  return { deferred };
};
