import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfField, Html, html, layout, money, statusPill, when } from './html.js';
import {
  type ConsoleSession,
  cookies,
  endSession,
  loadSession,
  readSession,
  sameOrigin,
  sameToken,
  SIGN_IN_COOKIE,
  signInToken,
  startSession,
} from './session.js';
import { offerStream, orderStream } from '../../commands/streams.js';
import { type Services } from '../services.js';

type Form = Record<string, string>;
interface Answer {
  status: number;
  body: any;
}

/**
 * The supplier console at /console: server-rendered pages and plain HTML forms. Every read
 * and every change goes through the supplier API itself (an in-process request carrying
 * the session's token), so the console has the same commands, validation, read models,
 * rate limits and idempotency as the API, and no path of its own to the data. The only
 * exception is an offer's timeline, read from the offer's own event stream once the API
 * has confirmed the offer is the supplier's.
 */
// eslint-disable-next-line max-lines-per-function -- the console's pages, one route each
export const registerConsole = async (app: FastifyInstance, services: Services) => {
  // eslint-disable-next-line max-lines-per-function -- the console's pages, one route each
  await app.register(async (site) => {
    // forms post urlencoded; only the console accepts that, the API stays JSON only
    site.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // the console meters nothing itself: each page's API calls count on the supplier's token
    const config = { public: true, unlimited: true };
    const schema = { hide: true };
    const sessions = { box: services.secretBox, db: services.db, now: () => services.clock.now() };
    // every console request's session is looked up once, here, before its route reads it
    site.addHook('preHandler', async (req) => loadSession(req, sessions));

    const api = async (
      req: FastifyRequest,
      session: ConsoleSession,
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      body?: unknown,
    ): Promise<Answer> => {
      const res = await app.inject({
        method,
        url: `/api/v1${url}`,
        remoteAddress: req.ip,
        headers: {
          authorization: `Bearer ${session.token}`,
          ...(method !== 'GET' && { 'idempotency-key': randomUUID() }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      // the page a form redirects to may be read on another instance (a session cookie
      // carries no Authorization for the balancer to route by): the change is applied first
      if (method !== 'GET') await services.readsApplied();
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    };

    const page = (
      reply: FastifyReply,
      session: ConsoleSession | undefined,
      options: Parameters<typeof layout>[0],
      body: Html,
      status = 200,
    ) =>
      reply
        .code(status)
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        )
        .type('text/html; charset=utf-8')
        .send(
          layout({ ...options, ...(session && { who: { name: session.supplierName, csrf: session.csrf } }) }, body),
        );

    /** The signed-in supplier, or a redirect to the sign-in page. */
    const signedIn = (req: FastifyRequest, reply: FastifyReply): ConsoleSession | undefined => {
      const session = readSession(req);
      if (!session) void reply.redirect('/console/sign-in', 303);
      return session;
    };
    /** A form post of the signed-in supplier, its CSRF token and origin checked. */
    const posted = (req: FastifyRequest, reply: FastifyReply): ConsoleSession | undefined => {
      const session = signedIn(req, reply);
      if (!session) return undefined;
      if (!sameOrigin(req) || !sameToken((req.body as Form | undefined)?._csrf, session.csrf)) {
        void page(
          reply,
          session,
          {
            title: 'Refused',
            error: 'This form is out of date or did not come from this console. Reload the page and try again.',
          },
          html``,
          403,
        );
        return undefined;
      }
      return session;
    };
    const problemText = (answer: Answer) =>
      `${answer.body?.title ?? 'Refused'}: ${answer.body?.detail ?? answer.status}${answer.body?.errors ? ` (${answer.body.errors.map((e: any) => `${e.field}: ${e.message}`).join('; ')})` : ''}`;
    const back = (reply: FastifyReply, to: string, answer: Answer, done: string) =>
      reply.redirect(
        `${to}${to.includes('?') ? '&' : '?'}${answer.status < 300 ? `notice=${encodeURIComponent(done)}` : `error=${encodeURIComponent(problemText(answer))}`}`,
        303,
      );
    const flash = (req: FastifyRequest) => {
      const q = req.query as Record<string, string | undefined>;
      return { notice: q.notice, error: q.error };
    };
    const query = (params: Record<string, string | undefined>) => {
      const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
      return q.size ? `?${q.toString()}` : '';
    };

    site.get('/console', { config, schema }, async (req, reply) =>
      reply.redirect(readSession(req) ? '/console/offers' : '/console/sign-in', 303),
    );

    // ---- sign in and out
    const signInPage = (req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) =>
      page(
        reply,
        undefined,
        { title: 'Sign in', error },
        html`<div class="card" style="max-width:30rem;margin:2rem auto"><h1>Sign in</h1>
<form method="post" action="/console/sign-in"><input type="hidden" name="_csrf" value="${signInToken(req, reply)}">
<label for="token">Supplier API token</label><input id="token" name="token" type="password" autocomplete="off" required style="width:100%">
<p><button type="submit">Sign in</button></p></form>
<p style="font-size:.9rem;color:#5b6475">The token stays in this service: the browser keeps only a sealed, HttpOnly session cookie.</p></div>`,
        status,
      );
    site.get('/console/sign-in', { config, schema }, async (req, reply) => signInPage(req, reply));
    site.post('/console/sign-in', { config, schema }, async (req, reply) => {
      const form = (req.body ?? {}) as Form;
      if (!sameOrigin(req) || !sameToken(form._csrf, cookies(req).get(SIGN_IN_COOKIE)))
        return signInPage(req, reply, 'The sign-in form expired. Try again.', 403);
      const token = (form.token ?? '').trim();
      const probe = { id: '', token, csrf: '', supplierId: '', supplierName: '', expiresAt: 0 };
      const who = token ? await api(req, probe, 'GET', '/whoami') : { status: 401, body: undefined };
      if (who.status !== 200)
        return signInPage(
          req,
          reply,
          who.status === 429 ? 'Too many attempts; wait a minute.' : 'That token is not a valid supplier token.',
          who.status === 429 ? 429 : 401,
        );
      await startSession(req, reply, sessions, {
        token,
        tokenId: who.body.token_id,
        supplierId: who.body.supplier.id,
        supplierName: who.body.supplier.name,
      });
      return reply.redirect('/console/offers', 303);
    });
    site.post('/console/sign-out', { config, schema }, async (req, reply) => {
      if (!posted(req, reply)) return;
      await endSession(req, reply, services.db);
      return reply.redirect('/console/sign-in', 303);
    });

    // ---- offers
    site.get('/console/offers', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const offers = (await api(req, s, 'GET', '/offers?limit=100')).body?.data ?? [];
      const products = new Map<string, any>();
      for (const id of new Set<string>(offers.map((o: any) => o.product_id)))
        products.set(id, (await api(req, s, 'GET', `/products/${encodeURIComponent(id)}`)).body);
      return page(
        reply,
        s,
        { title: 'Offers', active: 'offers', ...flash(req) },
        html`<h1>Offers</h1>${offers.length === 0 ? html`<div class="card">No offers yet: create one through the API.</div>` : ''}
<div class="scroll"><table><thead><tr><th>Product</th><th>Status</th><th>Price</th><th>Stock</th><th>Health</th><th>Routing</th><th>Market</th></tr></thead><tbody>
${offers.map((o: any) => {
  const p = products.get(o.product_id);
  return html`<tr><td><a href="/console/offers/${o.id}">${p?.name ?? o.product_id}</a><br><small>${o.external_ref} · ${o.stock_mode}</small></td>
<td>${statusPill(o.status)}</td><td>${money(o.price)}</td>
<td>${o.stock_mode === 'declared' ? `declared ${o.stock.declared ?? 0}` : `${o.stock.available ?? 0} available`}</td>
<td>${o.health.score}${o.health.cooldown_until ? html`<br><small>cooldown until ${when(o.health.cooldown_until)}</small>` : ''}</td>
<td>${o.health.routing_eligible ? statusPill('eligible') : statusPill('not eligible')}</td>
<td>${p?.market?.your_offer_selected ? statusPill('selected') : 'not selected'}<br><small>buyer pays ${money(p?.market?.buyer_price)}</small></td></tr>`;
})}
</tbody></table></div>`,
      );
    });

    site.get('/console/offers/:id', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const id = (req.params as { id: string }).id;
      const offer = await api(req, s, 'GET', `/offers/${encodeURIComponent(id)}`);
      if (offer.status !== 200)
        return page(reply, s, { title: 'Offer', active: 'offers', error: problemText(offer) }, html``, offer.status);
      const o = offer.body;
      const product = (await api(req, s, 'GET', `/products/${encodeURIComponent(o.product_id)}`)).body;
      // the API confirmed the offer is this supplier's: its own stream is its history
      const events = await services.store.readStream(offerStream(o.id));
      return page(
        reply,
        s,
        { title: product?.name ?? 'Offer', active: 'offers', ...flash(req) },
        html`<h1>${product?.name ?? o.product_id} ${statusPill(o.status)}</h1>
<div class="card stats"><div class="stat">Price<b>${money(o.price)}</b></div><div class="stat">Stock<b>${o.stock_mode === 'declared' ? (o.stock.declared ?? 0) : (o.stock.available ?? 0)}</b></div>
<div class="stat">Health<b>${o.health.score}</b>${o.health.cooldown_until ? html`<small>cooldown until ${when(o.health.cooldown_until)}</small>` : ''}</div>
<div class="stat">Market<b>${product?.market?.your_offer_selected ? 'selected' : 'not selected'}</b><small>buyer pays ${money(product?.market?.buyer_price)}</small></div></div>
<div class="card row">
${o.status === 'active' ? html`<form class="inline" method="post" action="/console/offers/${o.id}/deactivate">${csrfField(s.csrf)}<button type="submit">Deactivate</button></form>` : html`<form class="inline" method="post" action="/console/offers/${o.id}/activate">${csrfField(s.csrf)}<button type="submit">Activate</button></form>`}
<form class="row" method="post" action="/console/offers/${o.id}/price">${csrfField(s.csrf)}<div><label for="price">New price (EUR)</label><input id="price" name="price" inputmode="decimal" required pattern="[0-9]+([.,][0-9]{1,2})?" value="${(o.price.amount / 100).toFixed(2)}"></div><button type="submit">Change price</button></form>
${o.stock_mode === 'uploaded' ? html`<a href="/console/offers/${o.id}/inventory">Inventory →</a>` : ''}
<a href="/console/orders?offer_id=${o.id}">Orders →</a></div>
<h2>Timeline</h2><div class="card"><ul class="timeline">
${[...events].reverse().map((e) => html`<li><strong>${humanize(e.type)}</strong> <small>${when(e.createdAt.toISOString())}</small>${summary(e.data)}</li>`)}
</ul></div>`,
      );
    });

    site.post('/console/offers/:id/:action', { config, schema }, async (req, reply) => {
      const s = posted(req, reply);
      if (!s) return;
      const { id, action } = req.params as { id: string; action: string };
      const to = `/console/offers/${encodeURIComponent(id)}`;
      if (action === 'activate' || action === 'deactivate')
        return back(
          reply,
          to,
          await api(req, s, 'POST', `/offers/${encodeURIComponent(id)}/${action}`),
          `Offer ${action}d.`,
        );
      if (action === 'price') {
        const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(((req.body as Form).price ?? '').trim());
        if (!m)
          return reply.redirect(`${to}?error=${encodeURIComponent('A price is euros and cents, like 19.99.')}`, 303);
        const amount = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
        return back(
          reply,
          to,
          await api(req, s, 'PUT', `/offers/${encodeURIComponent(id)}/price`, { price: { amount, currency: 'EUR' } }),
          'Price changed.',
        );
      }
      return reply.redirect(to, 303);
    });

    // ---- inventory
    const inventoryPage = async (
      req: FastifyRequest,
      reply: FastifyReply,
      s: ConsoleSession,
      id: string,
      result?: Html,
      status = 200,
    ) => {
      const filter = (req.query as Record<string, string | undefined>).status;
      const offer = await api(req, s, 'GET', `/offers/${encodeURIComponent(id)}`);
      if (offer.status !== 200)
        return page(
          reply,
          s,
          { title: 'Inventory', active: 'offers', error: problemText(offer) },
          html``,
          offer.status,
        );
      const items =
        (
          await api(
            req,
            s,
            'GET',
            `/offers/${encodeURIComponent(id)}/inventory${query({ status: filter, limit: '100' })}`,
          )
        ).body?.data ?? [];
      return page(
        reply,
        s,
        { title: 'Inventory', active: 'offers', ...flash(req) },
        html`<h1>Inventory · <a href="/console/offers/${id}">${offer.body.external_ref}</a></h1>${result ?? ''}
<div class="card"><h2>Upload keys</h2><form method="post" action="/console/offers/${id}/inventory">${csrfField(s.csrf)}
<label for="keys">One key per line</label><textarea id="keys" name="keys"></textarea>
<label for="file">…or a text or CSV file (first column)</label><input id="file" type="file" accept=".txt,.csv,text/plain,text/csv">
<div class="row"><div><label for="mode">Mode</label><select id="mode" name="mode"><option value="strict">strict: all or nothing</option><option value="partial">partial: keep the good lines</option></select></div><button type="submit">Upload</button></div></form>
<script>document.getElementById('file').addEventListener('change',function(e){var f=e.target.files[0];if(!f)return;f.text().then(function(t){document.getElementById('keys').value=t.split(/\\r?\\n/).map(function(l){return l.split(',')[0].trim()}).filter(Boolean).join('\\n')})})</script></div>
<h2>Items</h2><p>${['', 'available', 'reserved', 'delivered', 'invalidated'].map((st) => html`<a href="/console/offers/${id}/inventory${st ? `?status=${st}` : ''}">${st || 'all'}</a> `)}</p>
<div class="scroll"><table><thead><tr><th>Item</th><th>Status</th><th>Uploaded</th></tr></thead><tbody>
${items.map((i: any) => html`<tr><td><code>${i.id}</code></td><td>${statusPill(i.status)}</td><td>${when(i.created_at)}</td></tr>`)}
</tbody></table></div>`,
        status,
      );
    };
    site.get('/console/offers/:id/inventory', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (s) return inventoryPage(req, reply, s, (req.params as { id: string }).id);
    });
    site.post('/console/offers/:id/inventory', { config, schema, bodyLimit: 8 * 1024 * 1024 }, async (req, reply) => {
      const s = posted(req, reply);
      if (!s) return;
      const id = (req.params as { id: string }).id;
      const form = req.body as Form;
      const lines = (form.keys ?? '')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      const answer = await api(req, s, 'POST', `/offers/${encodeURIComponent(id)}/inventory`, {
        mode: form.mode === 'partial' ? 'partial' : 'strict',
        items: lines.map((value) => ({ kind: 'text', value })),
      });
      const rejected: any[] = answer.body?.rejected ?? answer.body?.errors ?? [];
      const result =
        answer.status < 300
          ? html`<div class="notice" role="status">${answer.body.accepted} accepted, ${rejected.length} rejected; ${answer.body.stock_available} available now.</div>`
          : html`<div class="notice error" role="alert">${problemText(answer)}</div>`;
      const reasons = rejected.length
        ? html`<div class="card"><h2>Rejected lines</h2><table><thead><tr><th>Line</th><th>Reason</th></tr></thead><tbody>${rejected.map((r: any) => html`<tr><td>${r.index !== undefined ? Number(r.index) + 1 : (r.field ?? '')}</td><td><code>${r.code ?? ''}</code> ${r.message ?? ''}</td></tr>`)}</tbody></table></div>`
        : '';
      return inventoryPage(req, reply, s, id, html`${result}${reasons}`, answer.status < 300 ? 200 : answer.status);
    });

    // ---- orders
    site.get('/console/orders', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const q = req.query as Record<string, string | undefined>;
      const answer = await api(
        req,
        s,
        'GET',
        `/orders${query({ status: q.status, offer_id: q.offer_id, external_ref: q.external_ref, limit: '50' })}`,
      );
      const orders = answer.body?.data ?? [];
      return page(
        reply,
        s,
        {
          title: 'Orders',
          active: 'orders',
          ...flash(req),
          ...(answer.status >= 400 && { error: problemText(answer) }),
        },
        html`<h1>Orders</h1><form class="card row" method="get" action="/console/orders">
<div><label for="status">Status</label><select id="status" name="status"><option value="">any</option>${['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled'].map((st) => html`<option ${q.status === st ? 'selected' : ''}>${st}</option>`)}</select></div>
<div><label for="external_ref">External ref</label><input id="external_ref" name="external_ref" value="${q.external_ref ?? ''}"></div>
${q.offer_id ? html`<input type="hidden" name="offer_id" value="${q.offer_id}">` : ''}<button type="submit">Filter</button></form>
<div class="scroll"><table><thead><tr><th>Order</th><th>Status</th><th>Items</th><th>Created</th></tr></thead><tbody>
${orders.map((o: any) => html`<tr><td><a href="/console/orders/${o.id}"><code>${o.id}</code></a></td><td>${statusPill(o.status)}</td><td>${o.items?.length ?? 0}</td><td>${when(o.created_at)}</td></tr>`)}
</tbody></table></div>${orders.length === 0 ? html`<p>No orders match.</p>` : ''}`,
      );
    });
    site.get('/console/orders/:id', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const answer = await api(req, s, 'GET', `/orders/${encodeURIComponent((req.params as { id: string }).id)}`);
      if (answer.status !== 200)
        return page(reply, s, { title: 'Order', active: 'orders', error: problemText(answer) }, html``, answer.status);
      const o = answer.body;
      // the API answered this order for this supplier, with this supplier's items only; of
      // the order's stream, item events show for those items only, order events by name
      const mine = new Set<string>((o.items ?? []).map((i: any) => i.id));
      const history = (await services.store.readStream(orderStream(o.id))).filter((e) => {
        const item = (e.data as { orderItemId?: unknown } | null)?.orderItemId;
        return item === undefined || mine.has(String(item));
      });
      return page(
        reply,
        s,
        { title: 'Order', active: 'orders' },
        html`<h1>Order <code>${o.id}</code> ${statusPill(o.status)}</h1>
<div class="card stats"><div class="stat">Created<b>${when(o.created_at)}</b></div><div class="stat">Buyer country<b>${o.buyer_country ?? '—'}</b></div></div>
<h2>Items</h2><div class="scroll"><table><thead><tr><th>Item</th><th>Offer</th><th>Qty</th><th>Status</th><th>Gross</th><th>Commission</th><th>Net</th></tr></thead><tbody>
${(o.items ?? []).map((i: any) => html`<tr><td><code>${i.id}</code></td><td><a href="/console/offers/${i.offer_id}">${i.external_ref ?? i.offer_id}</a></td><td>${i.quantity}</td><td>${statusPill(i.status)}</td><td>${money(i.gross)}</td><td>${money(i.commission)}</td><td>${money(i.net)}</td></tr>`)}
</tbody></table></div>
<h2>Fulfilment</h2><div class="scroll"><table><thead><tr><th>Item</th><th>Source</th><th>Reservation</th><th>Delivered</th><th>Receipt</th></tr></thead><tbody>
${(o.items ?? []).map((i: any) => html`<tr><td><code>${i.id}</code></td><td>${i.fulfilment?.source}</td><td>${i.fulfilment?.reservation_id ?? '—'}</td><td>${i.fulfilment?.inventory_item_ids?.length ?? 0} unit(s) ${when(i.delivered_at)}</td><td>${i.fulfilment?.receipt_ref ?? '—'}</td></tr>`)}
</tbody></table></div>
<h2>History, with calls to your systems</h2><div class="card"><ul class="timeline">
${[...history].reverse().map((e) => html`<li><strong>${humanize(e.type)}</strong> <small>${when(e.createdAt.toISOString())}</small>${(e.data as { orderItemId?: unknown } | null)?.orderItemId === undefined ? '' : summary(e.data)}</li>`)}
</ul></div>`,
      );
    });

    // ---- balance
    const allEntries = async (req: FastifyRequest, s: ConsoleSession, filters: Record<string, string | undefined>) => {
      const entries: any[] = [];
      let cursor: string | undefined;
      do {
        const res = await api(req, s, 'GET', `/balance/entries${query({ ...filters, limit: '200', cursor })}`);
        if (res.status !== 200) throw Object.assign(new Error(problemText(res)), { answer: res });
        entries.push(...res.body.data);
        cursor = res.body.next_cursor ?? undefined;
      } while (cursor && entries.length < 5000);
      return entries;
    };
    site.get('/console/balance', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const q = req.query as Record<string, string | undefined>;
      const filters = { type: q.type, from: q.from, to: q.to };
      const balance = (await api(req, s, 'GET', '/balance')).body;
      let entries: any[] = [];
      let error: string | undefined;
      try {
        entries = await allEntries(req, s, filters);
      } catch (e) {
        error = (e as Error).message;
      }
      return page(
        reply,
        s,
        { title: 'Balance', active: 'balance', error },
        html`<h1>Balance</h1><div class="card stats"><div class="stat">Available<b>${money(balance?.available)}</b></div><div class="stat">Pending<b>${money(balance?.pending)}</b></div></div>
<div class="card"><h2 style="margin-top:0">Balance over time</h2>${chart(entries)}</div>
<form class="card row" method="get" action="/console/balance"><div><label for="type">Type</label><select id="type" name="type"><option value="">any</option>${['sale', 'settlement', 'refund'].map((t) => html`<option ${q.type === t ? 'selected' : ''}>${t}</option>`)}</select></div>
<div><label for="from">From</label><input id="from" name="from" type="date" value="${q.from?.slice(0, 10) ?? ''}"></div><div><label for="to">To</label><input id="to" name="to" type="date" value="${q.to?.slice(0, 10) ?? ''}"></div>
<button type="submit">Filter</button><a href="/console/balance.csv${query(filters)}">Export CSV</a></form>
<div class="scroll"><table><thead><tr><th>When</th><th>Type</th><th>Account</th><th>Amount</th><th>Order</th></tr></thead><tbody>
${entries.slice(0, 200).map((e) => html`<tr><td>${when(e.created_at)}</td><td>${e.type}</td><td>${e.account}</td><td>${money(e.amount)}</td><td><a href="/console/orders/${e.order_id}"><code>${e.order_id}</code></a></td></tr>`)}
</tbody></table></div>`,
      );
    });
    site.get('/console/balance.csv', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const q = req.query as Record<string, string | undefined>;
      const entries = await allEntries(req, s, { type: q.type, from: q.from, to: q.to });
      const cell = (v: unknown) =>
        /[",\n]/.test(String(v ?? '')) ? `"${String(v).replace(/"/g, '""')}"` : String(v ?? '');
      const rows = [
        [
          'id',
          'created_at',
          'type',
          'account',
          'amount_minor',
          'currency',
          'order_id',
          'order_item_id',
          'available_at',
        ],
        ...entries.map((e) => [
          e.id,
          e.created_at,
          e.type,
          e.account,
          e.amount.amount,
          e.amount.currency,
          e.order_id,
          e.order_item_id,
          e.available_at ?? '',
        ]),
      ];
      return reply
        .header('content-disposition', 'attachment; filename="balance-entries.csv"')
        .type('text/csv; charset=utf-8')
        .send(`${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`);
    });

    // ---- webhooks
    site.get('/console/webhooks', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const hooks = (await api(req, s, 'GET', '/webhooks?limit=100')).body?.data ?? [];
      const attempts = (await api(req, s, 'GET', '/webhook-deliveries?limit=50')).body?.data ?? [];
      return page(reply, s, { title: 'Webhooks', active: 'webhooks', ...flash(req) }, webhooksBody(s, hooks, attempts));
    });
    site.get('/console/webhooks/deliveries/:id', { config, schema }, async (req, reply) => {
      const s = signedIn(req, reply);
      if (!s) return;
      const answer = await api(
        req,
        s,
        'GET',
        `/webhook-deliveries/${encodeURIComponent((req.params as { id: string }).id)}`,
      );
      if (answer.status !== 200)
        return page(
          reply,
          s,
          { title: 'Delivery', active: 'webhooks', error: problemText(answer) },
          html``,
          answer.status,
        );
      const a = answer.body;
      return page(
        reply,
        s,
        { title: 'Delivery', active: 'webhooks', ...flash(req) },
        html`<h1>${a.event_type} · attempt ${a.attempt} ${statusPill(a.succeeded ? 'succeeded' : 'failed')}</h1>
<div class="card row"><form class="inline" method="post" action="/console/webhooks/deliveries/${a.delivery_id}/resend">${csrfField(s.csrf)}<input type="hidden" name="back" value="${a.id}"><button type="submit">Resend</button></form></div>
<h2>Request</h2><pre>${Object.entries(a.request_headers ?? {})
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n')}\n\n${a.request_body}</pre>
<h2>Response</h2><pre>${a.response_status ?? 'no answer'} ${a.error ?? ''}\n\n${a.response_body ?? ''}</pre>`,
      );
    });
    site.post('/console/webhooks/deliveries/:id/resend', { config, schema }, async (req, reply) => {
      const s = posted(req, reply);
      if (!s) return;
      const answer = await api(
        req,
        s,
        'POST',
        `/webhook-deliveries/${encodeURIComponent((req.params as { id: string }).id)}/resend`,
      );
      return back(
        reply,
        '/console/webhooks',
        answer,
        answer.status < 300
          ? `Resent: ${answer.body?.succeeded ? 'delivered' : `failed again (${answer.body?.response_status ?? answer.body?.error ?? 'no answer'})`}.`
          : '',
      );
    });
    site.post('/console/webhooks/:id/:action', { config, schema }, async (req, reply) => {
      const s = posted(req, reply);
      if (!s) return;
      const { id, action } = req.params as { id: string; action: string };
      const path = `/webhooks/${encodeURIComponent(id)}`;
      if (action === 'test') {
        const answer = await api(req, s, 'POST', `${path}/test`, {});
        return back(
          reply,
          '/console/webhooks',
          answer,
          `Test-fire ${answer.body?.succeeded ? 'delivered' : `failed (${answer.body?.response_status ?? 'no answer'})`}.`,
        );
      }
      if (action === 'enable')
        return back(
          reply,
          '/console/webhooks',
          await api(req, s, 'PATCH', path, { status: 'active' }),
          'Endpoint re-enabled.',
        );
      if (action === 'rotate-secret') {
        const answer = await api(req, s, 'POST', `${path}/rotate-secret`);
        if (answer.status >= 300) return back(reply, '/console/webhooks', answer, '');
        // the new secret is shown once, on this answer only: never in a URL, never stored
        return page(
          reply,
          s,
          { title: 'New secret', active: 'webhooks' },
          html`<h1>New signing secret</h1><div class="card"><p>Copy it now: it is not shown again. The previous secret keeps signing alongside it for 24 hours.</p><p class="secret" id="secret">${answer.body.secret}</p><a href="/console/webhooks">Back to webhooks</a></div>`,
        );
      }
      return reply.redirect('/console/webhooks', 303);
    });
  });
};

const webhooksBody = (s: ConsoleSession, hooks: any[], attempts: any[]) =>
  html`<h1>Webhooks</h1>${hooks.length === 0 ? html`<div class="card">No endpoints yet: add one through the API.</div>` : ''}
${hooks.map(
  (
    h,
  ) => html`<div class="card"><div class="row" style="justify-content:space-between"><div><strong>${h.url}</strong> ${statusPill(h.status)}<br><small>${h.events.join(', ')} · ${h.consecutive_failures} failures in a row${h.disabled_at ? ` · disabled ${when(h.disabled_at)}` : ''}</small></div>
<div class="row"><form class="inline" method="post" action="/console/webhooks/${h.id}/test">${csrfField(s.csrf)}<button type="submit">Test-fire</button></form>
${h.status === 'disabled' ? html`<form class="inline" method="post" action="/console/webhooks/${h.id}/enable">${csrfField(s.csrf)}<button type="submit">Re-enable</button></form>` : ''}
<form class="inline" method="post" action="/console/webhooks/${h.id}/rotate-secret">${csrfField(s.csrf)}<button class="plain" type="submit">Rotate secret</button></form></div></div></div>`,
)}
<h2>Delivery log</h2><div class="scroll"><table><thead><tr><th>When</th><th>Event</th><th>Attempt</th><th>Result</th><th>Time</th><th></th></tr></thead><tbody>
${attempts.map(
  (
    a,
  ) => html`<tr><td>${when(a.created_at)}</td><td>${a.event_type}${a.test_fire ? ' (test)' : ''}</td><td>${a.attempt}</td><td>${statusPill(a.succeeded ? 'succeeded' : 'failed')} ${a.response_status ?? a.error ?? ''}</td><td>${a.duration_ms} ms</td>
<td><a href="/console/webhooks/deliveries/${a.id}">request and response</a> <form class="inline" method="post" action="/console/webhooks/deliveries/${a.delivery_id}/resend">${csrfField(s.csrf)}<button class="plain" type="submit">Resend</button></form></td></tr>`,
)}
</tbody></table></div>`;

const humanize = (type: string) =>
  type
    .replace(/^(Offer|Order)/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase() || type;

/** The facts of an event worth a line on the timeline; nothing that names a secret or a key value. */
const summary = (data: unknown): Html => {
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

/** The running balance (both accounts) after each entry, as an inline SVG line: no script, no library. */
const chart = (entries: any[]): Html => {
  if (entries.length === 0) return html`<p>No entries yet.</p>`;
  const sorted = [...entries].sort((a, b) => a.created_at.localeCompare(b.created_at));
  let total = 0;
  const points = sorted.map((e) => ({ t: Date.parse(e.created_at), v: (total += e.amount.amount) }));
  const [t0, t1] = [points[0]!.t, points.at(-1)!.t];
  const max = Math.max(1, ...points.map((p) => p.v));
  const min = Math.min(0, ...points.map((p) => p.v));
  const x = (t: number) => (t1 === t0 ? 300 : 10 + ((t - t0) / (t1 - t0)) * 580);
  const y = (v: number) => 150 - ((v - min) / (max - min)) * 130;
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  return html`<svg viewBox="0 0 600 170" width="100%" role="img" aria-label="balance over time"><line x1="10" y1="${y(0)}" x2="590" y2="${y(0)}" stroke="#c4cad6"/>
<path d="${line}" fill="none" stroke="#3f6fd8" stroke-width="2.5"/>${points.map((p) => html`<circle cx="${x(p.t).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3" fill="#3f6fd8"/>`)}
<text x="10" y="166" font-size="11" fill="#5b6475">${new Date(t0).toISOString().slice(0, 10)}</text><text x="590" y="166" font-size="11" fill="#5b6475" text-anchor="end">${new Date(t1).toISOString().slice(0, 10)} · ${money({ amount: total, currency: 'EUR' })}</text></svg>`;
};
