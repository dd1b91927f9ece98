import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEligible, marketFor, rankOffers, type RoutableOffer, simulateRank } from '../../src/domain/routing.js';

const now = new Date('2026-01-05T10:00:00.000Z');
const offer = (o: Partial<RoutableOffer> & { offerId: string }): RoutableOffer => ({
  supplierId: `s-${o.offerId}`,
  status: 'active',
  price: 1000,
  health: 100,
  cooldownUntil: null,
  stock: 5,
  activatedAt: '2026-01-01T00:00:00.000Z',
  ...o,
});

describe('routing', () => {
  it('keeps only active offers with health >= 70, no running cooldown and stock above 0', () => {
    const offers = [
      offer({ offerId: 'ok' }),
      offer({ offerId: 'draft', status: 'draft' }),
      offer({ offerId: 'weak', health: 69 }),
      offer({ offerId: 'edge', health: 70 }),
      offer({ offerId: 'cooling', cooldownUntil: '2026-01-05T10:00:01.000Z' }),
      offer({ offerId: 'cooled', cooldownUntil: '2026-01-05T10:00:00.000Z' }),
      offer({ offerId: 'empty', stock: 0 }),
    ];
    // equal price and activation: health first, then the offer id
    expect(rankOffers(offers, now).map((o) => o.offerId)).toEqual(['cooled', 'ok', 'edge']);
  });

  it('orders by price, then health, then earlier activation', () => {
    const offers = [
      offer({ offerId: 'a', price: 900, health: 80 }),
      offer({ offerId: 'b', price: 900, health: 95, activatedAt: '2026-01-03T00:00:00.000Z' }),
      offer({ offerId: 'c', price: 900, health: 95, activatedAt: '2026-01-02T00:00:00.000Z' }),
      offer({ offerId: 'd', price: 800, health: 70 }),
    ];
    expect(rankOffers(offers, now).map((o) => o.offerId)).toEqual(['d', 'c', 'b', 'a']);
  });

  it('shows each supplier its market and simulates a rank', () => {
    const offers = [offer({ offerId: 'a', price: 900 }), offer({ offerId: 'b', price: 950 })];
    expect(marketFor(offers, 's-a', now)).toEqual({
      buyer_price: { amount: 900, currency: 'EUR' },
      active_offers: 2,
      your_offer_selected: true,
    });
    expect(marketFor(offers, 's-b', now).your_offer_selected).toBe(false);
    expect(simulateRank(offers, 's-b', 899, now)).toEqual({
      rank: 1,
      wouldBeSelected: true,
      lowestCompetingPrice: 900,
    });
    expect(simulateRank(offers, 's-x', 925, now)).toEqual({
      rank: 2,
      wouldBeSelected: false,
      lowestCompetingPrice: 900,
    });
  });

  it('no eligible offer: no buyer price, nobody selected', () => {
    expect(
      marketFor([offer({ offerId: 'a', stock: 0 }), offer({ offerId: 'b', status: 'inactive' })], 's-a', now),
    ).toEqual({ buyer_price: null, active_offers: 0, your_offer_selected: false });
    expect(marketFor([], 's-a', now)).toEqual({ buyer_price: null, active_offers: 0, your_offer_selected: false });
  });

  it('ties on price, health and activation go to the lower offer id, compared by characters', () => {
    const offers = [offer({ offerId: '01B' }), offer({ offerId: '01a' }), offer({ offerId: '01A' })];
    expect(rankOffers(offers, now).map((o) => o.offerId)).toEqual(['01A', '01B', '01a']);
  });

  it('simulation: the own offer is the candidate, with its health, cooldown and activation; a competitor never includes it', () => {
    const rival = offer({ offerId: 'r', price: 1000, activatedAt: '2026-01-02T00:00:00.000Z' });
    const own = (o: Partial<RoutableOffer>) =>
      offer({ offerId: 'm', supplierId: 'me', price: 1200, activatedAt: '2026-01-03T00:00:00.000Z', ...o });
    // activated after the rival: a tie on price and health goes to the rival
    expect(simulateRank([rival, own({})], 'me', 1000, now)).toEqual({
      rank: 2,
      wouldBeSelected: false,
      lowestCompetingPrice: 1000,
    });
    expect(simulateRank([rival, own({})], 'me', 999, now)).toEqual({
      rank: 1,
      wouldBeSelected: true,
      lowestCompetingPrice: 1000,
    });
    // below 70 or cooling down: first by price, but routing would still pass it over
    expect(simulateRank([rival, own({ health: 69 })], 'me', 999, now)).toEqual({
      rank: 1,
      wouldBeSelected: false,
      lowestCompetingPrice: 1000,
    });
    expect(simulateRank([rival, own({ cooldownUntil: '2026-01-05T12:00:00.000Z' })], 'me', 999, now)).toEqual({
      rank: 1,
      wouldBeSelected: false,
      lowestCompetingPrice: 1000,
    });
    // out of stock or a draft: the simulation is about price, stock and activation are the supplier's to add
    expect(simulateRank([rival, own({ stock: 0 })], 'me', 999, now)).toMatchObject({ rank: 1, wouldBeSelected: true });
    expect(simulateRank([rival, own({ status: 'draft', activatedAt: null })], 'me', 999, now)).toMatchObject({
      rank: 1,
      wouldBeSelected: true,
    });
    // an inactive own offer would come back at health 70 and lose a price tie to a healthier rival
    expect(simulateRank([rival, own({ status: 'inactive' })], 'me', 1000, now)).toMatchObject({ rank: 2 });
    expect(simulateRank([offer({ ...rival, health: 60 }), own({ status: 'inactive' })], 'me', 1000, now)).toMatchObject(
      { rank: 1, lowestCompetingPrice: null },
    );
    // a new offer: health 100, activated now, after every existing offer
    expect(simulateRank([rival], 'me', 1000, now)).toMatchObject({ rank: 2, wouldBeSelected: false });
  });

  it('property: the ranking is exactly the eligible offers, each one routed before the next by price, then health, then activation', () => {
    const arbitraryOffer = fc.record({
      offerId: fc.string({ minLength: 1, maxLength: 4 }),
      supplierId: fc.constantFrom('s1', 's2', 's3'),
      status: fc.constantFrom('draft', 'active', 'active', 'inactive'),
      price: fc.integer({ min: 1, max: 5 }),
      health: fc.integer({ min: 60, max: 100 }),
      cooldownUntil: fc.option(
        fc.constantFrom('2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z'),
        { nil: null },
      ),
      stock: fc.integer({ min: 0, max: 2 }),
      activatedAt: fc.option(fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(arbitraryOffer, { selector: (o) => o.offerId, maxLength: 12 }), (offers) => {
        const ranked = rankOffers(offers, now);
        const eligible = offers.filter(
          (o) =>
            o.status === 'active' &&
            o.health >= 70 &&
            o.stock > 0 &&
            (o.cooldownUntil === null || o.cooldownUntil <= now.toISOString()),
        );
        expect(new Set(ranked.map((o) => o.offerId))).toEqual(new Set(eligible.map((o) => o.offerId)));
        for (const o of offers) expect(isEligible(o, now)).toBe(eligible.includes(o));
        for (let i = 1; i < ranked.length; i++) {
          const [a, b] = [ranked[i - 1]!, ranked[i]!];
          const before =
            a.price < b.price ||
            (a.price === b.price &&
              (a.health > b.health || (a.health === b.health && (a.activatedAt ?? '') <= (b.activatedAt ?? ''))));
          expect(before).toBe(true);
        }
        const market = marketFor(offers, 's1', now);
        expect(market).toEqual({
          buyer_price: ranked[0] ? { amount: ranked[0].price, currency: 'EUR' } : null,
          active_offers: eligible.length,
          your_offer_selected: ranked[0]?.supplierId === 's1',
        });
      }),
    );
  });
});
