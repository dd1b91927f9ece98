import type { Decider } from './decider.js';
import { DomainError, invalidInput } from './errors.js';

/**
 * A supplier's automatic pricing for one offer: beat the lowest competing price by an
 * amount or a percentage, never below `floor` nor above `ceiling`, at most
 * `maxChangesPerHour` changes. The rule lives in its own stream (`pricing-rule-<offer_id>`);
 * the price changes it causes are the offer's `OfferPriceChanged` events.
 */

export type BeatBy = { kind: 'amount'; amount: number } | { kind: 'percent'; bps: number };

/**
 * What the rule does with no routable competitor: `keep` the price (within floor and
 * ceiling), or go up to the `ceiling`. Keeping is the default: a rule saved on an empty
 * market must not move a price the supplier chose.
 */
export type WhenAlone = 'keep' | 'ceiling';

export interface PricingRule {
  beatBy: BeatBy;
  floor: number;
  ceiling: number;
  maxChangesPerHour: number;
  whenAlone: WhenAlone;
}

export type PricingRuleEvent =
  | { type: 'PricingRuleSet'; data: { offerId: string; supplierId: string; rule: PricingRule; at: string } }
  | { type: 'PricingRuleRemoved'; data: { offerId: string; supplierId: string; at: string } };

export type PricingRuleCommand =
  | { type: 'SetPricingRule'; data: { offerId: string; supplierId: string; rule: PricingRule; now: string } }
  | { type: 'RemovePricingRule'; data: { offerId: string; supplierId: string; now: string } };

export interface PricingRuleState {
  rule: PricingRule | null;
  updatedAt: string | null;
}

/**
 * The rule's own consistency, checked where it is set and where it is previewed; `at` is
 * where the rule sits among the command's inputs (`pricing_rule.` in a preview).
 */
export const checkRule = (rule: PricingRule, at = ''): void => {
  if (rule.floor > rule.ceiling)
    throw invalidInput(
      [{ input: `${at}floor`, message: 'must not be above ceiling' }],
      'floor must not be above ceiling',
    );
};

const sameRule = (a: PricingRule, b: PricingRule) => JSON.stringify(a) === JSON.stringify(b);

export const pricingRuleDecider: Decider<PricingRuleState, PricingRuleCommand, PricingRuleEvent> = {
  initialState: { rule: null, updatedAt: null },

  evolve(_state, event) {
    return event.type === 'PricingRuleSet'
      ? { rule: event.data.rule, updatedAt: event.data.at }
      : { rule: null, updatedAt: event.data.at };
  },

  decide(command, state) {
    if (command.type === 'SetPricingRule') {
      const { offerId, supplierId, rule, now } = command.data;
      checkRule(rule);
      if (state.rule && sameRule(state.rule, rule)) return [];
      return [{ type: 'PricingRuleSet', data: { offerId, supplierId, rule, at: now } }];
    }
    if (!state.rule) throw new DomainError('not_found', `offer ${command.data.offerId} has no pricing rule`);
    return [
      {
        type: 'PricingRuleRemoved',
        data: { offerId: command.data.offerId, supplierId: command.data.supplierId, at: command.data.now },
      },
    ];
  },
};

/** Why the rule asks for its price: what a preview tells the supplier before it is saved. */
export type RuleOutcome =
  | 'beats_lowest' // the lowest competing price less the rule's margin
  | 'held_by_floor' // beating would go below the floor
  | 'held_by_ceiling' // the competition is above the ceiling
  | 'alone_keeps' // no competitor: the current price stays (moved into the bounds if outside)
  | 'alone_ceiling'; // no competitor: the ceiling, as the supplier asked

const within = (rule: PricingRule, price: number) => Math.min(rule.ceiling, Math.max(rule.floor, price));

/**
 * The price the rule asks for now, and why. Beating is strict (an amount of at least 1, a
 * percentage rounded down), so rules against each other only ever move down until a floor
 * holds them: that is why two or more rules settle instead of chasing each other. Without a
 * competitor the rule keeps `current` unless it was told to go to the ceiling.
 */
export const ruleDecision = (
  rule: PricingRule,
  lowestCompeting: number | null,
  current: number,
): { price: number; outcome: RuleOutcome } => {
  if (lowestCompeting === null)
    return rule.whenAlone === 'ceiling'
      ? { price: rule.ceiling, outcome: 'alone_ceiling' }
      : { price: within(rule, current), outcome: 'alone_keeps' };
  const beaten =
    rule.beatBy.kind === 'amount'
      ? lowestCompeting - rule.beatBy.amount
      : Math.floor((lowestCompeting * (10_000 - rule.beatBy.bps)) / 10_000);
  if (beaten < rule.floor) return { price: rule.floor, outcome: 'held_by_floor' };
  if (beaten > rule.ceiling) return { price: rule.ceiling, outcome: 'held_by_ceiling' };
  return { price: beaten, outcome: 'beats_lowest' };
};

export const targetPrice = (rule: PricingRule, lowestCompeting: number | null, current: number): number =>
  ruleDecision(rule, lowestCompeting, current).price;

/**
 * PricingRuleSet version 1 to 2: a rule set before `whenAlone` existed went to the ceiling
 * with no competitor, as the API then said; it keeps doing what its supplier was told.
 */
export const pricingRuleSetV2 = (data: unknown): unknown => {
  const d = data as { rule: Omit<PricingRule, 'whenAlone'> };
  return { ...d, rule: { ...d.rule, whenAlone: 'ceiling' } };
};
