import type { Decider } from './decider.js';
import { DomainError, invalidInput } from './errors.js';

/**
 * A supplier's automatic pricing for one offer: beat the lowest competing price by an
 * amount or a percentage, never below `floor` nor above `ceiling`, at most
 * `maxChangesPerHour` changes. The rule lives in its own stream (`pricing-rule-<offer_id>`);
 * the price changes it causes are the offer's `OfferPriceChanged` events.
 */

export type BeatBy = { kind: 'amount'; amount: number } | { kind: 'percent'; bps: number };

export interface PricingRule {
  beatBy: BeatBy;
  floor: number;
  ceiling: number;
  maxChangesPerHour: number;
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
      if (rule.floor > rule.ceiling)
        throw invalidInput(
          [{ input: 'floor', message: 'must not be above ceiling' }],
          'floor must not be above ceiling',
        );
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

/**
 * The price the rule asks for. Beating is strict (an amount of at least 1, a percentage
 * rounded down), so rules against each other only ever move down until a floor holds them:
 * that is why two or more rules settle instead of chasing each other. Without a competitor
 * the ceiling is the price.
 */
export const targetPrice = (rule: PricingRule, lowestCompeting: number | null): number => {
  if (lowestCompeting === null) return rule.ceiling;
  const beaten =
    rule.beatBy.kind === 'amount'
      ? lowestCompeting - rule.beatBy.amount
      : Math.floor((lowestCompeting * (10_000 - rule.beatBy.bps)) / 10_000);
  return Math.min(rule.ceiling, Math.max(rule.floor, beaten));
};
