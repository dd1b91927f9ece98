import type { CommandDeps } from '../commands/context.js';
import { stateOf } from '../commands/handle.js';
import { repriceProduct } from '../commands/pricing.js';
import { type OfferEvent, offerDecider } from '../domain/offer.js';
import type { PricingRuleEvent } from '../domain/pricing-rule.js';
import { formatPosition, parsePosition, type RecordedEvent } from '../eventstore/port.js';
import { projector } from '../projections/projector.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { scheduleTimer } from './schedule.js';
import { timerCaller } from './caller.js';
import type { Timers } from './timers.js';
import { offerStream } from '../commands/streams.js';

/**
 * The repricer: a market change on a product (an offer created, activated, deactivated,
 * its price changed by hand or by a rule, a cooldown starting or ending, a rule set) runs
 * every pricing rule of that product once. A rule's own change is a market change too, so
 * rules answer each other until none moves: they settle because beating is strict and
 * floors hold (domain/pricing-rule.ts), and the hourly change limit bounds them anyway.
 */
const MARKET_CHANGES: (OfferEvent | PricingRuleEvent)['type'][] = [
  'OfferCreated',
  'OfferActivated',
  'OfferDeactivated',
  'OfferPriceChanged',
  'OfferCooldownStarted',
  'OfferCooldownEnded',
  'PricingRuleSet',
];

const marketChanged = (_db: unknown, e: RecordedEvent<{ offerId: string }>) =>
  scheduleTimer('pricing.market-changed', e.id, e.createdAt, {
    offerId: e.data.offerId,
    position: formatPosition(e.position),
  });

export const pricingProcess = projector<OfferEvent | PricingRuleEvent>({
  name: 'pricing-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    ...Object.fromEntries(MARKET_CHANGES.map((type) => [type, marketChanged])),
    // a hand-made change of anything but the price is no market change
    OfferUpdated: (db, e) => (e.data.changes.price !== undefined ? marketChanged(db, e) : undefined),
  },
});

export const registerPricingTimers = (timers: Timers, deps: CommandDeps, projections: ProjectionRunner) => {
  const reprice = async (offerId: string, t: { kind: string; key: string }) => {
    const offer = await stateOf(deps, offerStream(offerId), offerDecider);
    if (!offer) return;
    const { deferred } = await repriceProduct(deps, offer.productId, timerCaller(t));
    // a rule held back by its hourly limit looks at the market again when the limit allows
    for (const d of deferred) await timers.schedule('pricing.limit-lifted', d.offerId, d.at, { offerId: d.offerId });
  };
  timers.on('pricing.market-changed', async (t) => {
    const { offerId, position } = t.payload;
    // the rules read the market from the read models, as of this change at least
    await projections.waitFor(parsePosition(position), 30_000);
    await reprice(offerId, t);
  });
  timers.on('pricing.limit-lifted', async (t) => reprice(t.payload.offerId, t));
};
