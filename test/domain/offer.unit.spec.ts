import { describe, expect, it } from 'vitest';
import { type OfferEvent, offerDecider, type ProbeResult } from '../../src/domain/offer.js';
import { givenFor } from '../support/given.js';

const given = givenFor(offerDecider);
const now = '2026-01-05T10:00:00.000Z';
const later = (minutes: number) => new Date(Date.parse(now) + minutes * 60_000).toISOString();
const terms = {
  price: 1000,
  externalRef: 'SKU',
  lowStockThreshold: 0,
  deliverySlaMinutes: 10,
  deliveryTime: 'within_10_minutes',
};
const created = (stockMode: 'uploaded' | 'declared'): OfferEvent => ({
  type: 'OfferCreated',
  data: {
    ...terms,
    offerId: 'o1',
    supplierId: 's1',
    productId: 'p1',
    stockMode,
    declaredStock: stockMode === 'declared' ? 5 : null,
    fulfilment: stockMode === 'declared' ? { baseUrl: 'https://supplier.example', secretSealed: 'sealed' } : null,
    at: now,
  },
});
const ok: ProbeResult = { ok: true, httpStatus: 200, latencyMs: 12, checkedAt: now };
const down: ProbeResult = { ok: false, httpStatus: 503, latencyMs: 12, checkedAt: now };
const activated = (health = 100, at = now): OfferEvent => ({
  type: 'OfferActivated',
  data: { offerId: 'o1', health, at },
});

