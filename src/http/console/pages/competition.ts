import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, ROUTE, seg } from '../core.js';
import { html, money, statusPill } from '../html.js';
import { loadOr, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';

/** Where each of the supplier's offers stands on its product: the buyer's price, its rank. */
const competitionPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const list = await loadOr(c, req, reply, s, 'page', '/offers?limit=100');
  if (!list) return;
  const offers: any[] = list.body.data;
  const rows = [];
  for (const o of offers) {
    const product = (await c.api(req, s, 'GET', `/products/${seg(o.product_id)}`)).body;
    const market = (await c.api(req, s, 'GET', `/products/${seg(o.product_id)}/competition`)).body;
    rows.push(html`<tr><td><a href="/console/offers/${o.id}/pricing">${product?.name ?? o.product_id}</a><br><small>${o.external_ref}</small></td><td>${money(o.price)}</td>
<td>${money(market?.buyer_price)}</td><td>${market?.position?.rank ?? '—'} of ${market?.active_offers ?? 0}</td><td>${market?.position?.would_be_selected ? statusPill('selected') : 'not selected'}</td></tr>`);
  }
  return render(
    c,
    reply,
    s,
    { title: 'Competition', active: 'competition' },
    html`<h1>Competition</h1><p>Other suppliers show only as a price, a health band and whether routing may choose them.</p>
<div class="scroll"><table><thead><tr><th>Product</th><th>Your price</th><th>Buyer pays</th><th>Your rank</th><th>Routing</th></tr></thead><tbody>${rows}</tbody></table></div>
${offers.length === 0 ? html`<p>No offers yet: <a href="/console/offers/new">create one</a>.</p>` : ''}`,
  );
};

export const registerCompetition = (site: FastifyInstance, c: Console) => {
  site.get('/console/competition', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return competitionPage(c, req, reply, s);
  });
};
