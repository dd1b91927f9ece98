import { type Html, html, money, when, whenText } from './html.js';

/** Why health moved, in words (the reasons are the domain's, docs/decisions.md: offer health). */
const HEALTH_REASONS: Record<string, string> = {
  fast_delivery: 'delivered within 60 seconds',
  delivery: 'delivered within the allocation window',
  call_failure: 'a call to your fulfilment API failed',
  out_of_stock: 'your fulfilment API answered out of stock',
  healthcheck_failed: 'the healthcheck failed',
  topup_validate_failure: 'a top-up validation failed',
  topup_execute_failed: 'a top-up failed for good',
  missed_window: 'the 10-minute allocation window was missed',
  healthcheck_passed: 'the healthcheck passed',
  health_exhausted: 'health ran out',
};

const reason = (r: unknown) => HEALTH_REASONS[String(r)] ?? String(r ?? '').replace(/_/g, ' ');
const eur = (minor: unknown) => money({ amount: Number(minor), currency: 'EUR' });

type Event = { type: string; data: unknown; createdAt: Date };

/** One offer event as a line a supplier reads; `activatedBefore`: a later activation is a reactivation. */
const offerLine = (e: Event, activatedBefore: boolean): string | undefined => {
  const d = (e.data ?? {}) as Record<string, any>;
  switch (e.type) {
    case 'OfferCreated':
      return `created: ${d.stockMode ?? ''} stock at ${eur(d.price?.amount ?? d.price)}`;
    case 'OfferActivated':
      return activatedBefore ? `reactivated: health restarts at ${d.health}` : `activated: health ${d.health}`;
    case 'OfferDeactivated':
      return `deactivated: ${reason(d.reason)}`;
    case 'OfferHealthChanged':
      return `health ${d.delta > 0 ? '+' : ''}${d.delta} to ${d.health}: ${reason(d.reason)}`;
    case 'OfferCooldownStarted':
      return `cooldown until ${whenText(d.until)}: ${reason(d.reason)}`;
    case 'OfferCooldownEnded':
      return `cooldown ended: health restarts at ${d.health}`;
    case 'OfferPriceChanged':
      return `price ${eur(d.previousPrice)} to ${eur(d.price)}${d.reason ? ` (${String(d.reason).replace(/_/g, ' ')})` : ''}`;
    case 'OfferUpdated':
      return `terms changed: ${Object.keys(d.changes ?? {})
        .map((k) => k.replace(/([A-Z])/g, ' $1').toLowerCase())
        .join(', ')}`;
    default:
      return undefined;
  }
};

export const humanize = (type: string) =>
  type
    .replace(/^(Offer|Order)/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase() || type;

/** The facts of an event worth a line on the timeline; nothing that names a secret or a key value. */
export const summary = (data: unknown): Html => {
  if (typeof data !== 'object' || data === null) return html``;
  const facts = Object.entries(data as Record<string, unknown>)
    .filter(
      ([k, v]) =>
        k !== 'at' &&
        !/secret|sealed|token|value|key|url|id$/i.test(k) &&
        v !== null &&
        (typeof v !== 'object' || (v as { amount?: unknown }).amount !== undefined),
    )
    .slice(0, 6)
    .map(
      ([k, v]) =>
        `${k.replace(/([A-Z])/g, ' $1').toLowerCase()}: ${typeof v === 'object' ? money(v as { amount: number; currency: string }) : String(v)}`,
    );
  return facts.length ? html`<br><small>${facts.join(' · ')}</small>` : html``;
};

/** An offer's history, newest first, each health change with its reason. */
export const offerTimeline = (events: readonly Event[]): Html => {
  let activated = false;
  const lines = events.map((e) => {
    const line = offerLine(e, activated);
    if (e.type === 'OfferActivated') activated = true;
    return html`<li>${line ? html`<strong>${line}</strong>` : html`<strong>${humanize(e.type)}</strong>`} <small>${when(e.createdAt.toISOString())}</small>${line ? '' : summary(e.data)}</li>`;
  });
  return html`<ul class="timeline">${lines.reverse()}</ul>`;
};
