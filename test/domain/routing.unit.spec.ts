import { describe, expect, it } from 'vitest';
import { marketFor, rankOffers, type RoutableOffer, simulateRank } from '../../src/domain/routing.js';

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
    expect(marketFor(offers, 's-a', now)).toEqual({ buyer_price: { amount: 900, currency: 'EUR' }, active_offers: 2, your_offer_selected: true });
    expect(marketFor(offers, 's-b', now).your_offer_selected).toBe(false);
    expect(simulateRank(offers, 's-b', 899, now)).toEqual({ rank: 1, wouldBeSelected: true, lowestCompetingPrice: 900 });
    expect(simulateRank(offers, 's-x', 925, now)).toEqual({ rank: 2, wouldBeSelected: false, lowestCompetingPrice: 900 });
  });
});
