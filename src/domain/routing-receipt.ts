import type { Decider } from './decider.js';
import { HEALTH } from './offer-health.js';
import { compareForRouting, isEligible, type RoutableOffer } from './routing.js';

/**
 * A routing receipt: what one checkout's routing decided and from what, recorded with the
 * order so that it can be replayed (`replayLine`) and explained to each candidate offer's
 * supplier (`standingOf`) without showing a rival's identity.
 */

/**
 * The rule that ordered a line's candidates. `lowest_price`: eligible offers by price, then
 * health, then the earlier activation (routing.ts, `compareForRouting`). `own_offer`: a
 * sandbox order, served by the supplier's own offer whatever the market.
 */
export type RoutingRule = 'lowest_price' | 'own_offer';

/** A candidate as routing saw it: its price, health, cooldown and stock signal at the decision. */
export type Candidate = RoutableOffer & { stockMode: 'uploaded' | 'declared' };

/** Why an offer routing reached gave nothing: its supplier held nothing, or its keys were gone. */
export type PassedOverWhy = 'supplier_declined' | 'no_keys' | 'not_active';

export interface LineReceipt {
  productId: string;
  quantity: number;
  rule: RoutingRule;
  /** When the ranking read the candidates: eligibility (a cooldown running) is judged then. */
  rankedAt: string;
  candidates: Candidate[];
  /** The offers that served the line, in the order routing reached them. */
  served: { offerId: string; quantity: number }[];
  /** Offers routing reached before the last served one that gave nothing. */
  passedOver: { offerId: string; why: PassedOverWhy }[];
}

export interface RoutingReceipt {
  orderId: string;
  at: string;
  lines: LineReceipt[];
}

export type RoutingReceiptEvent = { type: 'OrderRouted'; data: RoutingReceipt };
export type RoutingReceiptCommand = { type: 'RecordRouting'; data: RoutingReceipt };

/** A receipt is written once, with the order's placement; a checkout run again writes nothing. */
export const routingReceiptDecider: Decider<RoutingReceipt | null, RoutingReceiptCommand, RoutingReceiptEvent> = {
  initialState: null,
  evolve: (_state, event) => event.data,
  decide: (command, state) => (state ? [] : [{ type: 'OrderRouted', data: command.data }]),
};

/** The routing order a line's rule gives its candidates at the decision's moment. */
export const routingOrder = (line: Pick<LineReceipt, 'rule' | 'candidates' | 'rankedAt'>): Candidate[] =>
  line.rule === 'own_offer'
    ? line.candidates
    : line.candidates.filter((c) => isEligible(c, new Date(line.rankedAt))).sort(compareForRouting);

/**
 * The line decided again from its recorded inputs: the routing order, less the offers that
 * gave nothing when reached. Its first offer is the winner; the recorded one must be it.
 */
export const replayLine = (line: LineReceipt) => {
  const passed = new Set(line.passedOver.map((p) => p.offerId));
  const order = routingOrder(line).filter((c) => !passed.has(c.offerId));
  const winners = order.slice(0, line.served.length).map((c) => c.offerId);
  const recorded = line.served.map((s) => s.offerId);
  return {
    winner: winners[0] ?? null,
    recordedWinner: recorded[0] ?? null,
    agrees: winners.length === recorded.length && winners.every((id, i) => id === recorded[i]),
  };
};

export type StandingReason =
  | 'won'
  | 'lower_price'
  | 'higher_health'
  | 'earlier_activation'
  | 'health_below_minimum'
  | 'in_cooldown'
  | 'no_stock_declared'
  | 'no_keys'
  | 'not_active'
  | 'supplier_declined'
  | 'not_needed';

/** Where one offer stood in one routed line: never a rival's id, name or exact health. */
export interface Standing {
  won: boolean;
  quantity: number;
  reason: StandingReason;
  /** Its place among the offers routing would serve (1 = first); null when it was not eligible. */
  rank: number | null;
  eligible: number;
  /** How far above the winning price, in minor units; null when not ranked. */
  aboveWinner: number | null;
  explanation: string;
}

const SUFFIXES: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' };
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (SUFFIXES[n % 10] ?? 'th')}`;

const euros = (minor: number) => `${(minor / 100).toFixed(2)} €`;

/** Why `offerId` won or lost this line, in words a supplier reads. */
export const standingOf = (line: LineReceipt, offerId: string): Standing => {
  const order = routingOrder(line);
  const index = order.findIndex((c) => c.offerId === offerId);
  const rank = index < 0 ? null : index + 1;
  const winner = line.served[0] && order.find((c) => c.offerId === line.served[0]!.offerId);
  const own = line.candidates.find((c) => c.offerId === offerId);
  const aboveWinner = rank !== null && winner && own ? own.price - winner.price : null;
  const base = { rank, eligible: order.length, aboveWinner };
  const served = line.served.find((s) => s.offerId === offerId);
  if (served)
    return {
      ...base,
      won: true,
      quantity: served.quantity,
      reason: 'won',
      explanation:
        line.served.length > 1 ? `won ${served.quantity} of ${line.quantity} (shared)` : `won: 1st of ${order.length}`,
    };
  const lost = (reason: StandingReason, explanation: string): Standing => ({
    ...base,
    won: false,
    quantity: 0,
    reason,
    explanation,
  });
  if (!own || own.status !== 'active') return lost('not_active', 'not active then');
  if (own.health < HEALTH.routingMinimum) return lost('health_below_minimum', `health under ${HEALTH.routingMinimum}`);
  if (own.cooldownUntil !== null && new Date(own.cooldownUntil).getTime() > new Date(line.rankedAt).getTime())
    return lost('in_cooldown', 'in cooldown');
  if (own.stock <= 0)
    return own.stockMode === 'declared'
      ? lost('no_stock_declared', 'no stock declared')
      : lost('no_keys', 'no keys in stock');
  const passed = line.passedOver.find((p) => p.offerId === offerId);
  if (passed)
    return passed.why === 'supplier_declined'
      ? lost('supplier_declined', 'your endpoint did not hold the reservation')
      : passed.why === 'not_active'
        ? lost('not_active', 'not active then')
        : lost('no_keys', 'no keys left when reached');
  const place = rank === null ? '' : `you were ${ordinal(rank)} of ${order.length}`;
  if (!winner || aboveWinner === null) return lost('not_needed', `the order was served before reaching you: ${place}`);
  if (aboveWinner > 0) return lost('lower_price', `a lower price: ${place}, ${euros(aboveWinner)} above`);
  if (winner.health > own.health) return lost('higher_health', `a higher health at the same price: ${place}`);
  if (winner.health === own.health && (winner.activatedAt ?? '') < (own.activatedAt ?? ''))
    return lost('earlier_activation', `an earlier activation at the same price and health: ${place}`);
  return lost('not_needed', `the order was served before reaching you: ${place}`);
};
