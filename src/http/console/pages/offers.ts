import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { fieldRefusal, refusalOf } from '../errors.js';
import { field, type FormState, select } from '../forms.js';
import { csrfField, html, money, statusPill, when } from '../html.js';
import type { ConsoleSession } from '../session.js';
import { redirectToSecret } from '../shown-once.js';
import { flash, loadOr, posted, render, signedIn } from '../page.js';
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

const newOfferPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  state: FormState = {},
  status = 200,
) => {
  const catalogue = await loadOr(c, req, reply, s, 'page', '/products?limit=200');
  if (!catalogue) return;
  const products: any[] = catalogue.body.data;
  const options = [
    ['', 'Choose a product'] as const,
    ...products.map(
      (p) => [p.id, `${p.name} · ${p.platform} · ${p.region}${p.type === 'topup' ? ' · top-up' : ''}`] as const,
    ),
  ];
  return render(
    c,
    reply,
    s,
    { title: 'Create offer', active: 'offers', ...(state.refusal && { error: state.refusal.message }) },
    html`<h1>Create offer</h1><form class="card" method="post" action="/console/offers">${csrfField(s.csrf)}
<div class="row">${select({ name: 'product_id', label: 'Product', options, state })}${select({ name: 'kind', label: 'Stock', options: KINDS, hint: 'Top-up products take declared stock from your fulfilment API', state })}</div>
${termsFields(state, undefined, undefined)}
<div class="row">${field({ name: 'declared_stock', label: 'Declared stock', type: 'number', attrs: html` min="0"`, hint: 'Declared stock only', state })}</div>
<p><button type="submit">Create offer</button></p></form>`,
    status,
  );
};

const createOffer = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const form = req.body as Form;
  const declared = one(form, 'kind') !== 'uploaded';
  if (Number.isNaN(priceOf(form)))
    return newOfferPage(
      c,
      req,
      reply,
      s,
      { values: form, refusal: fieldRefusal('price', 'Price must be an amount in euros, like 19.99.') },
      422,
    );
  const declaredStock = one(form, 'declared_stock');
  const answer = await c.api(req, s, 'POST', '/offers', {
    product_id: one(form, 'product_id'),
    stock_mode: declared ? 'declared' : 'uploaded',
    ...termsOf(form, declared),
    ...(declared && declaredStock !== '' && { declared_stock: Number(declaredStock) }),
  });
  if (answer.status >= 300)
    return newOfferPage(c, req, reply, s, { values: form, refusal: refusalOf(answer, OFFER_FIELDS) }, answer.status);
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
