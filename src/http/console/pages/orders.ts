import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { orderStream } from '../../../commands/streams.js';
import { type Console, query, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { dayEnd, dayStart, field, select } from '../forms.js';
import { html, money, statusPill, when } from '../html.js';
import { flash, loadOr, params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { humanize, summary } from '../timeline.js';

const STATUSES = ['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled'];

/**
 * The filter as a person means it: a status, an external ref, and days (From: from the start
 * of that day UTC; To: to its end, included). As the API takes it: instants, `to` exclusive.
 */
const ordersFilter = (q: Record<string, string>) => {
  const fields: Record<string, string> = {};
  const from = q.from ? dayStart(q.from) : undefined;
  const to = q.to ? dayEnd(q.to) : undefined;
  if (q.from && !from) fields.from = 'From must be a date, like 2026-11-01.';
  if (q.to && !to) fields.to = 'To must be a date, like 2026-11-30.';
  if (from && to && to <= from) fields.to = 'To must be the same day as From or later.';
  const api = {
    status: q.status,
    offer_id: q.offer_id,
    external_ref: q.external_ref,
    created_from: from?.toISOString(),
    created_to: to?.toISOString(),
    limit: '50',
  };
  return { api, ...(Object.keys(fields).length > 0 && { refusal: { message: 'Check the filter.', fields } }) };
};

const productNames = async (c: Console, req: FastifyRequest, s: ConsoleSession, orders: any[]) => {
  const names = new Map<string, string>();
  for (const id of new Set(orders.flatMap((o) => (o.items ?? []).map((i: any) => String(i.product_id))))) {
    const product = await c.api(req, s, 'GET', `/products/${seg(id)}`);
    names.set(id, product.status === 200 ? String(product.body.name) : id);
  }
  return names;
};

const orderRow = (o: any, names: Map<string, string>) => {
  const products = [...new Set((o.items ?? []).map((i: any) => names.get(String(i.product_id)) ?? i.product_id))];
  const disputed = (o.items ?? []).some((i: any) => i.disputed_at);
  return html`<tr><td><a href="/console/orders/${o.id}"><code>${o.id}</code></a></td><td>${products.join(', ')}</td><td>${statusPill(String(o.status).replace(/_/g, ' '))}${disputed ? html` ${statusPill('disputed')}` : ''}</td><td class="n">${money(o.totals?.gross)}</td><td class="n">${o.items?.length ?? 0}</td><td>${when(o.created_at)}</td></tr>`;
};

const ordersPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const q = params(req);
  const filter = ordersFilter(q);
  const answer = filter.refusal
    ? { status: 422, body: { data: [] } }
    : await c.api(req, s, 'GET', `/orders${query(filter.api)}`);
  const orders: any[] = answer.body?.data ?? [];
  const names = await productNames(c, req, s, orders);
  const refusal = filter.refusal ?? (answer.status >= 400 ? refusalOf(answer as any) : undefined);
  const state = { values: q, refusal };
  return render(
    c,
    reply,
    s,
    {
      title: 'Orders',
      active: 'orders',
      ...flash(req),
      ...(refusal && { error: refusal.message }),
    },
    html`<h1>Orders</h1><form class="card row" method="get" action="/console/orders">
${select({ name: 'status', label: 'Status', options: [['', 'any'], ...STATUSES.map((st) => [st, st.replace(/_/g, ' ')] as const)], state })}
${field({ name: 'from', label: 'From', type: 'date', state })}${field({ name: 'to', label: 'To', type: 'date', hint: 'Included', state })}
${field({ name: 'external_ref', label: 'External ref', state })}
${q.offer_id ? html`<input type="hidden" name="offer_id" value="${q.offer_id}">` : ''}<button type="submit">Filter</button></form>
<div class="scroll"><table><thead><tr><th>Order</th><th>Product</th><th>Status</th><th class="n">Amount</th><th class="n">Items</th><th>Created</th></tr></thead><tbody>
${orders.map((o) => orderRow(o, names))}
</tbody></table></div>${orders.length === 0 ? html`<p>No orders match.</p>` : ''}`,
    answer.status >= 400 ? answer.status : 200,
  );
};

const orderBody = (
  o: any,
  history: any[],
) => html`<h1>Order <code>${o.id}</code> ${statusPill(String(o.status).replace(/_/g, ' '))}${(o.items ?? []).some((i: any) => i.disputed_at) ? html` ${statusPill('disputed')}` : ''}</h1>
<div class="card stats"><div class="stat">Created<b>${when(o.created_at)}</b></div><div class="stat">Buyer country<b>${o.buyer_country ?? '—'}</b></div></div>
<h2>Items</h2><div class="scroll"><table><thead><tr><th>Item</th><th>Offer</th><th>Qty</th><th>Status</th><th>Gross</th><th>Commission</th><th>Net</th></tr></thead><tbody>
${(o.items ?? []).map((i: any) => html`<tr><td><code>${i.id}</code></td><td><a href="/console/offers/${i.offer_id}">${i.external_ref ?? i.offer_id}</a></td><td>${i.quantity}</td><td>${statusPill(i.status)}${i.disputed_at ? html` ${statusPill('disputed')} <small>${when(i.disputed_at)}</small>` : ''}</td><td>${money(i.gross)}</td><td>${money(i.commission)}</td><td>${money(i.net)}</td></tr>`)}
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
