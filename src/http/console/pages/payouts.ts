import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { fieldRefusal, refusalOf } from '../errors.js';
import { cents, field, type FormState, select } from '../forms.js';
import { csrfField, html, money, statusPill, when } from '../html.js';
import { done, flash, loadOr, posted, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';

const METHODS = [
  ['sepa_bank_transfer', 'SEPA bank transfer'],
  ['paypal', 'PayPal'],
] as const;
const FIELDS = {
  amount: { name: 'amount', label: 'Amount', money: true },
  method: { name: 'method', label: 'Method' },
};

const payoutRow = (p: any) =>
  html`<tr><td><a href="/console/payouts/${p.id}"><code>${p.id}</code></a></td><td>${money(p.amount)}</td><td>${statusPill(p.status)}${p.failure_code ? html`<br><small>${p.failure_code}</small>` : ''}</td><td>${p.method === 'paypal' ? 'PayPal' : 'SEPA'} · ${p.trigger}</td><td>${when(p.created_at)}</td></tr>`;

const payoutsPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  state: FormState = {},
  status = 200,
) => {
  const balance = (await c.api(req, s, 'GET', '/balance')).body;
  const list = await loadOr(c, req, reply, s, 'page', '/payouts?limit=100');
  if (!list) return;
  const payouts: any[] = list.body.data;
  return render(
    c,
    reply,
    s,
    { title: 'Payouts', active: 'payouts', ...flash(req), ...(state.refusal && { error: state.refusal.message }) },
    html`<h1>Payouts</h1><div class="card stats"><div class="stat">Available to pay out<b>${money(balance?.available)}</b></div><div class="stat">Pending<b>${money(balance?.pending)}</b></div></div>
<div class="card"><h2 style="margin-top:0">Request a payout</h2><form class="row" method="post" action="/console/payouts">${csrfField(s.csrf)}
${field({ name: 'amount', label: 'Amount', hint: 'In euros, like 25.00', attrs: html` inputmode="decimal"`, required: true, state })}${select({ name: 'method', label: 'Method', options: METHODS, state })}<button type="submit">Request payout</button></form></div>
<div class="scroll"><table><thead><tr><th>Payout</th><th>Amount</th><th>Status</th><th>Method</th><th>Requested</th></tr></thead><tbody>${payouts.map(payoutRow)}</tbody></table></div>
${payouts.length === 0 ? html`<p>No payouts yet.</p>` : ''}`,
    status,
  );
};

const requestPayout = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const form = (req.body ?? {}) as Form;
  const amount = cents(one(form, 'amount'));
  if (Number.isNaN(amount))
    return payoutsPage(
      c,
      req,
      reply,
      s,
      { values: form, refusal: fieldRefusal('amount', 'Amount must be an amount in euros, like 25.00.') },
      422,
    );
  const answer = await c.api(req, s, 'POST', '/payouts', {
    amount: { amount, currency: 'EUR' },
    method: one(form, 'method') || 'sepa_bank_transfer',
  });
  if (answer.status >= 300)
    return payoutsPage(c, req, reply, s, { values: form, refusal: refusalOf(answer, FIELDS) }, answer.status);
  return done(reply, `/console/payouts/${seg(answer.body.id)}`, `Payout of ${money(answer.body.amount)} requested.`);
};

const payoutPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const answer = await loadOr(c, req, reply, s, 'payout', `/payouts/${seg(id)}`);
  if (!answer) return;
  const p = answer.body;
  const steps = [
    ['requested', p.created_at],
    ['in transit', p.in_transit_at],
    ['paid', p.paid_at],
    ['failed', p.failed_at],
    ['cancelled', p.cancelled_at],
  ].filter(([, at]) => at);
  return render(
    c,
    reply,
    s,
    { title: 'Payout', active: 'payouts', ...flash(req) },
    html`<h1>Payout ${money(p.amount)} ${statusPill(p.status)}</h1><div class="card"><ul class="timeline">${steps.map(([what, at]) => html`<li><strong>${what}</strong> <small>${when(at)}</small></li>`)}</ul>${p.failure_code ? html`<p>Failure: ${p.failure_code}</p>` : ''}</div>
<h2>Balance entries</h2><div class="scroll"><table><thead><tr><th>When</th><th>Type</th><th>Account</th><th>Amount</th></tr></thead><tbody>${(p.balance_entries ?? []).map((e: any) => html`<tr><td>${when(e.created_at)}</td><td>${e.type}</td><td>${e.account}</td><td>${money(e.amount)}</td></tr>`)}</tbody></table></div>
<p><a href="/console/payouts">All payouts</a></p>`,
  );
};

export const registerPayouts = (site: FastifyInstance, c: Console) => {
  site.get('/console/payouts', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return payoutsPage(c, req, reply, s);
  });
  site.post('/console/payouts', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (s) return requestPayout(c, req, reply, s);
  });
  site.get('/console/payouts/:id', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return payoutPage(c, req, reply, s, (req.params as { id: string }).id);
  });
};
