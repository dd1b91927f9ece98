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
import { lowestRoutable } from '../domain/routing.js';
import { routableOffers } from '../resources/market.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
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
  const { offer } = await loadOffer(deps, supplierId, offerId);
  const result = await execute(
    deps,
    pricingRuleStream(offerId),
    pricingRuleDecider,
    (now) => ({ type: 'SetPricingRule' as const, data: { offerId, supplierId, rule, now } }),
    caller,
  );
  // the rule's first price is set now, not a moment after the answer: the supplier's next
  // read shows the price the rule chose (the repricer finds nothing left to do); a change
  // the hourly limit holds back waits for the repricer's timer
  await repriceOffer(deps, offer.productId, { offerId, supplierId }, caller);
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
  if (resumed && !(await stateOf(deps, pricingRuleStream(offerId), pricingRuleDecider)).rule) return;
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
  const state = await stateOf(deps, pricingRuleStream(offerId), pricingRuleDecider);
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
 * Applies one offer's rule against the market as it stands now (the other suppliers' offers
 * that routing would consider, as the buyer's price comes from those); when the hour's
 * change limit holds it back, says when it may change next.
 */
const repriceOffer = async (
  deps: CommandDeps,
  productId: string,
  candidate: { offerId: string; supplierId: string },
  caller: Caller,
): Promise<Date | undefined> => {
  const { rule } = await stateOf<PricingRuleState, PricingRuleCommand, PricingRuleEvent>(
    deps,
    pricingRuleStream(candidate.offerId),
    pricingRuleDecider,
  );
  if (!rule) return undefined;
  const now = deps.clock.now();
  const market = (await routableOffers(deps.db, [productId])).get(productId) ?? [];
  const lowest = lowestRoutable(
    market.filter((o) => o.supplierId !== candidate.supplierId),
    now,
  );
  const offer = await stateOf(deps, offerStream(candidate.offerId), offerDecider);
  if (!offer || offer.status !== 'active') return undefined;
  const price = targetPrice(rule, lowest, offer.terms.price);
  if (offer.terms.price === price) return undefined;
  const recent = repricesInLastHour(offer, now.toISOString());
  const [oldest] = recent;
  // at least one change a hour is allowed (the rule's schema), so a full hour has an oldest
  if (oldest !== undefined && recent.length >= rule.maxChangesPerHour)
    // the oldest change of the hour leaves the window then; the market is looked at again
    return new Date(new Date(oldest).getTime() + HOUR_MS);
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
  return undefined;
};

/**
 * Applies every pricing rule on the product's active offers, one offer after another, each
 * against the market as the previous change left it.
 */
export const repriceProduct = async (deps: CommandDeps, productId: string, caller: Caller): Promise<RepriceOutcome> => {
  const deferred: RepriceOutcome['deferred'] = [];
  const active = (await routableOffers(deps.db, [productId])).get(productId) ?? [];
  for (const candidate of active) {
    const at = await repriceOffer(deps, productId, candidate, caller);
    if (at) deferred.push({ offerId: candidate.offerId, at });
  }
  return { deferred };
};
