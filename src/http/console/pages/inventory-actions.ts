import { Buffer } from 'node:buffer';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { all, type Console, type Form, one, query, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { csrfField, html } from '../html.js';
import { done, loadOr, params, posted, render } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { MAX_FILE_ITEM_BYTES } from './file-items-form.js';

/** Pages of available items a batch's confirmation counts through before saying "more than". */
const COUNTED_PAGES = 50;
const COUNT_PAGE = '200';

const n = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** How many of a batch's items a withdrawal would take: the available ones and those under review. */
const countWithdrawable = async (c: Console, req: FastifyRequest, s: ConsoleSession, id: string, batch: string) => {
  let count = 0;
  for (const status of ['available', 'under_review']) {
    let cursor: string | undefined;
    for (let pages = 0; pages < COUNTED_PAGES; pages++) {
      const answer = await c.api(
        req,
        s,
        'GET',
        `/offers/${seg(id)}/inventory${query({ status, batch_id: batch, limit: COUNT_PAGE, cursor })}`,
      );
      if (answer.status !== 200) return { count, atLeast: false };
      count += answer.body.data.length;
      cursor = answer.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    // past what a page view counts: the confirmation says "at least", the API withdraws them all
    if (cursor) return { count, atLeast: true };
  }
  return { count, atLeast: false };
};

/**
 * Withdrawal asks first: a page saying how many items it takes (one, a selection, or every
 * available item of a batch), whose button withdraws them through the API.
 */
const withdraw = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const s = posted(c, req, reply);
  if (!s) return;
  const id = (req.params as { id: string }).id;
  const form = req.body as Form;
  const one_ = params(req).item;
  const batch = one(form, 'batch').trim();
  const items = one_ ? [one_] : all(form, 'item');
  const back = `/console/offers/${id}/inventory`;
  if (!batch && items.length === 0)
    return render(
      c,
      reply,
      s,
      { title: 'Withdraw items', active: 'offers', error: 'Select the items to withdraw first.' },
      html`<p><a href="${back}">Back to the inventory</a></p>`,
      422,
    );
  if (one(form, 'confirmed') !== 'yes') {
    const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
    if (!offer) return;
    const { count, atLeast } = batch
      ? await countWithdrawable(c, req, s, id, batch)
      : { count: items.length, atLeast: false };
    const many = `${atLeast ? 'at least ' : ''}${n(count, 'item')}`;
    const what = batch ? html`every available item of batch <code>${batch}</code>` : html`the selected items`;
    return render(
      c,
      reply,
      s,
      { title: 'Withdraw items', active: 'offers' },
      html`<h1>Withdraw items · <a href="/console/offers/${id}">${offer.body.external_ref}</a></h1>
<div class="card"><p>Withdraw ${many} (${what})? They are taken off sale at once and their values are no longer kept; an item reserved or sold in the meantime is left as it is.</p>
<form method="post" action="/console/offers/${id}/inventory/withdraw">${csrfField(s.csrf)}<input type="hidden" name="confirmed" value="yes">${batch ? html`<input type="hidden" name="batch" value="${batch}">` : items.map((i) => html`<input type="hidden" name="item" value="${i}">`)}
<div class="row"><button class="danger" type="submit">Withdraw ${many}</button><a href="${back}">Cancel</a></div></form></div>`,
    );
  }
  const answer = await c.api(
    req,
    s,
    'POST',
    `/offers/${seg(id)}/inventory/withdrawals`,
    batch ? { batch_id: batch } : { item_ids: items },
  );
  if (answer.status !== 200)
    return render(
      c,
      reply,
      s,
      { title: 'Withdraw items', active: 'offers', error: refusalOf(answer).message },
      html`<p><a href="${back}">Back to the inventory</a></p>`,
      answer.status,
    );
  // items withdrawn before are not news; those reserved, sold or invalidated meanwhile are
  const skipped = answer.body.skipped.filter((k: { status: string }) => k.status !== 'withdrawn').length;
  return done(
    reply,
    back,
    `${n(answer.body.withdrawn, 'item')} withdrawn${skipped ? `, ${n(skipped, 'item')} left as they were (reserved, sold or invalidated)` : ''}; ${answer.body.stock_available} available now.`,
  );
};

/** An item's value whole, on the supplier's explicit request: the API records who and when. */
const reveal = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const s = posted(c, req, reply);
  if (!s) return;
  const { id, item } = req.params as { id: string; item: string };
  const back = `/console/offers/${id}/inventory`;
  const answer = await c.api(req, s, 'POST', `/offers/${seg(id)}/inventory/${seg(item)}/reveal`);
  if (answer.status !== 200)
    return render(
      c,
      reply,
      s,
      { title: 'Reveal', active: 'offers', error: refusalOf(answer).message },
      html`<p><a href="${back}">Back to the inventory</a></p>`,
      answer.status === 422 ? 404 : answer.status,
    );
  const v = answer.body;
  return render(
    c,
    reply,
    s,
    { title: 'Reveal', active: 'offers' },
    html`<h1>Item <code>${item}</code></h1><div class="card">${
      v.kind === 'text'
        ? html`<p>Its value: <code id="revealed">${v.value}</code></p>`
        : html`<p>A file of ${Buffer.from(v.content_base64, 'base64').length.toLocaleString('en')} bytes.</p>`
    }<p class="hint">This reveal is recorded in the offer's history.</p></div><p><a href="${back}">Back to the inventory</a></p>`,
  );
};

