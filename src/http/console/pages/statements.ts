import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, ROUTE, seg } from '../core.js';
import { field } from '../forms.js';
import { html, money, when } from '../html.js';
import { loadOr, params, render, signedIn, unanswered } from '../page.js';
import type { ConsoleSession } from '../session.js';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The last twelve months, this one first, by the service's clock. */
const recentMonths = (now: Date) =>
  Array.from({ length: 12 }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
  );

const statementsPage = (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const month = params(req).month;
  if (month !== undefined && MONTH.test(month)) return reply.redirect(`/console/statements/${month}`, 303);
  const refusal =
    month === undefined
      ? undefined
      : { message: 'Check the month.', fields: { month: 'Month must be a month, like 2026-11.' } };
  return render(
    c,
    reply,
    s,
    { title: 'Statements', active: 'statements', ...(refusal && { error: refusal.message }) },
    html`<h1>Monthly statements</h1><form class="card row" method="get" action="/console/statements">${field({ name: 'month', label: 'Month', type: 'month', hint: 'Like 2026-11', state: { values: params(req), refusal } })}<button type="submit">View statement</button></form>
<div class="card"><ul class="links">${recentMonths(c.services.clock.now()).map((m) => html`<li><a href="/console/statements/${m}">${m}</a></li>`)}</ul></div>`,
    refusal ? 422 : 200,
  );
};

const statementPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  month: string,
) => {
  const answer = await loadOr(c, req, reply, s, 'statement', `/balance/statements/${seg(month)}`);
  if (!answer) return;
  const st = answer.body;
  return render(
    c,
    reply,
    s,
    { title: `Statement ${month}`, active: 'statements' },
    html`<h1>Statement ${month}</h1><p>${st.supplier_name} · ${when(st.from)} to ${when(st.to)} (excluded) · <a href="/console/statements/${month}/csv">Download CSV</a> · <a href="/console/statements/${month}/print">Printable statement</a></p>
<div class="card stats"><div class="stat">Opening available<b>${money(st.opening?.available)}</b></div><div class="stat">Opening pending<b>${money(st.opening?.pending)}</b></div>
<div class="stat">Closing available<b>${money(st.closing?.available)}</b></div><div class="stat">Closing pending<b>${money(st.closing?.pending)}</b></div></div>
<div class="scroll"><table><thead><tr><th>When</th><th>Type</th><th>Account</th><th>Gross</th><th>Commission</th><th>Net</th></tr></thead><tbody>${(st.entries ?? []).map((e: any) => html`<tr><td>${when(e.created_at)}</td><td>${e.type}</td><td>${e.account}</td><td>${e.gross ? money(e.gross) : ''}</td><td>${e.commission ? money(e.commission) : ''}</td><td>${money(e.amount)}</td></tr>`)}</tbody></table></div>
${(st.entries ?? []).length === 0 ? html`<p>No entries this month.</p>` : ''}`,
  );
};

/** The API's own CSV or printable page of the statement, passed on as it answered. */
const statementFile = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  month: string,
  kind: 'csv' | 'print',
) => {
  const accept = kind === 'csv' ? 'text/csv' : 'text/html';
  const answer = await loadOr(c, req, reply, s, 'statement', `/balance/statements/${seg(month)}`, accept);
  if (!answer) return;
  if (kind === 'csv') reply.header('content-disposition', `attachment; filename="statement-${month}.csv"`);
  else reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  return reply
    .header('cache-control', 'no-store')
    .type(answer.type || accept)
    .send(answer.text);
};

export const registerStatements = (site: FastifyInstance, c: Console) => {
  site.get('/console/statements', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return statementsPage(c, req, reply, s);
  });
  site.get('/console/statements/:month', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return statementPage(c, req, reply, s, (req.params as { month: string }).month);
  });
  site.get('/console/statements/:month/:kind', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    const { month, kind } = req.params as { month: string; kind: string };
    if (s && (kind === 'csv' || kind === 'print')) return statementFile(c, req, reply, s, month, kind);
    if (s) return unanswered(c, reply, s, { status: 404, body: undefined, text: '', type: '' }, 'statement');
  });
};
