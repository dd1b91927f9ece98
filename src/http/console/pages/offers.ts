import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { field, type FormState, select } from '../forms.js';
import { csrfField, html, money, statusPill, when } from '../html.js';
import type { ConsoleSession } from '../session.js';
import { redirectToSecret } from '../shown-once.js';
import { flash, loadOr, params, posted, render, signedIn } from '../page.js';
import { OFFER_FIELDS, priceOf, termsFields, termsOf } from './offer-form.js';

const KINDS = [
  ['uploaded', 'Uploaded keys'],
  ['declared', 'Declared stock (your fulfilment API)'],
  ['topup', 'Top-up (your fulfilment API)'],
] as const;

const offerRow = (
  o: any,
  p: any,
) => html`<tr><td><a href="/console/offers/${o.id}">${p?.name ?? o.product_id}</a><br><small>${o.external_ref} · ${o.stock_mode}</small></td>
<td>${statusPill(o.status)}</td><td>${money(o.price)}</td>
<td>${o.stock_mode === 'declared' ? `declared ${o.stock.declared ?? 0}` : `${o.stock.available ?? 0} available`}</td>
<td>${o.health.score}${o.health.cooldown_until ? html`<br><small>cooldown until ${when(o.health.cooldown_until)}</small>` : ''}</td>
<td>${statusPill(o.health.routing_eligible ? 'eligible' : 'not eligible')}</td>
<td>${p?.market?.your_offer_selected ? statusPill('selected') : 'not selected'}<br><small>buyer pays ${money(p?.market?.buyer_price)}</small></td></tr>`;

const offersPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const list = await loadOr(c, req, reply, s, 'page', '/offers?limit=100');
  if (!list) return;
  const offers: any[] = list.body.data;
  const products = new Map<string, any>();
  for (const id of new Set(offers.map((o) => String(o.product_id))))
    products.set(id, (await c.api(req, s, 'GET', `/products/${seg(id)}`)).body);
  return render(
    c,
    reply,
    s,
    { title: 'Offers', active: 'offers', ...flash(req) },
    html`<div class="row" style="justify-content:space-between"><h1>Offers</h1><a href="/console/offers/new">Create offer</a></div>
${offers.length === 0 ? html`<div class="card">No offers yet. <a href="/console/offers/new">Create your first offer</a> on a product of the catalogue.</div>` : ''}
<div class="scroll"><table><thead><tr><th>Product</th><th>Status</th><th>Price</th><th>Stock</th><th>Health</th><th>Routing</th><th>Market</th></tr></thead><tbody>
${offers.map((o) => offerRow(o, products.get(String(o.product_id))))}
</tbody></table></div>`,
  );
};

type Kind = (typeof KINDS)[number][0];
const kindOf = (v: unknown): Kind => KINDS.find(([k]) => k === v)?.[0] ?? 'uploaded';

/**
 * The create-offer form of one stock mode: the modes are links (no script needed), and the
 * form shows that mode's fields only, and the products it may be made on: sellable, of the
 * mode's type (top-ups for a top-up offer, keys otherwise), without an offer of this
 * supplier already (one offer per product).
 */
const newOfferPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  state: FormState = {},
  status = 200,
) => {
  const kind = kindOf(state.values?.kind ?? params(req).kind);
  const catalogue = await loadOr(c, req, reply, s, 'page', '/products?limit=200');
  if (!catalogue) return;
  const mine = await loadOr(c, req, reply, s, 'page', '/offers?limit=200');
  if (!mine) return;
  const taken = new Set((mine.body.data as any[]).map((o) => String(o.product_id)));
  const products = (catalogue.body.data as any[]).filter(
    (p) => p.status === 'sellable' && (p.type === 'topup') === (kind === 'topup') && !taken.has(String(p.id)),
  );
  const options = [
    ['', products.length === 0 ? 'No product left for this stock mode' : 'Choose a product'] as const,
    ...products.map((p) => [p.id, `${p.name} · ${p.platform} · ${p.region}`] as const),
  ];
  const declared = kind !== 'uploaded';
  return render(
    c,
    reply,
    s,
    { title: 'Create offer', active: 'offers', ...(state.refusal && { error: state.refusal.message }) },
    html`<h1>Create offer</h1><nav class="card row" aria-label="Stock mode"><span>Stock:</span>${KINDS.map(([k, label]) => (k === kind ? html`<strong aria-current="page">${label}</strong>` : html`<a href="/console/offers/new?kind=${k}">${label}</a>`))}</nav>
<form class="card" method="post" action="/console/offers">${csrfField(s.csrf)}<input type="hidden" name="kind" value="${kind}">
<div class="row">${select({ name: 'product_id', label: 'Product', options, hint: `${products.length} sellable product${products.length === 1 ? '' : 's'} without an offer of yours`, state })}</div>
${termsFields(state, undefined, declared)}
${declared ? html`<div class="row">${field({ name: 'declared_stock', label: 'Declared stock', type: 'number', attrs: html` min="0"`, hint: 'How many you can deliver now; 0 or empty until you set it', state })}</div>` : html`<p class="hint">After creating it, upload its keys on the offer's page (up to 1,000 per upload; larger files as an import).</p>`}
<p><button type="submit">Create offer</button></p></form>`,
    status,
  );
};

/**
 * Every refusal at once: a price the console cannot read is still sent (as nothing, which
 * the API refuses too), so that the API's word on every other field comes back with it.
 */
const createOffer = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const form = req.body as Form;
  const declared = kindOf(one(form, 'kind')) !== 'uploaded';
  const unreadablePrice = Number.isNaN(priceOf(form));
  const declaredStock = one(form, 'declared_stock');
  const answer = await c.api(req, s, 'POST', '/offers', {
    product_id: one(form, 'product_id'),
    stock_mode: declared ? 'declared' : 'uploaded',
    ...termsOf(form, declared),
    ...(declared && declaredStock !== '' && { declared_stock: Number(declaredStock) }),
  });
  if (answer.status >= 300) {
    const refusal = refusalOf(answer, OFFER_FIELDS);
    if (unreadablePrice) refusal.fields.price = 'Price must be an amount in euros, like 19.99.';
    return newOfferPage(c, req, reply, s, { values: form, refusal }, answer.status);
  }
  const secret: string | undefined = answer.body.fulfilment?.secret;
  if (!secret)
    return reply.redirect(`/console/offers/${seg(answer.body.id)}?notice=${encodeURIComponent('Offer created.')}`, 303);
  return redirectToSecret(c, req, reply, s, {
    title: 'Offer created',
    active: 'offers',
    notice: 'Offer created.',
    intro: 'Your fulfilment API checks our calls with this secret.',
    secret,
    links: [[`/console/offers/${seg(answer.body.id)}`, 'Go to the offer']],
  });
};

export const registerOffers = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return offersPage(c, req, reply, s);
  });
  site.get('/console/offers/new', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return newOfferPage(c, req, reply, s);
  });
  site.post('/console/offers', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (s) return createOffer(c, req, reply, s);
  });
};
