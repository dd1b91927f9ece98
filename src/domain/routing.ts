import { byCodeUnits } from './code-units.js';
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
const INITIAL_OFFER_HEALTH = 100;
const REACTIVATION_OFFER_HEALTH = 70;

/** Active, health at least 70, not in cooldown, stock above 0. */
export const isEligible = (o: RoutableOffer, now: Date): boolean =>
  o.status === 'active' &&
  o.health >= MIN_ROUTING_HEALTH &&
  (o.cooldownUntil === null || new Date(o.cooldownUntil).getTime() <= now.getTime()) &&
  o.stock > 0;

/** The lowest price wins; ties go to higher health, then to the earlier activation. */
export const compareForRouting = (a: RoutableOffer, b: RoutableOffer): number =>
  a.price - b.price ||
  b.health - a.health ||
  byCodeUnits(a.activatedAt ?? '', b.activatedAt ?? '') ||
  byCodeUnits(a.offerId, b.offerId);

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
 * Where an offer of this supplier would stand at `price`. Competitors are the other
 * suppliers' offers as they are. The candidate is the supplier's own offer on the product
 * (any status) at the new price, assumed active and stocked: an active one keeps its
 * health, cooldown and activation; an inactive one would restart at 70 when activated
 * again; without an offer it is a new one (health 100, activated now). `rank` is its place
 * in the routing order by price, health and activation; it would be selected when that
 * place is first and nothing else (health below 70, a running cooldown) excludes it.
 */
export const simulateRank = (offers: RoutableOffer[], supplierId: string, price: number, now: Date) => {
  const competitors = rankOffers(
    offers.filter((o) => o.supplierId !== supplierId),
    now,
  );
  const own = offers.find((o) => o.supplierId === supplierId);
  const active = own?.status === 'active';
  const candidate: RoutableOffer = {
    // a new offer would get an id later than every existing one
    offerId: own?.offerId ?? '~',
    supplierId,
    status: 'active',
    price,
    health:
      own === undefined ? INITIAL_OFFER_HEALTH : own.status === 'inactive' ? REACTIVATION_OFFER_HEALTH : own.health,
    cooldownUntil: active ? own.cooldownUntil : null,
    stock: 1,
    activatedAt: active ? own.activatedAt : now.toISOString(),
  };
  const rank = 1 + competitors.filter((c) => compareForRouting(c, candidate) < 0).length;
  const lowest = competitors.reduce<number | null>((low, c) => (low === null || c.price < low ? c.price : low), null);
  return { rank, wouldBeSelected: rank === 1 && isEligible(candidate, now), lowestCompetingPrice: lowest };
};
