import type { Money } from './money.js';

/** What routing needs to know about an offer. */
export interface RoutableOffer {
  offerId: string;
  supplierId: string;
  status: string;
  price: number;
  health: number;
  cooldownUntil: string | null;
  /** Uploaded: available keys. Declared: the declared count (a routing signal only). */
  stock: number;
  activatedAt: string | null;
}

export const MIN_ROUTING_HEALTH = 70;

/** Active, health at least 70, not in cooldown, stock above 0. */
export const isEligible = (o: RoutableOffer, now: Date): boolean =>
  o.status === 'active' &&
  o.health >= MIN_ROUTING_HEALTH &&
  (o.cooldownUntil === null || new Date(o.cooldownUntil).getTime() <= now.getTime()) &&
  o.stock > 0;

/** The lowest price wins; ties go to higher health, then to the earlier activation. */
export const compareForRouting = (a: RoutableOffer, b: RoutableOffer): number =>
  a.price - b.price || b.health - a.health || byCodeUnits(a.activatedAt ?? '', b.activatedAt ?? '') || byCodeUnits(a.offerId, b.offerId);

/** ISO timestamps and ULIDs order by their characters; a locale's collation would not. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Eligible offers in routing order: the first one gets the next order. */
export const rankOffers = (offers: RoutableOffer[], now: Date): RoutableOffer[] =>
  offers.filter((o) => isEligible(o, now)).sort(compareForRouting);

export interface Market {
  buyer_price: Money | null;
  active_offers: number;
  your_offer_selected: boolean;
}

/** A product's market as one supplier sees it. */
export const marketFor = (offers: RoutableOffer[], supplierId: string, now: Date): Market => {
  const ranked = rankOffers(offers, now);
  const best = ranked[0];
  return {
    buyer_price: best ? { amount: best.price, currency: 'EUR' } : null,
    active_offers: ranked.length,
    your_offer_selected: best?.supplierId === supplierId,
  };
};

/**
 * Where an offer of this supplier would stand at `price`: its own current offer is
 * replaced by the candidate (keeping that offer's health and activation), competitors
 * stay as they are.
 */
export const simulateRank = (offers: RoutableOffer[], supplierId: string, price: number, now: Date) => {
  const competitors = rankOffers(
    offers.filter((o) => o.supplierId !== supplierId),
    now,
  );
  const own = offers.find((o) => o.supplierId === supplierId);
  const candidate: RoutableOffer = {
    // a new offer would get an id later than every existing one
    offerId: own?.offerId ?? '~',
    supplierId,
    status: 'active',
    price,
    health: own?.health ?? 100,
    cooldownUntil: null,
    stock: 1,
    activatedAt: own?.activatedAt ?? now.toISOString(),
  };
  const rank = 1 + competitors.filter((c) => compareForRouting(c, candidate) < 0).length;
  const lowest = competitors.reduce<number | null>((low, c) => (low === null || c.price < low ? c.price : low), null);
  return { rank, wouldBeSelected: rank === 1, lowestCompetingPrice: lowest };
};
