import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, query, ROUTE } from '../core.js';
import { balanceChart } from '../chart.js';
import { type Refusal, refusalOf } from '../errors.js';
import { dayEnd, dayStart, field, select } from '../forms.js';
import { html, money, when } from '../html.js';
import { params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { durationText } from './payouts.js';

const TYPES = ['sale', 'settlement', 'refund', 'payout', 'payout_reversal'];

/**
 * The filter as a person means it: a type, and days (From: from the start of that day UTC;
 * To: to the end of that day, included). As the API takes it: instants, `to` exclusive.
 */
export const balanceFilter = (
  q: Record<string, string>,
): { api: Record<string, string | undefined>; refusal?: Refusal } => {
  const fields: Record<string, string> = {};
  const from = q.from ? dayStart(q.from) : undefined;
  const to = q.to ? dayEnd(q.to) : undefined;
  if (q.from && !from) fields.from = 'From must be a date, like 2026-11-01.';
  if (q.to && !to) fields.to = 'To must be a date, like 2026-11-30.';
  if (from && to && to <= from) fields.to = 'To must be the same day as From or later.';
  if (q.type && !TYPES.includes(q.type)) fields.type = 'Type is not one of the choices.';
  const api = { type: q.type || undefined, from: from?.toISOString(), to: to?.toISOString() };
  return Object.keys(fields).length ? { api, refusal: { message: 'Check the filter.', fields } } : { api };
};

/** Every entry of the filter, page after page (up to 5,000), or the API's refusal. */
export const allEntries = async (
  c: Console,
  req: FastifyRequest,
  s: ConsoleSession,
  filter: Record<string, string | undefined>,
) => {
  const entries: any[] = [];
  let cursor: string | undefined;
  do {
    const res = await c.api(req, s, 'GET', `/balance/entries${query({ ...filter, limit: '200', cursor })}`);
    if (res.status !== 200)
      return {
        entries,
        refusal: refusalOf(res, { from: { name: 'from', label: 'From' }, to: { name: 'to', label: 'To' } }),
        status: res.status,
      };
    entries.push(...res.body.data);
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor && entries.length < 5000);
  return { entries };
};

const filterForm = (q: Record<string, string>, refusal?: Refusal) => {
  const state = { values: q, refusal };
  return html`<form class="card row" method="get" action="/console/balance">
${select({ name: 'type', label: 'Type', options: [['', 'any'], ...TYPES.map((t) => [t, t.replace('_', ' ')] as const)], state })}
${field({ name: 'from', label: 'From', type: 'date', state })}${field({ name: 'to', label: 'To', type: 'date', hint: 'Included', state })}
<button type="submit">Filter</button><a href="/console/balance.csv${query({ type: q.type, from: q.from, to: q.to })}">Export CSV</a></form>`;
};

const balancePage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const q = params(req);
  const filter = balanceFilter(q);
  const balance = (await c.api(req, s, 'GET', '/balance')).body;
  const schedule = (await c.api(req, s, 'GET', '/payouts/schedule')).body;
  const read = filter.refusal
    ? { entries: [], refusal: filter.refusal, status: 422 }
    : await allEntries(c, req, s, filter.api);
  return render(
    c,
    reply,
    s,
    { title: 'Balance', active: 'balance', ...(read.refusal && { error: read.refusal.message }) },
    html`<h1>Balance</h1><div class="card stats"><div class="stat">Available<b>${money(balance?.available)}</b></div><div class="stat">Pending<b>${money(balance?.pending)}</b></div></div>
${schedule ? html`<p id="hold">A sale's proceeds stay pending for ${durationText(schedule.holding_period_seconds)} after delivery, then become available. Payouts start at ${money(schedule.payout_minimum)}: see <a href="/console/payouts">Payouts</a>.</p>` : ''}
${filterForm(q, read.refusal)}<div class="card"><h2 style="margin-top:0">Balance over time</h2>${balanceChart(read.entries)}</div>
<div class="scroll"><table><thead><tr><th>When</th><th>Type</th><th>Account</th><th>Amount</th><th>Order or payout</th></tr></thead><tbody>
${read.entries.slice(0, 200).map((e) => html`<tr><td>${when(e.created_at)}</td><td>${e.type}</td><td>${e.account}</td><td>${money(e.amount)}</td><td>${e.order_id ? html`<a href="/console/orders/${e.order_id}"><code>${e.order_id}</code></a>` : e.payout_id ? html`<a href="/console/payouts/${e.payout_id}"><code>${e.payout_id}</code></a>` : ''}</td></tr>`)}
</tbody></table></div>`,
    read.status ?? 200,
  );
};

export const registerBalance = (site: FastifyInstance, c: Console) => {
  site.get('/console/balance', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return balancePage(c, req, reply, s);
  });
};
