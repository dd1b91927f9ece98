import { describe, expect, it } from 'vitest';
import { forecastHealth, healthRules } from '../../src/domain/health-forecast.js';
import {
  type OfferCommand,
  type OfferEvent,
  offerDecider,
  type OfferState,
  type ProbeResult,
} from '../../src/domain/offer.js';

/**
 * The forecast against what the offer decider then does, one rule of the health table at a
 * time: the number of failures it announces brings the consequence about, one fewer does not.
 */
const t0 = Date.parse('2026-01-05T10:00:00.000Z');
const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
const ok = (checkedAt: string): ProbeResult => ({ ok: true, httpStatus: 200, latencyMs: 5, checkedAt });
const down = (checkedAt: string): ProbeResult => ({ ok: false, httpStatus: 503, latencyMs: 5, checkedAt });

/** An offer's life, driven through the decider: every command's events folded in. */
class Offer {
  state: OfferState | null;
  events: OfferEvent[] = [];
  private n = 0;
  constructor(stockMode: 'declared' | 'uploaded' = 'declared') {
    this.state = null;
    this.run({
      type: 'CreateOffer',
      data: {
        offerId: 'o1',
        supplierId: 's1',
        productId: 'p1',
        stockMode,
        price: 1000,
        externalRef: 'SKU',
        lowStockThreshold: 0,
        deliverySlaMinutes: 10,
        deliveryTime: 'within_10_minutes',
        declaredStock: stockMode === 'declared' ? 5 : null,
        fulfilment: stockMode === 'declared' ? { baseUrl: 'https://supplier.example', secretSealed: 's' } : null,
        productSellable: true,
        at: at(0),
      },
    } as OfferCommand);
    this.run({ type: 'ActivateOffer', data: { ...(stockMode === 'declared' && { probe: ok(at(0)) }), now: at(0) } });
  }
  run(command: OfferCommand) {
    const events = offerDecider.decide(command, this.state as OfferState);
    this.state = events.reduce(offerDecider.evolve, this.state as OfferState);
    this.events.push(...events);
    return events;
  }
  failCall(now: string) {
    return this.run({ type: 'RecordOutcome', data: { reason: 'call_failure', outcomeId: `c${this.n++}`, now } });
  }
  probe(probe: ProbeResult) {
    return this.run({
      type: 'RecordScheduledHealthcheck',
      data: { probe, runId: `r${this.n++}`, now: probe.checkedAt },
    });
  }
  get s() {
    return this.state!;
  }
}

const types = (events: OfferEvent[]) => events.map((e) => e.type);

