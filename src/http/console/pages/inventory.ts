import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, query, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { select, textarea } from '../forms.js';
import { csrfField, type Html, html, statusPill, when } from '../html.js';
import { flash, loadOr, params, posted, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';

const MODES = [
  ['strict', 'strict: all or nothing'],
  ['partial', 'partial: keep the good lines'],
] as const;

// reads a chosen file into the text area: the keys never leave the browser but through the form
const FILE_READER = html`<script>document.getElementById('file').addEventListener('change',function(e){var f=e.target.files[0];if(!f)return;f.text().then(function(t){document.getElementById('keys').value=t.split(/\\r?\\n/).map(function(l){return l.split(',')[0].trim()}).filter(Boolean).join('\\n')})})</script>`;

const uploadForm = (
  s: ConsoleSession,
  id: string,
) => html`<div class="card"><h2 style="margin-top:0">Upload keys</h2><form method="post" action="/console/offers/${id}/inventory">${csrfField(s.csrf)}
${textarea({ name: 'keys', label: 'Keys, one per line' })}
<label for="file">Or a text or CSV file (first column)</label><input id="file" type="file" accept=".txt,.csv,text/plain,text/csv">
<div class="row">${select({ name: 'mode', label: 'Mode', options: MODES })}<button type="submit">Upload keys</button></div></form>${FILE_READER}</div>`;

const inventoryPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  id: string,
  result?: Html,
  status = 200,
) => {
  const filter = params(req).status;
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  // a status in the URL the API does not know shows no item, not a refusal page
  const items: any[] =
    (await c.api(req, s, 'GET', `/offers/${seg(id)}/inventory${query({ status: filter, limit: '100' })}`)).body?.data ??
    [];
  return render(
    c,
    reply,
    s,
    { title: 'Inventory', active: 'offers', ...flash(req) },
    html`<h1>Inventory · <a href="/console/offers/${id}">${offer.body.external_ref}</a></h1>${result ?? ''}${uploadForm(s, id)}
<h2>Items</h2><p>${['', 'available', 'reserved', 'delivered', 'invalidated'].map((st) => html`<a href="/console/offers/${id}/inventory${st ? `?status=${st}` : ''}">${st || 'all'}</a> `)}</p>
<div class="scroll"><table><thead><tr><th>Item</th><th>Status</th><th>Uploaded</th></tr></thead><tbody>
${items.map((i) => html`<tr><td><code>${i.id}</code></td><td>${statusPill(i.status)}</td><td>${when(i.created_at)}</td></tr>`)}
</tbody></table></div>`,
    status,
  );
};

/** The upload's result: the counts, and each refused line with its reason. */
const uploadResult = (answer: { status: number; body: any }): Html => {
  const rejected: any[] = answer.body?.rejected ?? answer.body?.errors ?? [];
  const result =
    answer.status < 300
      ? html`<div class="notice" role="status">${answer.body.accepted} accepted, ${rejected.length} rejected; ${answer.body.stock_available} available now.</div>`
      : html`<div class="notice error" role="alert">${answer.body?.code === 'inventory_rejected' ? 'Inventory rejected: no key was added.' : refusalOf(answer as any).message}</div>`;
  const reasons = rejected.length
    ? html`<div class="card"><h2>Rejected lines</h2><table><thead><tr><th>Line</th><th>Reason</th></tr></thead><tbody>${rejected.map(
        (r) =>
          html`<tr><td>${
            r.index !== undefined
              ? Number(r.index) + 1
              : String(r.field ?? '')
                  .replace(/\D+/g, ' ')
                  .trim()
          }</td><td><code>${r.code ?? ''}</code> ${r.message ?? ''}</td></tr>`,
      )}</tbody></table></div>`
    : '';
  return html`${result}${reasons}`;
};

export const registerInventory = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/inventory', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return inventoryPage(c, req, reply, s, (req.params as { id: string }).id);
  });
  site.post('/console/offers/:id/inventory', { ...ROUTE, bodyLimit: 8 * 1024 * 1024 }, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const form = req.body as Form;
    const lines = one(form, 'keys')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const answer = await c.api(req, s, 'POST', `/offers/${seg(id)}/inventory`, {
      mode: one(form, 'mode') === 'partial' ? 'partial' : 'strict',
      items: lines.map((value) => ({ kind: 'text', value })),
    });
    return inventoryPage(c, req, reply, s, id, uploadResult(answer), answer.status < 300 ? 200 : answer.status);
  });
};
