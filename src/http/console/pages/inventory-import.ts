import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IMPORT_BODY_LIMIT } from '../../inventory-imports.js';
import { type Answer, type Console, type Form, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { type Html, html } from '../html.js';
import { loadOr, posted, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { keyImportForm, sentKeys } from './key-import-form.js';

/** The form of a whole file of keys: as large as the API's import takes. */
const IMPORT_ROUTE = { ...ROUTE, bodyLimit: IMPORT_BODY_LIMIT } as const;

/** Refused lines shown on the preview page; a larger list is in the import's CSV once stored. */
const SHOWN_REFUSALS = 2_000;

/** How long storing waits for a small import to finish, so its page shows the result at once. */
const SETTLE_MS = 3_000;

const heading = (offer: Answer, id: string) =>
  html`<h1>Import keys · <a href="/console/offers/${id}/inventory">${offer.body.external_ref}</a></h1>`;

const notTextFile = (name: string) =>
  `${name} is not a text file: keys are read from text, CSV or TSV files (a picture or a PDF is a file item, uploaded below the inventory).`;

/** The import form again after a refusal: what was sent kept, the reason beside it. */
const refusedPage = (
  c: Console,
  reply: FastifyReply,
  s: ConsoleSession,
  offer: Answer,
  id: string,
  form: { keys: string; fileName: string },
  error: string,
  status: number,
) =>
  render(
    c,
    reply,
    s,
    { title: 'Import keys', active: 'offers', error },
    html`${heading(offer, id)}${keyImportForm(s, id, { keys: form.keys, error })}`,
    status,
  );

const refusedTable = (refused: any[]): Html =>
  refused.length === 0
    ? html``
    : html`<div class="card"><h2 style="margin-top:0">Lines not added</h2><div class="scroll"><table><thead><tr><th>Line</th><th>Reason</th><th>As read (masked)</th></tr></thead><tbody>${refused
        .slice(0, SHOWN_REFUSALS)
        .map(
          (r) => html`<tr><td>${r.line}</td><td>${r.words}</td><td><code>${r.shown}</code></td></tr>`,
        )}</tbody></table></div>${
        refused.length > SHOWN_REFUSALS
          ? html`<p>And ${(refused.length - SHOWN_REFUSALS).toLocaleString('en')} more: every one is in the import's CSV once stored.</p>`
          : ''
      }</div>`;

const n = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/**
 * What the preview and the store share: the signed-in post, its offer, the keys sent (pasted
 * and from a file) refused as a page when they are not text or are none, and the API's
 * answer to them at `path`, refused as a page unless it is `expected`.
 */
const sendKeys = async (c: Console, req: FastifyRequest, reply: FastifyReply, path: string, expected: number) => {
  const s = posted(c, req, reply);
  if (!s) return undefined;
  const id = (req.params as { id: string }).id;
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return undefined;
  const sent = sentKeys(req.body as Form);
  if ('notText' in sent) return void (await refusedPage(c, reply, s, offer, id, sent, notTextFile(sent.notText), 422));
  if (!sent.content.trim())
    return void (await refusedPage(
      c,
      reply,
      s,
      offer,
      id,
      { keys: '', ...sent },
      'Paste keys or add a file first.',
      422,
    ));
  const answer = await c.api(req, s, 'POST', `/offers/${seg(id)}/inventory/imports${path}`, {
    file_name: sent.fileName,
    content: sent.content,
  });
  if (answer.status !== expected)
    return void (await refusedPage(
      c,
      reply,
      s,
      offer,
      id,
      { keys: sent.content, ...sent },
      refusalOf(answer).message,
      answer.status,
    ));
  return { s, id, offer, sent, answer };
};

const preview = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const done = await sendKeys(c, req, reply, '/preview', 200);
  if (!done) return;
  const { s, id, offer, sent, answer } = done;
  const p = answer.body;
  return render(
    c,
    reply,
    s,
    { title: 'Import preview', active: 'offers' },
    html`${heading(offer, id)}<div class="notice" role="status">${n(p.keys, 'key')} will be added from ${n(p.lines, 'line')}; ${n(p.refused.length, 'line')} will not.</div>
${keyImportForm(s, id, { keys: sent.content, fileName: sent.fileName, store: p.keys })}${refusedTable(p.refused)}`,
  );
};

const store = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const done = await sendKeys(c, req, reply, '', 202);
  if (!done) return;
  const { s, id, answer } = done;
  const job = `/offers/${seg(id)}/inventory/imports/${seg(answer.body.id)}`;
  // a file of a few keys is stored in a moment: its page shows the result rather than a bar
  for (const until = Date.now() + SETTLE_MS; Date.now() < until;) {
    const now = await c.api(req, s, 'GET', job);
    if (now.status !== 200 || now.body.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return reply.redirect(`/console${job}`, 303);
};

const timeLeft = (seconds: number | null) =>
  seconds === null
    ? 'working out the time left'
    : seconds < 90
      ? `about ${seconds} s left`
      : `about ${Math.round(seconds / 60)} min left`;

const progressPage = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const s = signedIn(req, reply);
  if (!s) return;
  const { id, importId } = req.params as { id: string; importId: string };
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const answer = await loadOr(c, req, reply, s, 'import', `/offers/${seg(id)}/inventory/imports/${seg(importId)}`);
  if (!answer) return;
  const j = answer.body;
  const running = j.status !== 'completed';
  const csv = `/console/offers/${id}/inventory/imports/${importId}/refused.csv`;
  const result = running
    ? html`<meta http-equiv="refresh" content="2"><div class="notice" role="status">Storing: ${n(j.done, 'key')} of ${j.keys.toLocaleString('en')} recorded, ${timeLeft(j.seconds_left)}. This page refreshes itself every 2 seconds; the import goes on if you leave it.</div>`
    : html`<div class="notice" role="status">${n(j.added, 'key')} added in batch <a href="/console/offers/${id}/inventory?batch=${j.batch_id}">${j.batch_id}</a>; ${n(j.refused, 'line')} not added.</div>`;
  return render(
    c,
    reply,
    s,
    { title: running ? 'Import running' : 'Import completed', active: 'offers' },
    html`${heading(offer, id)}${result}<div class="card"><label for="progress">Keys recorded</label>
<progress id="progress" max="${Math.max(j.keys, 1)}" value="${j.done}">${j.done} of ${j.keys}</progress>
<table><tbody><tr><th scope="row">File</th><td>${j.file_name}</td></tr><tr><th scope="row">Lines read</th><td>${j.lines.toLocaleString('en')}</td></tr><tr><th scope="row">Keys to add</th><td>${j.keys.toLocaleString('en')}</td></tr><tr><th scope="row">Recorded</th><td>${j.done.toLocaleString('en')}</td></tr><tr><th scope="row">Lines not added</th><td>${j.refused.toLocaleString('en')}${j.refused > 0 ? html` · <a href="${csv}" download>Download the lines not added (CSV)</a>` : ''}</td></tr><tr><th scope="row">Batch</th><td><code>${j.batch_id}</code></td></tr></tbody></table></div>
<p><a href="/console/offers/${id}/inventory">Back to the inventory</a></p>`,
  );
};

const refusedCsv = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const s = signedIn(req, reply);
  if (!s) return;
  const { id, importId } = req.params as { id: string; importId: string };
  const answer = await loadOr(
    c,
    req,
    reply,
    s,
    'import',
    `/offers/${seg(id)}/inventory/imports/${seg(importId)}`,
    'text/csv',
  );
  if (!answer) return;
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="refused-${importId.replace(/[^A-Za-z0-9_-]/g, '')}.csv"`)
    .type('text/csv; charset=utf-8')
    .send(answer.text);
};

export const registerInventoryImport = (site: FastifyInstance, c: Console) => {
  site.post('/console/offers/:id/inventory/preview', IMPORT_ROUTE, (req, reply) => preview(c, req, reply));
  site.post('/console/offers/:id/inventory', IMPORT_ROUTE, (req, reply) => store(c, req, reply));
  site.get('/console/offers/:id/inventory/imports/:importId', ROUTE, (req, reply) => progressPage(c, req, reply));
  site.get('/console/offers/:id/inventory/imports/:importId/refused.csv', ROUTE, (req, reply) =>
    refusedCsv(c, req, reply),
  );
};
