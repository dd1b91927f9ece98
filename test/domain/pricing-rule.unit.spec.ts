import { describe, expect, it } from 'vitest';
import { offerDecider, type OfferEvent } from '../../src/domain/offer.js';
import {
  type PricingRule,
  pricingRuleDecider,
  type PricingRuleEvent,
  ruleDecision,
} from '../../src/domain/pricing-rule.js';
import { eventVersions } from '../../src/domain/upcasters.js';
import { EventVersions } from '../../src/eventstore/upcast.js';
import { givenFor } from '../support/given.js';

const t0 = '2026-01-05T10:00:00.000Z';
const t1 = '2026-01-05T10:01:00.000Z';
const ids = { offerId: 'o1', supplierId: 's1' };
const rule = (over: Partial<PricingRule> = {}): PricingRule => ({
  beatBy: { kind: 'amount', amount: 10 },
  floor: 500,
  ceiling: 2000,
  maxChangesPerHour: 6,
  whenAlone: 'keep',
  ...over,
});

describe('PricingRule', () => {
  const given = givenFor(pricingRuleDecider);
  const set = (r: PricingRule) => ({ type: 'SetPricingRule' as const, data: { ...ids, rule: r, now: t1 } });
  const ruleSet = (r: PricingRule, at = t0): PricingRuleEvent => ({
    type: 'PricingRuleSet',
    data: { ...ids, rule: r, at },
  });

  it('is set with what to do when alone, and the same rule again changes nothing', () => {
    given()
      .when(set(rule()))
      .then([ruleSet(rule(), t1)]);
    given(ruleSet(rule())).when(set(rule())).then([]);
    given(ruleSet(rule()))
      .when(set(rule({ whenAlone: 'ceiling' })))
      .then([ruleSet(rule({ whenAlone: 'ceiling' }), t1)]);
  });

  it('a floor above the ceiling is refused, naming the floor', () => {
    given()
      .when(set(rule({ floor: 2001 })))
      .thenThrows('validation_failed');
    expect(() => pricingRuleDecider.decide(set(rule({ floor: 2001 })), pricingRuleDecider.initialState)).toThrow(
      expect.objectContaining({ inputs: [{ input: 'floor', message: 'must not be above ceiling' }] }),
    );
  });

  it('a rule is removed once; removing none is not found', () => {
    given(ruleSet(rule()))
      .when({ type: 'RemovePricingRule', data: { ...ids, now: t1 } })
      .then([{ type: 'PricingRuleRemoved', data: { ...ids, at: t1 } }]);
    given(ruleSet(rule()), { type: 'PricingRuleRemoved', data: { ...ids, at: t1 } })
      .when({ type: 'RemovePricingRule', data: { ...ids, now: t1 } })
      .thenThrows('not_found');
  });
});

describe('what a rule asks for now', () => {
  it('with no competitor it keeps the current price, moved into the bounds when outside them', () => {
    expect(ruleDecision(rule(), null, 1234)).toEqual({ price: 1234, outcome: 'alone_keeps' });
    expect(ruleDecision(rule(), null, 2500)).toEqual({ price: 2000, outcome: 'alone_keeps' });
    expect(ruleDecision(rule(), null, 100)).toEqual({ price: 500, outcome: 'alone_keeps' });
  });

  it('with no competitor it goes to the ceiling only when told to', () => {
    expect(ruleDecision(rule({ whenAlone: 'ceiling' }), null, 1234)).toEqual({ price: 2000, outcome: 'alone_ceiling' });
  });

  it('beats the lowest competitor by its margin, held by the floor and the ceiling', () => {
    expect(ruleDecision(rule(), 1500, 1800)).toEqual({ price: 1490, outcome: 'beats_lowest' });
    expect(ruleDecision(rule({ beatBy: { kind: 'percent', bps: 150 } }), 1000, 1800)).toEqual({
      price: 985,
      outcome: 'beats_lowest',
    });
    expect(ruleDecision(rule(), 505, 1800)).toEqual({ price: 500, outcome: 'held_by_floor' });
    expect(ruleDecision(rule(), 3000, 1800)).toEqual({ price: 2000, outcome: 'held_by_ceiling' });
  });
});

describe('PricingRuleSet version 1 to 2', () => {
  it('a rule written before when_alone existed goes on to the ceiling when alone, as it was told then', () => {
    const versions = new EventVersions(eventVersions);
    const v1 = { ...ids, rule: { beatBy: { kind: 'amount', amount: 1 }, floor: 1, ceiling: 9, maxChangesPerHour: 2 } };
    const up = versions.upcast({
      id: 'e1',
      streamId: 'pricing-rule-o1',
      revision: 0,
      position: { commit: 1n, prepare: 1n },
      type: 'PricingRuleSet',
      data: { ...v1, at: t0 },
      metadata: {},
      schemaVersion: 1,
      createdAt: new Date(t0),
    });
    expect(up.data).toEqual({ ...v1, rule: { ...v1.rule, whenAlone: 'ceiling' }, at: t0 });
    expect(up.schemaVersion).toBe(2);
  });
});

describe('a price set by hand under a pricing rule', () => {
  const given = givenFor(offerDecider);
  const created: OfferEvent = {
    type: 'OfferCreated',
    data: {
      ...ids,
      productId: 'p1',
      price: 1000,
      externalRef: 'R-1',
      lowStockThreshold: 0,
      deliverySlaMinutes: 5,
      deliveryTime: 'instant',
      stockMode: 'uploaded',
      declaredStock: null,
      fulfilment: null,
      at: t0,
    },
  };
  const update = (changes: Record<string, unknown>, pricingRuleOn: boolean) => ({
    type: 'UpdateOffer' as const,
    data: { changes, pricingRuleOn, now: t1 },
  });

  it('is refused while the rule is on, with the reason', () => {
    given(created)
      .when(update({ price: 900 }, true))
      .thenThrows('pricing_rule_active');
  });

  it('the same price, or other fields, go through under a rule', () => {
    given(created)
      .when(update({ price: 1000 }, true))
      .then([]);
    given(created)
      .when(update({ price: 1000, externalRef: 'R-2' }, true))
      .then([{ type: 'OfferUpdated', data: { offerId: 'o1', changes: { externalRef: 'R-2' }, at: t1 } }]);
  });

  it('without a rule the price is the supplier’s', () => {
    given(created)
      .when(update({ price: 900 }, false))
      .then([{ type: 'OfferUpdated', data: { offerId: 'o1', changes: { price: 900 }, at: t1 } }]);
  });
});
