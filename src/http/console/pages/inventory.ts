import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, query, ROUTE, seg } from '../core.js';
import { field, select } from '../forms.js';
import { csrfField, type Html, html, statusPill, when } from '../html.js';
import { flash, loadOr, params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { fileItemsForm } from './file-items-form.js';
import { keyImportForm } from './key-import-form.js';

const STATUSES = [
  ['', 'any status'],
  ['available', 'available'],
  ['reserved', 'reserved'],
  ['sold', 'sold'],
  ['under_review', 'under review'],
  ['withdrawn', 'withdrawn'],
  ['invalidated', 'invalidated'],
] as const;

const PAGE_SIZE = '100';

const sizeInWords = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

/** What a supplier sees of an item: a key masked, a file by its name and size; Reveal shows it whole. */
const valueOf = (i: any): Html =>
  i.kind === 'file'
    ? html`${i.file_name} <span class="hint">(${sizeInWords(i.size ?? 0)})</span>`
    : html`<code>${i.masked_value}</code>`;

const filters = (id: string, f: Record<string, string>) =>
  html`<form method="get" action="/console/offers/${id}/inventory" class="card"><div class="row">${select({ name: 'status', id: 'filter-status', label: 'Status', options: STATUSES, value: f.status ?? '' })}${field({ name: 'batch', id: 'filter-batch', label: 'Batch', value: f.batch ?? '' })}${field({ name: 'last4', id: 'filter-last4', label: 'Last 4 characters', value: f.last4 ?? '', attrs: html` maxlength="4"` })}<button type="submit">Show</button></div></form>`;

const itemsTable = (s: ConsoleSession, id: string, items: any[], batch: string | undefined) =>
  html`<form method="post" action="/console/offers/${id}/inventory/withdraw">${csrfField(s.csrf)}
<div class="scroll"><table><thead><tr><th scope="col">Select</th><th scope="col">Value</th><th scope="col">Status</th><th scope="col">Batch</th><th scope="col">Uploaded</th><th scope="col">Order</th><th scope="col">Actions</th></tr></thead><tbody>
${items.map(
  (i) =>
    html`<tr><td>${i.status === 'available' || i.status === 'under_review' ? html`<input type="checkbox" name="item" value="${i.id}" id="select-${i.id}" aria-label="Select ${i.kind === 'file' ? i.file_name : i.masked_value}">` : ''}</td><td>${valueOf(i)}</td><td>${statusPill(i.status)}</td><td><a href="/console/offers/${id}/inventory?batch=${i.batch_id}"><code>${i.batch_id}</code></a></td><td>${when(i.created_at)}</td><td>${i.order_id ? html`<a href="/console/orders/${i.order_id}"><code>${i.order_id}</code></a>` : ''}</td><td>${i.status === 'withdrawn' ? '' : html`<button class="plain" type="submit" formaction="/console/offers/${id}/inventory/${i.id}/reveal" aria-label="Reveal ${i.kind === 'file' ? i.file_name : i.masked_value}">Reveal</button>`}${i.status === 'available' || i.status === 'under_review' ? html` <button class="plain" type="submit" formaction="/console/offers/${id}/inventory/withdraw?item=${i.id}" aria-label="Withdraw ${i.kind === 'file' ? i.file_name : i.masked_value}">Withdraw</button>` : ''}</td></tr>`,
)}
</tbody></table></div>
${items.length ? html`<div class="row"><button type="submit">Withdraw selected</button>${batch ? html`<button class="danger" type="submit" name="batch" value="${batch}">Withdraw all available in this batch</button>` : ''}</div>` : html`<p>No item matches.</p>`}</form>`;

const inventoryPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const f = params(req);
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  // a filter the API does not take (an unknown status, a batch or last 4 out of shape) shows
  // no item and says so, rather than a refusal page
  const answer = await c.api(
    req,
    s,
    'GET',
    `/offers/${seg(id)}/inventory${query({ status: f.status, batch_id: f.batch, last4: f.last4, cursor: f.cursor, limit: PAGE_SIZE })}`,
  );
  const items: any[] = answer.status === 200 ? answer.body.data : [];
  const next: string | null = answer.status === 200 ? answer.body.next_cursor : null;
  const stock = offer.body.stock ?? {};
  return render(
    c,
    reply,
    s,
    {
      title: 'Inventory',
      active: 'offers',
      ...flash(req),
      ...(answer.status !== 200 && { error: 'No item matches that filter.' }),
    },
    html`<h1>Inventory · <a href="/console/offers/${id}">${offer.body.external_ref}</a></h1>
<p>${stock.available ?? 0} available, ${stock.reserved ?? 0} reserved, ${stock.delivered ?? 0} sold.</p>
${keyImportForm(s, id)}${fileItemsForm(s, id)}
<h2>Items</h2>${filters(id, f)}${itemsTable(s, id, items, f.batch || undefined)}
${next ? html`<p><a href="/console/offers/${id}/inventory${query({ status: f.status, batch: f.batch, last4: f.last4, cursor: next })}">Next page</a></p>` : ''}`,
  );
};

export const registerInventory = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/inventory', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return inventoryPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