describe('health forecast against the decider', () => {
  it('routing minimum: the announced failed calls (and healthchecks) take it under 70, one fewer does not', () => {
    const calls = new Offer();
    const forecast = forecastHealth(calls.s, new Date(at(0)));
    expect(forecast.next).toMatchObject({ consequence: 'leaves_routing', failedCalls: 7, failedHealthchecks: 4 });
    expect(forecast.next!.message).toBe(
      '7 more failed reservation or order calls (or 4 more failed healthchecks) and this offer drops under 70: no order is routed to it',
    );
    const warnings = () => calls.events.filter((e) => e.type === 'OfferHealthWarning').length;
    for (let i = 0; i < 5; i++) calls.failCall(at(1));
    expect(warnings()).toBe(1); // at 75 one failed healthcheck (-10) takes it under 70
    calls.failCall(at(1));
    expect(warnings()).toBe(1); // at 70 still one step away: not repeated
    expect(calls.s.health).toBeGreaterThanOrEqual(healthRules().routing_minimum);
    expect(forecastHealth(calls.s, new Date(at(1)))).toMatchObject({ oneStepAway: true, next: { failedCalls: 1 } });
    calls.failCall(at(1));
    expect(calls.s.health).toBeLessThan(healthRules().routing_minimum);
    expect(forecastHealth(calls.s, new Date(at(1))).routingEligible).toBe(false);

    const checks = new Offer();
    for (let i = 0; i < 3; i++) checks.probe(down(at(5 * (i + 1))));
    expect(checks.s.health).toBe(70);
    checks.probe(down(at(20)));
    expect(checks.s.health).toBeLessThan(70);
  });

  it('cooldown: the announced failed calls start a cooldown of the announced length, one fewer does not', () => {
    const offer = new Offer();
    for (let i = 0; i < 7; i++) offer.failCall(at(1));
    const forecast = forecastHealth(offer.s, new Date(at(1)));
    expect(forecast.next).toMatchObject({ consequence: 'cooldown', failedCalls: 5, failedHealthchecks: 3 });
    expect(forecast.next!.message).toBe(
      '5 more failed reservation or order calls (or 3 more failed healthchecks) and this offer enters a 120-minute cooldown',
    );
    for (let i = 0; i < 2; i++) expect(types(offer.failCall(at(2)))).toEqual(['OfferHealthChanged']);
    // the third leaves it one failed healthcheck (-10) from the cooldown: the warning comes with it, once
    const warned = offer.failCall(at(2));
    expect(warned[1]).toEqual({
      type: 'OfferHealthWarning',
      data: {
        offerId: 'o1',
        health: 50,
        consequence: 'cooldown',
        failedCalls: 2,
        failedHealthchecks: 1,
        message:
          '2 more failed reservation or order calls (or 1 more failed healthcheck) and this offer enters a 120-minute cooldown',
        at: at(2),
      },
    });
    expect(types(offer.failCall(at(2)))).toEqual(['OfferHealthChanged']);
    expect(forecastHealth(offer.s, new Date(at(2))).oneStepAway).toBe(true);
    const last = offer.failCall(at(2));
    expect(types(last)).toEqual(['OfferHealthChanged', 'OfferCooldownStarted']);
    expect(Date.parse(offer.s.cooldownUntil!) - Date.parse(at(2))).toBe(healthRules().cooldown_minutes * 60_000);
  });

  it('a missed window or a failed top-up starts a cooldown at once, as the rules list', () => {
    expect(healthRules().cooldown_at_once_for).toEqual(['missed_window', 'topup_execute_failed']);
    for (const reason of ['missed_window', 'topup_execute_failed'] as const) {
      const offer = new Offer();
      const events = offer.run({ type: 'RecordOutcome', data: { reason, outcomeId: reason, now: at(1) } });
      expect(types(events)).toContain('OfferCooldownStarted');
    }
  });

  it('recovery after a cooldown: at the announced moment a passing healthcheck restores 70, not before', () => {
    const offer = new Offer();
    offer.run({ type: 'RecordOutcome', data: { reason: 'missed_window', outcomeId: 'w', now: at(0) } });
    const recovery = forecastHealth(offer.s, new Date(at(1))).recovery!;
    expect(recovery.at).toBe(at(120));
    expect(types(offer.probe(ok(at(110))))).toEqual(['FulfilmentChecked']);
    const ended = offer.probe(ok(recovery.at!));
    expect(ended[1]).toEqual({ type: 'OfferCooldownEnded', data: { offerId: 'o1', health: 70, at: at(120) } });
    expect(healthRules().score_after_cooldown).toBe(70);
  });

  it('recovery below 70 without a cooldown: the announced passing healthchecks bring it back to 70', () => {
    const offer = new Offer();
    for (let i = 0; i < 8; i++) offer.failCall(at(1)); // 60
    const recovery = forecastHealth(offer.s, new Date(at(1))).recovery!;
    expect(recovery.message).toBe(`2 passing healthchecks (every 5 minutes) bring health back to 70: about ${at(11)}`);
    offer.probe(ok(at(6)));
    expect(offer.s.health).toBeLessThan(70);
    offer.probe(ok(at(11)));
    expect(offer.s.health).toBe(70);
  });

  it('deactivation: after the announced minutes of failing healthchecks in cooldown it is deactivated, not before', () => {
    const offer = new Offer();
    offer.run({ type: 'RecordOutcome', data: { reason: 'missed_window', outcomeId: 'w', now: at(0) } });
    expect(forecastHealth(offer.s, new Date(at(0))).next).toMatchObject({ consequence: 'deactivation', minutes: 1440 });
    // probed every 10 minutes in cooldown, every probe failing
    for (let m = 10; m < 1440; m += 10) {
      expect(types(offer.probe(down(at(m))))).not.toContain('OfferDeactivated');
      expect(forecastHealth(offer.s, new Date(at(m))).next!.minutes).toBe(1440 - m);
    }
    expect(types(offer.probe(down(at(1440))))).toEqual(['FulfilmentChecked', 'OfferDeactivated']);
    expect(healthRules().deactivation_after_cooldown_hours).toBe(24);
  });

  it('reactivation restarts at the announced score', () => {
    const offer = new Offer();
    offer.run({ type: 'DeactivateOffer', data: { reason: 'supplier_request', now: at(1) } });
    offer.run({ type: 'ActivateOffer', data: { probe: ok(at(2)), now: at(2) } });
    expect(offer.s.health).toBe(healthRules().score_after_reactivation);
  });

  it('an uploaded offer has no supplier call to fail: no consequence ahead', () => {
    expect(forecastHealth(new Offer('uploaded').s, new Date(at(0)))).toEqual({
      score: 100,
      routingEligible: true,
      cooldownUntil: null,
      next: null,
      recovery: null,
      oneStepAway: false,
    });
  });
});