describe('Offer', () => {
  it('is created in draft, only on a sellable product', () => {
    const { data } = created('uploaded') as Extract<OfferEvent, { type: 'OfferCreated' }>;
    given()
      .when({ type: 'CreateOffer', data: { ...data, productSellable: true } })
      .then([created('uploaded')]);
    given()
      .when({ type: 'CreateOffer', data: { ...data, productSellable: false } })
      .thenThrows('product_not_sellable');
    expect(given(created('uploaded')).state()?.status).toBe('draft');
  });

  it('activates an uploaded offer without a probe; activating twice changes nothing', () => {
    given(created('uploaded')).when({ type: 'ActivateOffer', data: { now } }).then([activated()]);
    given(created('uploaded'), activated()).when({ type: 'ActivateOffer', data: { now } }).then([]);
  });

  it('refuses to activate a declared offer whose healthcheck failed, with the probe in the problem', () =>
    given(created('declared'))
      .when({ type: 'ActivateOffer', data: { probe: down, now } })
      .thenThrows('fulfilment_unreachable', {
        probe: { ok: false, http_status: 503, latency_ms: 12, checked_at: now },
      }));

  it('activates a declared offer whose healthcheck passed, recording the check', () =>
    given(created('declared'))
      .when({ type: 'ActivateOffer', data: { probe: ok, now } })
      .then([{ type: 'FulfilmentChecked', data: { offerId: 'o1', probe: ok, at: now } }, activated()]));

  it('restarts health at 70 when a deactivated offer is activated again', () => {
    const off: OfferEvent = { type: 'OfferDeactivated', data: { offerId: 'o1', reason: 'supplier_request', at: now } };
    given(created('uploaded'), activated(), off)
      .when({ type: 'ActivateOffer', data: { now } })
      .then([activated(70)]);
    given(created('uploaded'), activated(), off)
      .when({ type: 'DeactivateOffer', data: { reason: 'supplier_request', now } })
      .then([]);
  });

  it('keeps declared-only terms and declared stock for declared offers', () => {
    given(created('uploaded'))
      .when({ type: 'UpdateOffer', data: { changes: { deliverySlaMinutes: 5 }, now } })
      .thenRefuses([{ input: 'delivery_sla_minutes', message: 'only for declared offers' }]);
    given(created('uploaded'))
      .when({ type: 'SetDeclaredStock', data: { declaredStock: 3, now } })
      .thenThrows('stock_mode_mismatch');
    given(created('declared'))
      .when({ type: 'SetDeclaredStock', data: { declaredStock: 5, now } })
      .then([]);
    given(created('uploaded'))
      .when({ type: 'UpdateOffer', data: { changes: { price: 1000 }, now } })
      .then([]);
  });

  it('health: outcomes move the score; 40 or less starts a 2-hour cooldown; missed windows always do', () => {
    const base = [created('declared'), activated(45)];
    given(...base)
      .when({ type: 'RecordOutcome', data: { reason: 'call_failure', now } })
      .then([
        { type: 'OfferHealthChanged', data: { offerId: 'o1', health: 40, delta: -5, reason: 'call_failure', at: now } },
        {
          type: 'OfferCooldownStarted',
          data: { offerId: 'o1', until: later(120), since: now, reason: 'call_failure', at: now },
        },
      ]);
    given(created('declared'), activated())
      .when({ type: 'RecordOutcome', data: { reason: 'missed_window', now } })
      .then([
        {
          type: 'OfferHealthChanged',
          data: { offerId: 'o1', health: 70, delta: -30, reason: 'missed_window', at: now },
        },
        {
          type: 'OfferCooldownStarted',
          data: { offerId: 'o1', until: later(120), since: now, reason: 'missed_window', at: now },
        },
      ]);
    given(created('declared'), activated())
      .when({ type: 'RecordOutcome', data: { reason: 'fast_delivery', now } })
      .then([]); // capped at 100
  });

  it('after a cooldown a passing healthcheck restores 70, a failing one extends it, 24 hours deactivate', () => {
    const cooling: OfferEvent = {
      type: 'OfferCooldownStarted',
      data: { offerId: 'o1', until: later(120), since: now, reason: 'missed_window', at: now },
    };
    const base = [created('declared'), activated(), cooling];
    const probeAt = (minutes: number, p: ProbeResult) => ({
      type: 'RecordScheduledHealthcheck' as const,
      data: { probe: { ...p, checkedAt: later(minutes) }, now: later(minutes) },
    });
    given(...base)
      .when(probeAt(60, ok))
      .then([
        { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: { ...ok, checkedAt: later(60) }, at: later(60) } },
      ]);
    given(...base)
      .when(probeAt(120, ok))
      .then([
        { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: { ...ok, checkedAt: later(120) }, at: later(120) } },
        { type: 'OfferCooldownEnded', data: { offerId: 'o1', health: 70, at: later(120) } },
      ]);
    given(...base)
      .when(probeAt(120, down))
      .then([
        {
          type: 'FulfilmentChecked',
          data: { offerId: 'o1', probe: { ...down, checkedAt: later(120) }, at: later(120) },
        },
        {
          type: 'OfferCooldownStarted',
          data: { offerId: 'o1', until: later(240), since: now, reason: 'healthcheck_failed', at: later(120) },
        },
      ]);
    const extended: OfferEvent = {
      type: 'OfferCooldownStarted',
      data: { offerId: 'o1', until: later(24 * 60), since: now, reason: 'healthcheck_failed', at: later(22 * 60) },
    };
    given(...base, extended)
      .when(probeAt(24 * 60, down))
      .then([
        {
          type: 'FulfilmentChecked',
          data: { offerId: 'o1', probe: { ...down, checkedAt: later(24 * 60) }, at: later(24 * 60) },
        },
        { type: 'OfferDeactivated', data: { offerId: 'o1', reason: 'health_exhausted', at: later(24 * 60) } },
      ]);
  });

  it('applies each health outcome once: the same outcome again (a step re-run after a crash) changes nothing', () => {
    const missed: OfferEvent[] = [
      {
        type: 'OfferHealthChanged',
        data: {
          offerId: 'o1',
          health: 70,
          delta: -30,
          reason: 'missed_window',
          outcomeId: 'missed_window:item-1',
          at: now,
        },
      },
      {
        type: 'OfferCooldownStarted',
        data: {
          offerId: 'o1',
          until: later(120),
          since: now,
          reason: 'missed_window',
          outcomeId: 'missed_window:item-1',
          at: now,
        },
      },
    ];
    given(created('declared'), activated())
      .when({ type: 'RecordOutcome', data: { reason: 'missed_window', outcomeId: 'missed_window:item-1', now } })
      .then(missed);
    given(created('declared'), activated(), ...missed)
      .when({
        type: 'RecordOutcome',
        data: { reason: 'missed_window', outcomeId: 'missed_window:item-1', now: later(1) },
      })
      .then([]);
    // another item's outcome still counts
    given(created('declared'), activated(), ...missed)
      .when({
        type: 'RecordOutcome',
        data: { reason: 'call_failure', outcomeId: 'call_failure:item-2', now: later(1) },
      })
      .then([
        {
          type: 'OfferHealthChanged',
          data: {
            offerId: 'o1',
            health: 65,
            delta: -5,
            reason: 'call_failure',
            outcomeId: 'call_failure:item-2',
            at: later(1),
          },
        },
      ]);
  });

  it('remembers the latest 256 outcomes', () => {
    const changes: OfferEvent[] = Array.from({ length: 300 }, (_, i) => ({
      type: 'OfferHealthChanged',
      data: { offerId: 'o1', health: 50, delta: -1, reason: 'out_of_stock', outcomeId: `o${i}`, at: now },
    }));
    const state = given(created('declared'), activated(), ...changes).state()!;
    expect(state.appliedOutcomes).toHaveLength(256);
    expect(state.appliedOutcomes[0]).toBe('o44');
    expect(state.appliedOutcomes[255]).toBe('o299');
  });

  it('recovery: below 70 without a cooldown, each passing healthcheck earns 5 points up to 70, no further', () => {
    const at = (health: number): OfferEvent => ({
      type: 'OfferHealthChanged',
      data: { offerId: 'o1', health, delta: health - 100, reason: 'out_of_stock', at: now },
    });
    const check = { type: 'RecordScheduledHealthcheck' as const, data: { probe: ok, now } };
    const checked: OfferEvent = { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: ok, at: now } };
    given(created('declared'), activated(), at(41))
      .when(check)
      .then([
        checked,
        {
          type: 'OfferHealthChanged',
          data: { offerId: 'o1', health: 46, delta: 5, reason: 'healthcheck_passed', at: now },
        },
      ]);
    given(created('declared'), activated(), at(68))
      .when(check)
      .then([
        checked,
        {
          type: 'OfferHealthChanged',
          data: { offerId: 'o1', health: 70, delta: 2, reason: 'healthcheck_passed', at: now },
        },
      ]);
    given(created('declared'), activated(), at(70)).when(check).then([checked]);
    // in cooldown the cooldown rules decide, not the recovery
    const cooling: OfferEvent = {
      type: 'OfferCooldownStarted',
      data: { offerId: 'o1', until: later(120), since: now, reason: 'missed_window', at: now },
    };
    given(created('declared'), activated(), at(45), cooling).when(check).then([checked]);
    // six passing checks take an offer from 41 back to routing
    let history: OfferEvent[] = [created('declared'), activated(), at(41)];
    for (let i = 0; i < 6; i++)
      history = [
        ...history,
        ...offerDecider.decide(check, history.reduce(offerDecider.evolve, offerDecider.initialState)),
      ];
    expect(history.reduce(offerDecider.evolve, offerDecider.initialState)!.health).toBe(70);
  });

  it('a scheduled healthcheck run re-tried after a crash applies its outcome once; the next run applies its own', () => {
    const at41: OfferEvent = {
      type: 'OfferHealthChanged',
      data: { offerId: 'o1', health: 41, delta: -59, reason: 'out_of_stock', at: now },
    };
    const run = (runId: string) => ({ type: 'RecordScheduledHealthcheck' as const, data: { probe: ok, runId, now } });
    const passed = (runId: string, health: number): OfferEvent => ({
      type: 'OfferHealthChanged',
      data: {
        offerId: 'o1',
        health,
        delta: 5,
        reason: 'healthcheck_passed',
        outcomeId: `healthcheck:${runId}`,
        at: now,
      },
    });
    const checked: OfferEvent = { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: ok, at: now } };
    given(created('declared'), activated(), at41)
      .when(run('t1'))
      .then([checked, passed('t1', 46)]);
    given(created('declared'), activated(), at41, checked, passed('t1', 46)).when(run('t1')).then([]);
    given(created('declared'), activated(), at41, checked, passed('t1', 46))
      .when(run('t2'))
      .then([checked, passed('t2', 51)]);
  });

  it('a failing healthcheck of an active offer costs 10 points', () =>
    given(created('declared'), activated())
      .when({ type: 'RecordScheduledHealthcheck', data: { probe: down, now } })
      .then([
        { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: down, at: now } },
        {
          type: 'OfferHealthChanged',
          data: { offerId: 'o1', health: 90, delta: -10, reason: 'healthcheck_failed', at: now },
        },
      ]));

  it('rotates the fulfilment secret keeping the old one for the overlap', () =>
    given(created('declared'))
      .when({ type: 'RotateFulfilmentSecret', data: { secretSealed: 'new', now, overlapMs: 24 * 3600_000 } })
      .then([
        {
          type: 'FulfilmentSecretRotated',
          data: {
            offerId: 'o1',
            secretSealed: 'new',
            previousSecretSealed: 'sealed',
            previousValidUntil: later(24 * 60),
            at: now,
          },
        },
      ]));

  it('a second create on the same stream is offer_exists; commands on no offer are not_found', () => {
    const { data } = created('uploaded') as Extract<OfferEvent, { type: 'OfferCreated' }>;
    given(created('uploaded'))
      .when({ type: 'CreateOffer', data: { ...data, productSellable: true } })
      .thenThrows('offer_exists');
    given().when({ type: 'ActivateOffer', data: { now } }).thenThrows('not_found');
    given()
      .when({ type: 'UpdateOffer', data: { changes: { price: 1 }, now } })
      .thenThrows('not_found');
  });

  it('records only the terms that change, and lists every declared-only field an uploaded offer was sent', () => {
    given(created('uploaded'))
      .when({
        type: 'UpdateOffer',
        data: { changes: { price: 1000, externalRef: 'SKU-2', lowStockThreshold: 0 }, now: later(1) },
      })
      .then([{ type: 'OfferUpdated', data: { offerId: 'o1', changes: { externalRef: 'SKU-2' }, at: later(1) } }]);
    given(created('uploaded'))
      .when({
        type: 'UpdateOffer',
        data: { changes: { deliverySlaMinutes: 5, deliveryTime: 'soon', fulfilmentBaseUrl: 'https://x.example' }, now },
      })
      .thenRefuses([
        { input: 'delivery_sla_minutes', message: 'only for declared offers' },
        { input: 'delivery_time', message: 'only for declared offers' },
        { input: 'fulfilment.base_url', message: 'only for declared offers' },
      ]);
    const moved: OfferEvent = {
      type: 'OfferUpdated',
      data: {
        offerId: 'o1',
        changes: { fulfilmentBaseUrl: 'https://new.example', deliverySlaMinutes: 3 },
        at: later(1),
      },
    };
    given(created('declared'))
      .when({
        type: 'UpdateOffer',
        data: {
          changes: {
            fulfilmentBaseUrl: 'https://new.example',
            deliverySlaMinutes: 3,
            deliveryTime: 'within_10_minutes',
          },
          now: later(1),
        },
      })
      .then([moved]);
    expect(given(created('declared'), moved).state()).toMatchObject({
      terms: { ...terms, deliverySlaMinutes: 3 },
      fulfilment: { baseUrl: 'https://new.example', secretSealed: 'sealed' },
      updatedAt: later(1),
    });
  });

  it('a declared offer whose probe did not run, or got no answer, is fulfilment_unreachable with the probe', () => {
    given(created('declared'))
      .when({ type: 'ActivateOffer', data: { now } })
      .thenThrows('fulfilment_unreachable', { probe: undefined });
    const timedOut: ProbeResult = {
      ok: false,
      httpStatus: 0,
      latencyMs: 5000,
      checkedAt: now,
      error: 'no answer within 5000 ms',
    };
    given(created('declared'))
      .when({ type: 'ActivateOffer', data: { probe: timedOut, now } })
      .thenThrows('fulfilment_unreachable', {
        probe: { ok: false, http_status: 0, latency_ms: 5000, checked_at: now, error: 'no answer within 5000 ms' },
      });
    let detail = '';
    try {
      offerDecider.decide(
        { type: 'ActivateOffer', data: { probe: timedOut, now } },
        given(created('declared')).state(),
      );
    } catch (error) {
      detail = (error as Error).message;
    }
    expect(detail).toBe('fulfilment_unreachable: GET /healthcheck failed after 5000 ms: no answer within 5000 ms');
  });

  it('reactivation after a health_exhausted deactivation restarts at 70 and clears the cooldown', () => {
    const cooling: OfferEvent = {
      type: 'OfferCooldownStarted',
      data: { offerId: 'o1', until: later(120), since: now, reason: 'missed_window', at: now },
    };
    const exhausted: OfferEvent = {
      type: 'OfferDeactivated',
      data: { offerId: 'o1', reason: 'health_exhausted', at: later(24 * 60) },
    };
    const again = { ...ok, checkedAt: later(25 * 60) };
    const history = [
      created('declared'),
      activated(),
      {
        type: 'OfferHealthChanged',
        data: { offerId: 'o1', health: 30, delta: -70, reason: 'call_failure', at: now },
      } as OfferEvent,
      cooling,
      exhausted,
    ];
    expect(given(...history).state()).toMatchObject({ status: 'inactive', health: 30, cooldownUntil: later(120) });
    given(...history)
      .when({ type: 'ActivateOffer', data: { probe: again, now: later(25 * 60) } })
      .then([
        { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: again, at: later(25 * 60) } },
        { type: 'OfferActivated', data: { offerId: 'o1', health: 70, at: later(25 * 60) } },
      ]);
    expect(given(...history, activated(70, later(25 * 60))).state()).toMatchObject({
      status: 'active',
      health: 70,
      cooldownUntil: null,
      cooldownSince: null,
      activatedAt: later(25 * 60),
    });
  });

  it('deactivating a draft or an inactive offer records nothing; an active one leaves active with the reason given', () => {
    given(created('uploaded'))
      .when({ type: 'DeactivateOffer', data: { reason: 'supplier_request', now } })
      .then([]);
    given(created('uploaded'), activated())
      .when({ type: 'DeactivateOffer', data: { reason: 'supplier_request', now: later(1) } })
      .then([{ type: 'OfferDeactivated', data: { offerId: 'o1', reason: 'supplier_request', at: later(1) } }]);
  });

  it('a check records the probe on a declared offer in any status; uploaded offers have nothing to check or rotate', () => {
    given(created('declared'))
      .when({ type: 'RecordHealthcheck', data: { probe: down, now } })
      .then([{ type: 'FulfilmentChecked', data: { offerId: 'o1', probe: down, at: now } }]);
    expect(
      given(created('declared'), { type: 'FulfilmentChecked', data: { offerId: 'o1', probe: down, at: now } }).state()
        ?.fulfilment,
    ).toMatchObject({
      lastHealthcheckAt: now,
      lastHealthcheckOk: false,
    });
    given(created('uploaded'))
      .when({ type: 'RecordHealthcheck', data: { probe: ok, now } })
      .thenThrows('stock_mode_mismatch');
    given(created('uploaded'))
      .when({ type: 'RotateFulfilmentSecret', data: { secretSealed: 'x', now, overlapMs: 1 } })
      .thenThrows('stock_mode_mismatch');
  });

  it('a second rotation keeps the secret it replaces, not the one before', () => {
    const first: OfferEvent = {
      type: 'FulfilmentSecretRotated',
      data: {
        offerId: 'o1',
        secretSealed: 'second',
        previousSecretSealed: 'sealed',
        previousValidUntil: later(24 * 60),
        at: now,
      },
    };
    given(created('declared'), first)
      .when({
        type: 'RotateFulfilmentSecret',
        data: { secretSealed: 'third', now: later(60), overlapMs: 24 * 3600_000 },
      })
      .then([
        {
          type: 'FulfilmentSecretRotated',
          data: {
            offerId: 'o1',
            secretSealed: 'third',
            previousSecretSealed: 'second',
            previousValidUntil: later(25 * 60),
            at: later(60),
          },
        },
      ]);
  });

  it('declared stock: any count of 0 or more, recorded when it changes', () => {
    given(created('declared'))
      .when({ type: 'SetDeclaredStock', data: { declaredStock: 0, now } })
      .then([{ type: 'DeclaredStockSet', data: { offerId: 'o1', declaredStock: 0, at: now } }]);
    expect(
      given(created('declared'), {
        type: 'DeclaredStockSet',
        data: { offerId: 'o1', declaredStock: 0, at: now },
      }).state()?.declaredStock,
    ).toBe(0);
  });
});