/** The type of a file item by its first bytes: what the API checks it against. */
const typeOf = (bytes: Buffer): string | undefined =>
  bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    ? 'image/png'
    : bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))
      ? 'image/jpeg'
      : bytes.subarray(0, 5).toString('latin1') === '%PDF-'
        ? 'application/pdf'
        : undefined;

const uploadFiles = async (c: Console, req: FastifyRequest, reply: FastifyReply) => {
  const s = posted(c, req, reply);
  if (!s) return;
  const id = (req.params as { id: string }).id;
  const back = `/console/offers/${id}/inventory`;
  const refuse = (error: string, status = 422) =>
    render(
      c,
      reply,
      s,
      { title: 'Upload file items', active: 'offers', error },
      html`<p><a href="${back}">Back to the inventory</a></p>`,
      status,
    );
  const sent = all(req.body as Form, 'file');
  if (sent.length === 0) return refuse('Pick one or more files first.');
  const items: { kind: string; file_name: string; content_type: string; content_base64: string }[] = [];
  for (const entry of sent) {
    const at = entry.indexOf('/');
    const name = entry.slice(0, Math.max(at, 0)).trim() || 'file';
    const bytes = Buffer.from(entry.slice(at + 1), 'base64');
    const type = typeOf(bytes);
    if (!type) return refuse(`${name} is not a PNG, JPEG or PDF file.`);
    if (bytes.length > MAX_FILE_ITEM_BYTES) return refuse(`${name} is larger than 200 KB.`, 413);
    items.push({ kind: 'file', file_name: name, content_type: type, content_base64: bytes.toString('base64') });
  }
  const answer = await c.api(req, s, 'POST', `/offers/${seg(id)}/inventory`, { mode: 'strict', items });
  if (answer.status !== 201) {
    const reasons: any[] = answer.body?.errors ?? answer.body?.rejected ?? [];
    const words = reasons
      .map((r) => `${items[Number(r.index)]?.file_name ?? 'a file'}: ${String(r.message ?? '')}`)
      .join(' ');
    return refuse(words || refusalOf(answer).message, answer.status);
  }
  return done(
    reply,
    back,
    `${n(answer.body.accepted, 'file item')} uploaded; ${answer.body.stock_available} available now.`,
  );
};

/** A file item form's body: 1,000 files of 200 KB as base64 is the API's own upload limit. */
const FILES_ROUTE = { ...ROUTE, bodyLimit: 64 * 1024 * 1024 } as const;

export const registerInventoryActions = (site: FastifyInstance, c: Console) => {
  site.post('/console/offers/:id/inventory/withdraw', ROUTE, (req, reply) => withdraw(c, req, reply));
  site.post('/console/offers/:id/inventory/:item/reveal', ROUTE, (req, reply) => reveal(c, req, reply));
  site.post('/console/offers/:id/inventory/files', FILES_ROUTE, (req, reply) => uploadFiles(c, req, reply));
};
