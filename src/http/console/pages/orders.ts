import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { orderStream } from '../../../commands/streams.js';
import { type Console, query, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { field, select } from '../forms.js';
import { html, money, statusPill, when } from '../html.js';
import { flash, loadOr, params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { humanize, summary } from '../timeline.js';

const STATUSES = ['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled'];

const ordersPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const q = params(req);
  const answer = await c.api(
    req,
    s,
    'GET',
    `/orders${query({ status: q.status, offer_id: q.offer_id, external_ref: q.external_ref, limit: '50' })}`,
  );
  const orders: any[] = answer.body?.data ?? [];
  const state = { values: q };
  return render(
    c,
    reply,
    s,
    {
      title: 'Orders',
      active: 'orders',
      ...flash(req),
      ...(answer.status >= 400 && { error: refusalOf(answer).message }),
    },
    html`<h1>Orders</h1><form class="card row" method="get" action="/console/orders">
${select({ name: 'status', label: 'Status', options: [['', 'any'], ...STATUSES.map((st) => [st, st] as const)], state })}
${field({ name: 'external_ref', label: 'External ref', state })}
${q.offer_id ? html`<input type="hidden" name="offer_id" value="${q.offer_id}">` : ''}<button type="submit">Filter</button></form>
<div class="scroll"><table><thead><tr><th>Order</th><th>Status</th><th>Items</th><th>Created</th></tr></thead><tbody>
${orders.map((o) => html`<tr><td><a href="/console/orders/${o.id}"><code>${o.id}</code></a></td><td>${statusPill(o.status)}</td><td>${o.items?.length ?? 0}</td><td>${when(o.created_at)}</td></tr>`)}
</tbody></table></div>${orders.length === 0 ? html`<p>No orders match.</p>` : ''}`,
    answer.status >= 400 ? answer.status : 200,
  );
};

const orderBody = (o: any, history: any[]) => html`<h1>Order <code>${o.id}</code> ${statusPill(o.status)}</h1>
<div class="card stats"><div class="stat">Created<b>${when(o.created_at)}</b></div><div class="stat">Buyer country<b>${o.buyer_country ?? '—'}</b></div></div>
<h2>Items</h2><div class="scroll"><table><thead><tr><th>Item</th><th>Offer</th><th>Qty</th><th>Status</th><th>Gross</th><th>Commission</th><th>Net</th></tr></thead><tbody>
${(o.items ?? []).map((i: any) => html`<tr><td><code>${i.id}</code></td><td><a href="/console/offers/${i.offer_id}">${i.external_ref ?? i.offer_id}</a></td><td>${i.quantity}</td><td>${statusPill(i.status)}</td><td>${money(i.gross)}</td><td>${money(i.commission)}</td><td>${money(i.net)}</td></tr>`)}
</tbody></table></div>
<h2>Fulfilment</h2><div class="scroll"><table><thead><tr><th>Item</th><th>Source</th><th>Reservation</th><th>Delivered</th><th>Receipt</th></tr></thead><tbody>
${(o.items ?? []).map((i: any) => html`<tr><td><code>${i.id}</code></td><td>${i.fulfilment?.source}</td><td>${i.fulfilment?.reservation_id ? html`<code>${i.fulfilment.reservation_id}</code>` : '—'}</td><td>${i.fulfilment?.inventory_item_ids?.length ?? 0} unit(s) ${when(i.delivered_at)}</td><td>${i.fulfilment?.receipt_ref ? html`<code>${i.fulfilment.receipt_ref}</code>` : '—'}</td></tr>`)}
</tbody></table></div>
<h2>History, with calls to your systems</h2><div class="card"><ul class="timeline">
${[...history].reverse().map((e) => html`<li><strong>${humanize(e.type)}</strong> <small>${when(e.createdAt.toISOString())}</small>${(e.data as { orderItemId?: unknown } | null)?.orderItemId === undefined ? '' : summary(e.data)}</li>`)}
</ul></div>`;

const orderPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const answer = await loadOr(c, req, reply, s, 'order', `/orders/${seg(id)}`);
  if (!answer) return;
  const o = answer.body;
  // the API answered this order for this supplier, with this supplier's items only; of
  // the order's stream, item events show for those items only, order events by name
  const mine = new Set<string>((o.items ?? []).map((i: any) => i.id));
  const history = (await c.services.store.readStream(orderStream(o.id))).filter((e) => {
    const item = (e.data as { orderItemId?: unknown } | null)?.orderItemId;
    return item === undefined || mine.has(String(item));
  });
  return render(c, reply, s, { title: 'Order', active: 'orders', ...flash(req) }, orderBody(o, history));
};

export const registerOrders = (site: FastifyInstance, c: Console) => {
  site.get('/console/orders', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return ordersPage(c, req, reply, s);
  });
  site.get('/console/orders/:id', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return orderPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
