import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { offerStream } from '../../../commands/streams.js';
import { type Console, ROUTE, seg } from '../core.js';
import { field, type FormState, select } from '../forms.js';
import { csrfField, type Html, html, money, statusPill, when } from '../html.js';
import { flash, loadOr, render, signedIn } from '../page.js';
import { takeRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';
import { offerTimeline } from '../timeline.js';
import { termsFields } from './offer-form.js';

const SCENARIOS = [
  ['paid', 'Paid'],
  ['abandoned', 'Abandoned (never paid)'],
  ['refunded', 'Refunded'],
  ['disputed', 'Disputed'],
] as const;

const button = (s: ConsoleSession, action: string, text: string, cls = '') =>
  html`<form class="inline" method="post" action="${action}">${csrfField(s.csrf)}<button type="submit" class="${cls}">${text}</button></form>`;

const stats = (
  o: any,
  product: any,
) => html`<div class="card stats"><div class="stat">Price<b>${money(o.price)}</b></div><div class="stat">Stock<b>${o.stock_mode === 'declared' ? (o.stock.declared ?? 0) : (o.stock.available ?? 0)}</b></div>
<div class="stat">Health<b>${o.health.score}</b>${o.health.cooldown_until ? html`<small>cooldown until ${when(o.health.cooldown_until)}</small>` : ''}</div>
<div class="stat">Market<b>${product?.market?.your_offer_selected ? 'selected' : 'not selected'}</b><small>buyer pays ${money(product?.market?.buyer_price)}</small></div></div>`;

/** A declared offer's stock and fulfilment secret. */
const declaredForms = (
  s: ConsoleSession,
  o: any,
  state: FormState,
) => html`<div class="card"><h2>Declared stock</h2><form class="row" method="post" action="/console/offers/${o.id}/stock">${csrfField(s.csrf)}
${field({ name: 'declared_stock', label: 'Declared stock', value: o.stock.declared ?? 0, type: 'number', attrs: html` min="0"`, state })}<button type="submit">Set declared stock</button></form>
<h2>Fulfilment secret</h2><p>Your fulfilment API checks our calls with it. A new one is shown once.</p>${button(s, `/console/offers/${o.id}/rotate-secret`, 'Rotate fulfilment secret', 'plain')}</div>`;

/** The sandbox order form, with the product's own fields (a top-up's account). */
const sandboxForm = (
  s: ConsoleSession,
  o: any,
  product: any,
  state: FormState,
) => html`<div class="card"><h2>Sandbox order</h2><p>Runs a test order against this offer through the whole pipeline.</p>
<form method="post" action="/console/offers/${o.id}/sandbox-order">${csrfField(s.csrf)}<div class="row">
${select({ name: 'scenario', label: 'Scenario', options: SCENARIOS, state })}
${field({ name: 'quantity', label: 'Quantity', value: 1, type: 'number', attrs: html` min="1" max="100"`, state })}
${field({ name: 'buyer_country', label: 'Buyer country', value: 'DE', hint: 'Two letters, like DE', state })}
${(product?.form_fields ?? []).map((f: any) => field({ name: `form_${f.key}`, label: f.label, hint: f.help_text ?? undefined, state }))}</div>
<p><button type="submit">Place sandbox order</button></p></form></div>`;

/** The price field's hint: under a pricing rule, that a price by hand is refused, said before it is. */
const priceHint = (rule: any) =>
  rule
    ? `Set by your pricing rule, between ${money(rule.floor)} and ${money(rule.ceiling)}: a price typed here is refused while the rule is on`
    : undefined;

const offerBody = (
  c: Console,
  s: ConsoleSession,
  o: any,
  product: any,
  events: any[],
  state: FormState,
  rule: any,
): Html => html`<h1>${product?.name ?? o.product_id} ${statusPill(o.status)}</h1>${stats(o, product)}
<div class="card row">${o.status === 'active' ? button(s, `/console/offers/${o.id}/deactivate`, 'Deactivate') : button(s, `/console/offers/${o.id}/activate`, 'Activate')}
${o.stock_mode === 'uploaded' ? html`<a href="/console/offers/${o.id}/inventory">Inventory and key upload</a>` : ''}
<a href="/console/offers/${o.id}/pricing">Competition and pricing rule</a><a href="/console/offers/${o.id}/routing">Routing: orders won and lost</a><a href="/console/orders?offer_id=${o.id}">Orders of this offer</a></div>
<div class="card"><h2 style="margin-top:0">Edit offer</h2><form method="post" action="/console/offers/${o.id}/edit">${csrfField(s.csrf)}<input type="hidden" name="price_shown" value="${o.price.amount}">
${termsFields(state, o, o.stock_mode === 'declared', priceHint(rule))}${rule ? html`<p><a href="/console/offers/${o.id}/pricing">Change or remove the pricing rule</a></p>` : ''}<p><button type="submit">Save changes</button></p></form></div>
${o.stock_mode === 'declared' ? declaredForms(s, o, state) : ''}${c.sandbox ? sandboxForm(s, o, product, state) : ''}
<h2>Timeline</h2><div class="card">${offerTimeline(events)}</div>`;

/** The offer's page; `state` shows a refused form again with its values and words. */
export const offerPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  id: string,
  given: FormState = {},
  givenStatus = 200,
) => {
  // a refused form redirected here shows its values and its errors once
  const kept = takeRefused(c, req, reply, s, `/console/offers/${seg(id)}`);
  const state = kept?.state ?? given;
  const status = kept?.status ?? givenStatus;
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const o = offer.body;
  const product = (await c.api(req, s, 'GET', `/products/${seg(o.product_id)}`)).body;
  const rule = await c.api(req, s, 'GET', `/offers/${seg(o.id)}/pricing-rule`);
  // the API confirmed the offer is this supplier's: its own stream is its history
  const events = await c.services.store.readStream(offerStream(o.id));
  const options = {
    title: product?.name ?? 'Offer',
    active: 'offers',
    ...flash(req),
    ...(state.refusal && { error: state.refusal.message }),
  };
  return render(
    c,
    reply,
    s,
    options,
    offerBody(c, s, o, product, [...events], state, rule.status === 200 ? rule.body : undefined),
    status,
  );
};

export const registerOffer = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return offerPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
