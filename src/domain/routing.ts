import { byCodeUnits } from './code-units.js';
import { DomainError } from './errors.js';
import type { Money } from './money.js';
import type { OfferState } from './offer.js';
import type { OrderItem } from './order.js';
import { HEALTH } from './offer-health.js';

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

export const MIN_ROUTING_HEALTH = HEALTH.routingMinimum;

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

/** The lowest price among the offers routing would consider now; null when none would be. */
export const lowestRoutable = (offers: RoutableOffer[], now: Date): number | null =>
  rankOffers(offers, now)[0]?.price ?? null;

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
    health: own === undefined ? HEALTH.start : own.status === 'inactive' ? HEALTH.reactivation : own.health,
    cooldownUntil: active ? own.cooldownUntil : null,
    stock: 1,
    activatedAt: active ? own.activatedAt : now.toISOString(),
  };
  const rank = 1 + competitors.filter((c) => compareForRouting(c, candidate) < 0).length;
  const lowest = competitors.reduce<number | null>((low, c) => (low === null || c.price < low ? c.price : low), null);
  return { rank, wouldBeSelected: rank === 1 && isEligible(candidate, now), lowestCompetingPrice: lowest };
};

/** A checkout line as routing serves it: its candidate offers in routing order (see `rankOffers`). */
export interface LineToRoute {
  productId: string;
  quantity: number;
  /** A top-up is validated and executed whole, by one supplier, from declared stock. */
  topup: boolean;
  offers: readonly OfferState[];
}

/** What a supplier holds for a share of a line: a declared reservation, or a validated top-up operation. */
export type Hold =
  { source: 'declared'; reservationId: string } | { source: 'topup'; topup: NonNullable<OrderItem['topup']> };

/** A supplier's answer when routing asked its offer for `quantity`: a hold, or none (the next offer is tried). */
export interface SupplierAnswer {
  offerId: string;
  quantity: number;
  hold: Hold | null;
}

/**
 * One offer's share of a line: uploaded keys (`hold` null) or what its supplier holds.
 * `reached`: the offer's place in the line's routing order.
 */
export interface Share {
  offer: OfferState;
  quantity: number;
  hold: Hold | null;
  reached: number;
}

export type LineRoute =
  | { kind: 'routed'; shares: Share[] }
  /** The supplier of `offer` must answer for `quantity` before the line can be routed further. */
  | { kind: 'ask'; offer: OfferState; quantity: number }
  | { kind: 'short'; error: DomainError };

/**
 * The routing rule for one offer: how many of a line's `remaining` units it is asked for (0:
 * it is passed over). Uploaded stock gives what its inventory holds (`keys`); declared stock
 * is asked for what it declares, a signal only (its supplier's answer decides); a top-up
 * goes whole to the first declared offer that validates it.
 */
export const askOf = (line: LineToRoute, offer: OfferState, remaining: number, keys: () => number): number => {
  if (offer.status !== 'active') return 0;
  if (line.topup) return offer.stockMode === 'declared' ? line.quantity : 0;
  if (offer.stockMode === 'declared') return Math.min(remaining, offer.declaredStock ?? 0);
  return Math.min(remaining, keys());
};

/**
 * Routes one line across its offers in routing order: as much as the best offer gives, the
 * rest from the next (a share per offer). `keysOf` says how many keys an uploaded offer's
 * inventory gives; a declared offer's share needs its supplier's answer among `answers`, and
 * the route asks for it when it is missing. A line its offers cannot cover is short.
 */
export const routeLine = (
  line: LineToRoute,
  answers: readonly SupplierAnswer[],
  keysOf: (offer: OfferState, reached: number, remaining: number) => number,
): LineRoute => {
  const shares: Share[] = [];
  let remaining = line.quantity;
  for (const [reached, offer] of line.offers.entries()) {
    if (remaining === 0) break;
    const quantity = askOf(line, offer, remaining, () => keysOf(offer, reached, remaining));
    if (quantity === 0) continue;
    if (offer.stockMode === 'uploaded') {
      shares.push({ offer, quantity, hold: null, reached });
      remaining -= quantity;
      continue;
    }
    const answer = answers.find((a) => a.offerId === offer.id && a.quantity === quantity);
    if (!answer) return { kind: 'ask', offer, quantity };
    if (!answer.hold) continue;
    shares.push({ offer, quantity, hold: answer.hold, reached });
    remaining -= quantity;
  }
  return remaining > 0 ? { kind: 'short', error: shortOf(line, remaining) } : { kind: 'routed', shares };
};

const shortOf = (line: LineToRoute, remaining: number) =>
  new DomainError(
    'out_of_stock',
    `not enough stock for product ${line.productId}: ${line.quantity - remaining} of ${line.quantity} available`,
    { product_id: line.productId },
  );
