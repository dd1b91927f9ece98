import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, ROUTE, seg } from '../core.js';
import { cents, field, type FormState } from '../forms.js';
import { type Html, html, money, statusPill } from '../html.js';
import { flash, loadOr, params, render, signedIn } from '../page.js';
import { takeRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';
import { previewText, ruleForm, ruleOf, ruleRefusal, ruleSummary } from './pricing-rule-form.js';

const marketTable = (
  market: any,
) => html`<div class="scroll"><table><thead><tr><th>Rank</th><th>Price</th><th>Health</th><th>Routing</th><th>Whose</th></tr></thead><tbody>
${(market?.offers ?? []).map((m: any) => html`<tr><td>${m.rank ?? '—'}</td><td>${money(m.price)}</td><td>${m.health_band}</td><td>${statusPill(m.routing_eligible ? 'eligible' : 'not eligible')}</td><td>${m.yours ? 'yours' : 'another supplier'}</td></tr>`)}
</tbody></table></div>`;

const simulation = async (
  c: Console,
  req: FastifyRequest,
  s: ConsoleSession,
  productId: string,
  text: string | undefined,
): Promise<Html> => {
  if (text === undefined) return html``;
  const amount = cents(text);
  if (Number.isNaN(amount))
    return html`<p class="field-error" role="alert">Price to simulate must be an amount in euros, like 9.50.</p>`;
  const sim = await c.api(req, s, 'POST', '/pricing/simulate', {
    product_id: productId,
    price: { amount, currency: 'EUR' },
  });
  if (sim.status !== 200)
    return html`<p class="field-error" role="alert">Price to simulate must be at least 0.01 EUR.</p>`;
  const r = sim.body;
  return html`<div class="notice" role="status" id="simulation">At ${money(r.gross)}: rank ${r.rank}, ${r.would_be_selected ? 'selected' : 'not selected'}; you get ${money(r.net)} after ${money(r.commission)} commission. Lowest competing price: ${money(r.lowest_competing_price)}.</div>`;
};

/**
 * A rule's preview, asked by the form's Preview button (its values in the query): what the
 * rule would do now from the offer's current price, or the fields the API refused. Saves nothing.
 */
const preview = async (
  c: Console,
  req: FastifyRequest,
  s: ConsoleSession,
  o: any,
): Promise<{ shown: Html; state: FormState }> => {
  const query = params(req);
  if (query.preview === undefined) return { shown: html``, state: {} };
  const form = query as Form;
  const answer = await c.api(req, s, 'POST', '/pricing/simulate', {
    product_id: o.product_id,
    price: o.price,
    pricing_rule: ruleOf(form),
  });
  if (answer.status === 200) return { shown: previewText(answer.body), state: { values: query } };
  return { shown: html``, state: { values: query, refusal: ruleRefusal(answer, form, true) } };
};

/** An offer's market and its pricing rule: simulate a price, preview and set a rule, remove it. */
export const pricingPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  id: string,
) => {
  const path = `/console/offers/${seg(id)}/pricing`;
  const refused = takeRefused(c, req, reply, s, path);
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const o = offer.body;
  const market = (await c.api(req, s, 'GET', `/products/${seg(o.product_id)}/competition`)).body;
  const ruleAnswer = await c.api(req, s, 'GET', `/offers/${seg(id)}/pricing-rule`);
  const rule = ruleAnswer.status === 200 ? ruleAnswer.body : undefined;
  const simulated = await simulation(c, req, s, o.product_id, params(req).simulate);
  const previewed = await preview(c, req, s, o);
  const state = refused?.state ?? previewed.state;
  // one read for both figures: the offer's price as the market holds it, beside the buyer's
  const yours = market?.position?.price ?? o.price;
  return render(
    c,
    reply,
    s,
    {
      title: 'Competition and pricing',
      active: 'competition',
      ...flash(req),
      ...(state.refusal && { error: state.refusal.message }),
    },
    html`<h1>Competition and pricing · <a href="/console/offers/${o.id}">${o.external_ref}</a></h1>
<div class="card stats"><div class="stat">Your price<b id="your-price">${money(yours)}</b>${rule ? html`<small>set by your pricing rule</small>` : ''}</div><div class="stat">Buyer pays<b>${money(market?.buyer_price)}</b></div><div class="stat">Your rank<b>${market?.position?.rank ?? '—'}</b></div></div>
${marketTable(market)}<div class="card"><h2 style="margin-top:0">Simulate a price</h2>${simulated}<form class="row" method="get" action="/console/offers/${o.id}/pricing">${field({ name: 'simulate', label: 'Price to simulate', value: params(req).simulate, attrs: html` inputmode="decimal"` })}<button type="submit">Simulate</button></form></div>
<div class="card"><h2 style="margin-top:0">Pricing rule</h2>${rule ? ruleSummary(rule) : html`<p id="rule">No rule: the price changes only when you change it.</p>`}
${previewed.shown}${ruleForm(s, o.id, rule, state)}${rule ? html`<p><a href="/console/offers/${o.id}/pricing/remove">Remove pricing rule</a></p>` : ''}</div>`,
    refused?.status ?? (state.refusal ? 422 : 200),
  );
};

export const registerPricing = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/pricing', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return pricingPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
