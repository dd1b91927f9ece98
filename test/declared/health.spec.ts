import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, secondsAfter, startWorld, type World } from './support.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Healthchecks (5 s, once; every 5 minutes while active, every 10 in cooldown) and offer
 * health down to deactivation: 40 or less is exhausted (2-hour cooldown, no routing); when a
 * cooldown ends a passing healthcheck restores 70 and a failing one extends it by 2 hours;
 * 24 hours of continuous cooldown deactivate the offer (reason health_exhausted).
 */
describe('healthchecks, offer health and cooldowns', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, healthcheckMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  it('every 5 minutes while active, -10 per failure, exhausted at 40: a 2-hour cooldown, every 10 minutes, extended by 2 hours, restored to 70, and 24 hours of cooldown deactivate', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    const t0 = calls(s.kit, 'GET /healthcheck')[0]!.at; // the inline check at activation
    const checks = () => secondsAfter(t0, calls(s.kit, 'GET /healthcheck'));
    const at = (seconds: number) => t0 + seconds * 1000;
    /** Moves the clock to t0 + seconds in steps of `step` (the cadence), so every due check runs on time. */
    const until = async (seconds: number, step: number) => {
      while (w.svc.clock.now().getTime() < at(seconds))
        await w.svc.advance(Math.min(step, (at(seconds) - w.svc.clock.now().getTime()) / 1000));
    };

    await until(600, 300);
    expect(checks()).toEqual([0, 300, 600]);
    expect((await w.offer(s)).fulfilment).toMatchObject({
      last_healthcheck_at: iso(at(600)),
      last_healthcheck_ok: true,
    });

    s.kit.faults.set('GET /healthcheck', { kind: 'status', status: 503 });
    const scores: number[] = [];
    for (let t = 900; t <= 2400; t += 300) {
      await until(t, 300);
      scores.push((await w.health(s)).score);
    }
    expect(scores).toEqual([90, 80, 70, 60, 50, 40]);
    expect((await w.offer(s)).fulfilment).toMatchObject({
      last_healthcheck_at: iso(at(2400)),
      last_healthcheck_ok: false,
    });
    // exhausted at t = 2400: a 2-hour cooldown, no routing
    expect(await w.health(s)).toEqual({ score: 40, routing_eligible: false, cooldown_until: iso(at(2400 + 7200)) });
    expect((await w.checkout(product)).status).toBe(409);
    expect(calls(s.kit, 'POST /reservations')).toEqual([]);

    // in cooldown: every 10 minutes, failures cost nothing more
    await until(9000, 600);
    expect(checks().filter((t) => t > 2400)).toEqual([
      3000, 3600, 4200, 4800, 5400, 6000, 6600, 7200, 7800, 8400, 9000,
    ]);
    expect((await w.health(s)).score).toBe(40);
    // the cooldown ends at 9600 with a failing check: extended by 2 hours
    await until(9600, 600);
    expect(await w.health(s)).toEqual({ score: 40, routing_eligible: false, cooldown_until: iso(at(9600 + 7200)) });

    // the supplier recovers; checks inside the cooldown change nothing, the first one after it restores 70
    s.kit.faults.clear('GET /healthcheck');
    await until(16200, 600);
    expect((await w.health(s)).cooldown_until).toBe(iso(at(16800)));
    await until(16800, 600);
    expect(await w.health(s)).toEqual({ score: 70, routing_eligible: true, cooldown_until: null });
    await until(17400, 300);
    expect(checks().filter((t) => t >= 16200)).toEqual([16200, 16800, 17100, 17400]);
    const sold = await w.place(product);
    expect(sold.items[0].offer_id).toBe(s.offerId);

    // fails again: 70 -> 40 in three checks, a new cooldown from 18300
    s.kit.faults.set('GET /healthcheck', { kind: 'status', status: 503 });
    await until(18300, 300);
    expect(await w.health(s)).toEqual({ score: 40, routing_eligible: false, cooldown_until: iso(at(18300 + 7200)) });
    // extended every 2 hours (jumping from one end of the cooldown to the next); 24 hours
    // after the cooldown began the offer is deactivated
    await until(18300 + 24 * 3600 - 600, 7200);
    expect((await w.offer(s)).status).toBe('active');
    expect((await w.health(s)).cooldown_until).toBe(iso(at(18300 + 24 * 3600)));
    await until(18300 + 24 * 3600, 600);
    const offer = await w.offer(s);
    expect([offer.status, offer.health.routing_eligible]).toEqual(['inactive', false]);
    const stream = await w.events(`offer-${s.offerId}`);
    const cooldowns = stream
      .filter((e) => e.type === 'OfferCooldownStarted')
      .map((e) => [e.data.since, e.data.until, e.data.reason]);
    expect(cooldowns.at(0)).toEqual([iso(at(2400)), iso(at(9600)), 'healthcheck_failed']);
    expect(cooldowns.at(1)).toEqual([iso(at(2400)), iso(at(16800)), 'healthcheck_failed']);
    expect(cooldowns.slice(2).every((c) => c[0] === iso(at(18300)))).toBe(true);
    expect(cooldowns).toHaveLength(2 + 12);
    const deactivated = stream.filter((e) => e.type === 'OfferDeactivated');
    expect(deactivated.map((e) => [e.data.reason, e.data.at])).toEqual([
      ['health_exhausted', iso(at(18300 + 24 * 3600))],
    ]);

    // no more healthchecks for an offer that left active
    const count = calls(s.kit, 'GET /healthcheck').length;
    await w.svc.advance(3600);
    expect(calls(s.kit, 'GET /healthcheck')).toHaveLength(count);
    // reactivation (inline healthcheck passes) restarts health at 70
    s.kit.faults.clear('GET /healthcheck');
    const again = await s.api.post(`/offers/${s.offerId}/activate`);
    expect([again.status, again.body.status, again.body.health]).toEqual([
      200,
      'active',
      { score: 70, routing_eligible: true, cooldown_until: null },
    ]);
  });

  it('below 70 the offer is no longer routed, so failed calls stop there; slow healthchecks (over their timeout) take it to exhaustion', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    s.kit.faults.set('POST /reservations', { kind: 'status', status: 500 });
    const scores: number[] = [];
    for (let i = 0; i < 8; i++) {
      expect((await w.checkout(product)).status).toBe(409);
      scores.push((await w.health(s)).score);
    }
    expect(scores).toEqual([95, 90, 85, 80, 75, 70, 65, 65]);
    expect(calls(s.kit, 'POST /reservations')).toHaveLength(14);
    expect(await w.health(s)).toEqual({ score: 65, routing_eligible: false, cooldown_until: null });

    s.kit.faults.clear('POST /reservations');
    s.kit.faults.set('GET /healthcheck', { kind: 'delay', ms: 600 });
    await w.svc.advance(300);
    await w.svc.advance(300);
    expect((await w.health(s)).score).toBe(45);
    await w.svc.advance(300);
    const exhaustedAt = w.svc.clock.now().getTime();
    expect(await w.health(s)).toEqual({
      score: 35,
      routing_eligible: false,
      cooldown_until: iso(exhaustedAt + 7200_000),
    });
    expect((await w.offer(s)).fulfilment.last_healthcheck_ok).toBe(false);
    // the cooldown ends with another slow check: extended by 2 hours
    await w.svc.advance(7200);
    expect(await w.health(s)).toEqual({
      score: 35,
      routing_eligible: false,
      cooldown_until: iso(exhaustedAt + 2 * 7200_000),
    });
    s.kit.faults.clear('GET /healthcheck');
    await w.svc.advance(7200);
    expect(await w.health(s)).toEqual({ score: 70, routing_eligible: true, cooldown_until: null });
    expect((await w.place(product)).items[0].offer_id).toBe(s.offerId);
  });

  it('a failing healthcheck while active costs 10 points each time; a passing one costs nothing and earns nothing', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    s.kit.faults.set('GET /healthcheck', { kind: 'hang', times: 1 });
    await w.svc.advance(300);
    expect((await w.health(s)).score).toBe(90);
    s.kit.faults.set('GET /healthcheck', { kind: 'malformed', status: 500, times: 1 });
    await w.svc.advance(300);
    expect((await w.health(s)).score).toBe(80);
    await w.svc.advance(300);
    await w.svc.advance(300);
    expect(await w.health(s)).toEqual({ score: 80, routing_eligible: true, cooldown_until: null });
    // the manual check reports without touching health
    const check = await s.api.post(`/offers/${s.offerId}/fulfilment/check`);
    expect([check.status, check.body.status, check.body.http_status]).toEqual([200, 'ok', 200]);
    expect((await w.health(s)).score).toBe(80);
  });
});
