import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { createDeclared, createUploaded, type Fulfilment, startFulfilment, type Supplier } from './fixtures.js';

/**
 * GET /offers/{id}/health: the table's rules, the score, and the failures before the next
 * consequence, checked against what the scheduled healthchecks then do to the offer.
 */
describe('offer health forecast', () => {
  let svc: TestService;
  let supplier: Supplier;
  let other: Supplier;
  let fulfilment: Fulfilment;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier('Forecast Keys');
    other = await svc.newSupplier('Other Keys');
    fulfilment = await startFulfilment();
    receiver = await startReceiver();
    const hook = await supplier.api.post('/webhooks', { url: receiver.url, events: ['offer.health_warning'] });
    expect(hook.status, hook.text).toBe(201);
  });
  afterAll(async () => {
    await svc?.stop();
    await fulfilment?.close();
    await receiver?.close();
  });

  const forecastOf = async (offerId: string) => {
    const res = await supplier.api.get(`/offers/${offerId}/health`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it("shows the table's numbers, and the healthchecks it announces take the offer out of routing, one fewer does not", async () => {
    const offer = await createDeclared(supplier.api, (await svc.newProduct()).id, fulfilment.url);
    expect((await supplier.api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    const first = await forecastOf(offer.id);
    expect(first).toEqual({
      score: 100,
      routing_eligible: true,
      cooldown_until: null,
      rules: {
        start: 100,
        routing_minimum: 70,
        cooldown_at_or_below: 40,
        cooldown_minutes: 120,
        deactivation_after_cooldown_hours: 24,
        score_after_cooldown: 70,
        score_after_reactivation: 70,
        points: {
          fast_delivery: 3,
          delivery: 1,
          call_failure: -5,
          out_of_stock: -2,
          healthcheck_failed: -10,
          topup_validate_failure: -2,
          topup_execute_failed: -25,
          missed_window: -30,
          healthcheck_passed: 5,
        },
        cooldown_at_once_for: ['missed_window', 'topup_execute_failed'],
        healthcheck_every_minutes: 5,
        healthcheck_in_cooldown_every_minutes: 10,
      },
      next_consequence: {
        consequence: 'leaves_routing',
        failed_calls: 7,
        failed_healthchecks: 4,
        minutes: null,
        message:
          '7 more failed reservation or order calls (or 4 more failed healthchecks) and this offer drops under 70: no order is routed to it',
      },
      recovery: null,
      one_step_away: false,
    });

    fulfilment.answer(503);
    for (let i = 1; i < first.next_consequence.failed_healthchecks; i++) {
      await svc.advance(5 * 60);
      await svc.drain();
    }
    const before = await forecastOf(offer.id);
    expect(before).toMatchObject({
      score: 70,
      routing_eligible: true,
      one_step_away: true,
      next_consequence: { failed_healthchecks: 1 },
    });
    await svc.advance(5 * 60);
    await svc.drain();
    const after = await forecastOf(offer.id);
    expect(after).toMatchObject({ score: 60, routing_eligible: false, next_consequence: { consequence: 'cooldown' } });

    // offer.health_warning came once, at 70, one failure before leaving routing; at 60 the
    // cooldown is still two failed healthchecks away (50, then 40): no warning yet
    const warnings = receiver.received.filter((r) => r.body.type === 'offer.health_warning').map((r) => r.body.data);
    expect(warnings).toEqual([
      {
        offer_id: offer.id,
        product_id: offer.product_id,
        external_ref: 'SKU-D',
        health: 70,
        consequence: 'leaves_routing',
        failed_calls: 1,
        failed_healthchecks: 1,
        message: before.next_consequence.message,
      },
    ]);
  });

  it('an uploaded offer has nothing ahead; another supplier’s offer is not found (problem+json)', async () => {
    const offer = await createUploaded(supplier.api, (await svc.newProduct()).id);
    expect(await forecastOf(offer.id)).toMatchObject({ score: 100, next_consequence: null, recovery: null });
    const res = await other.api.get(`/offers/${offer.id}/health`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
