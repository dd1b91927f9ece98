import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, ROUTE, seg } from '../core.js';
import { cents, eurosText, field, type FormState, select } from '../forms.js';
import { csrfField, type Html, html, money, statusPill, when } from '../html.js';
import { flash, loadOr, params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';

const UNITS = [
  ['amount', 'EUR below'],
  ['percent', '% below'],
] as const;

const marketTable = (
  market: any,
) => html`<div class="scroll"><table><thead><tr><th>Rank</th><th>Price</th><th>Health</th><th>Routing</th><th>Whose</th></tr></thead><tbody>
${(market?.offers ?? []).map((m: any) => html`<tr><td>${m.rank ?? '—'}</td><td>${money(m.price)}</td><td>${m.health_band}</td><td>${statusPill(m.routing_eligible ? 'eligible' : 'not eligible')}</td><td>${m.yours ? 'yours' : 'another supplier'}</td></tr>`)}
</tbody></table></div>`;

const ruleForm = (s: ConsoleSession, id: string, rule: any, state: FormState): Html => {
  const beat = rule?.beat_by;
  const value = beat ? (beat.percent !== undefined ? String(beat.percent) : eurosText(beat)) : '';
  return html`<form method="post" action="/console/offers/${id}/pricing/save">${csrfField(s.csrf)}<div class="row">
${field({ name: 'beat_by', label: 'Beat the lowest competitor by', value, attrs: html` inputmode="decimal"`, state })}${select({ name: 'beat_unit', label: 'Unit', value: beat?.percent !== undefined ? 'percent' : 'amount', options: UNITS, state })}
${field({ name: 'floor', label: 'Floor', value: eurosText(rule?.floor), hint: 'Never below, in euros', attrs: html` inputmode="decimal"`, state })}${field({ name: 'ceiling', label: 'Ceiling', value: eurosText(rule?.ceiling), hint: 'Never above; the price with no competitor', attrs: html` inputmode="decimal"`, state })}
${field({ name: 'max_changes_per_hour', label: 'Changes per hour at most', value: rule?.max_changes_per_hour ?? 6, type: 'number', attrs: html` min="1" max="60"`, state })}</div>
<p><button type="submit">Save pricing rule</button></p></form>`;
};

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
    return html`<p class="field-error" role="alert">Price must be an amount in euros, like 9.50.</p>`;
  const sim = await c.api(req, s, 'POST', '/pricing/simulate', {
    product_id: productId,
    price: { amount, currency: 'EUR' },
  });
  if (sim.status !== 200) return html`<p class="field-error" role="alert">Price must be at least 0.01 EUR.</p>`;
  const r = sim.body;
  return html`<div class="notice" role="status" id="simulation">At ${money(r.gross)}: rank ${r.rank}, ${r.would_be_selected ? 'selected' : 'not selected'}; you get ${money(r.net)} after ${money(r.commission)} commission. Lowest competing price: ${money(r.lowest_competing_price)}.</div>`;
};

/** An offer's market and its pricing rule: set, simulate a price, remove. */
export const pricingPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  id: string,
  state: FormState = {},
  status = 200,
) => {
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const o = offer.body;
  const market = (await c.api(req, s, 'GET', `/products/${seg(o.product_id)}/competition`)).body;
  const ruleAnswer = await c.api(req, s, 'GET', `/offers/${seg(id)}/pricing-rule`);
  const rule = ruleAnswer.status === 200 ? ruleAnswer.body : undefined;
  const simulated = await simulation(c, req, s, o.product_id, params(req).simulate);
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
<div class="card stats"><div class="stat">Your price<b>${money(o.price)}</b></div><div class="stat">Buyer pays<b>${money(market?.buyer_price)}</b></div><div class="stat">Your rank<b>${market?.position?.rank ?? '—'}</b></div></div>
${marketTable(market)}<div class="card"><h2 style="margin-top:0">Simulate a price</h2>${simulated}<form class="row" method="get" action="/console/offers/${o.id}/pricing">${field({ name: 'simulate', label: 'Price to simulate', value: params(req).simulate, attrs: html` inputmode="decimal"` })}<button type="submit">Simulate</button></form></div>
<div class="card"><h2 style="margin-top:0">Pricing rule</h2>${rule ? html`<p id="rule">Active: ${rule.changes_in_last_hour} change(s) in the last hour${rule.last_repriced_at ? html`, last ${when(rule.last_repriced_at)}` : ''}.</p>` : html`<p id="rule">No rule: the price changes only when you change it.</p>`}
${ruleForm(s, o.id, rule, state)}${rule ? html`<form method="post" action="/console/offers/${o.id}/pricing/remove">${csrfField(s.csrf)}<button type="submit" class="danger">Remove pricing rule</button></form>` : ''}</div>`,
    status,
  );
};

export const registerPricing = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/pricing', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return pricingPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
