import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { confirmPage } from '../confirm.js';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { fieldRefusal, refusalOf } from '../errors.js';
import { cents, field, type FormState, select } from '../forms.js';
import { csrfField, html, money, statusPill, when } from '../html.js';
import { done, flash, loadOr, posted, render, signedIn } from '../page.js';
import { redirectRefused, takeRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';
import { destinationsCard } from './payout-destinations.js';

const PAGE = '/console/payouts';
const FIELDS = {
  amount: { name: 'amount', label: 'Amount', money: true },
  destination_id: { name: 'destination', label: 'Destination' },
  method: { name: 'destination', label: 'Destination' },
};

/** A duration in the largest whole unit a person would say it in: "7 days", "10 minutes". */
export const durationText = (seconds: number) => {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
};

const scheduleText = (schedule: any) =>
  schedule.interval === 'manual'
    ? 'Manual: a payout is made when you request one below.'
    : `${schedule.interval === 'daily' ? 'Daily at 00:00 UTC' : 'Weekly, Mondays at 00:00 UTC'}: the whole available balance when it is at least ${money(schedule.minimum_amount)}.`;

/** The rules of the money, on the page before any of them bites: the hold, the minimum, the schedule, the next date. */
const factsCard = (schedule: any, sandbox: boolean) =>
  html`<div class="card"><h2 style="margin-top:0">How payouts work</h2><dl class="facts">
<dt>Hold</dt><dd>A sale's proceeds stay pending for ${durationText(schedule.holding_period_seconds)} after delivery, then become available.</dd>
<dt>Minimum</dt><dd>A payout is at least ${money(schedule.payout_minimum)}.</dd>
<dt>Schedule</dt><dd>${scheduleText(schedule)}</dd>
<dt>Next payout</dt><dd>${schedule.next_payout_at ? when(schedule.next_payout_at) : 'None scheduled: request one below.'}</dd>
${sandbox ? html`<dt>Sandbox</dt><dd>A payout to a destination is in transit 30 seconds after the request and paid 30 seconds later; to the test IBAN it fails and the amount returns to available.</dd>` : ''}
</dl></div>`;

const methodText = (p: any) => (p.method === 'paypal' ? 'PayPal' : 'SEPA');

const payoutRow = (p: any) =>
  html`<tr><td><a href="${PAGE}/${p.id}"><code>${p.id}</code></a></td><td>${money(p.amount)}</td><td>${statusPill(p.status)}${p.failure_code ? html`<br><small>${p.failure_code}</small>` : ''}</td><td>${p.destination ? p.destination.account : methodText(p)} · ${p.trigger}</td><td>${when(p.created_at)}</td></tr>`;

const requestForm = (s: ConsoleSession, destinations: any[], schedule: any, state: FormState) => {
  const options = destinations.map((d) => [d.id, `${d.account}${d.default ? ' (default)' : ''}`] as const);
  const chosen = destinations.find((d) => d.default)?.id ?? '';
  return html`<div class="card"><h2 style="margin-top:0">Request a payout</h2>${
    destinations.length === 0
      ? html`<p>Add a destination above first: a payout needs somewhere to go.</p>`
      : html`<form class="row" method="post" action="${PAGE}">${csrfField(s.csrf)}
${field({ name: 'amount', label: 'Amount', hint: `In euros, at least ${money(schedule.payout_minimum)}`, attrs: html` inputmode="decimal"`, required: true, state })}${select({ name: 'destination', label: 'Destination', options, state: { ...state, values: { destination: chosen, ...state.values } } })}<button type="submit">Request payout</button></form>`
  }</div>`;
};

const payoutsPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const refused = takeRefused(c, req, reply, s, PAGE);
  const state = refused?.state ?? {};
  const balance = (await c.api(req, s, 'GET', '/balance')).body;
  const schedule = (await c.api(req, s, 'GET', '/payouts/schedule')).body;
  const destinations: any[] = (await c.api(req, s, 'GET', '/payout-destinations')).body?.data ?? [];
  const list = await loadOr(c, req, reply, s, 'page', '/payouts?limit=100');
  if (!list) return;
  const payouts: any[] = list.body.data;
  return render(
    c,
    reply,
    s,
    { title: 'Payouts', active: 'payouts', ...flash(req), ...(state.refusal && { error: state.refusal.message }) },
    html`<h1>Payouts</h1><div class="card stats"><div class="stat">Available to pay out<b>${money(balance?.available)}</b></div><div class="stat">Pending<b>${money(balance?.pending)}</b></div></div>
${factsCard(schedule, c.sandbox)}${destinationsCard(s, destinations, state, c.sandbox)}${requestForm(s, destinations, schedule, state)}
<h2>Your payouts</h2><div class="scroll"><table><thead><tr><th>Payout</th><th>Amount</th><th>Status</th><th>To</th><th>Requested</th></tr></thead><tbody>${payouts.map(payoutRow)}</tbody></table></div>
${payouts.length === 0 ? html`<p>No payouts yet.</p>` : ''}`,
    refused?.status ?? 200,
  );
};

const requestPayout = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const form = (req.body ?? {}) as Form;
  const amount = cents(one(form, 'amount'));
  const refuse = (refusal: ReturnType<typeof refusalOf>, status: number) => {
    if (!redirectRefused(c, req, reply, s, PAGE, form, refusal, status))
      return render(c, reply, s, { title: 'Refused', active: 'payouts', error: refusal.message }, html``, status);
  };
  if (Number.isNaN(amount))
    return refuse(fieldRefusal('amount', 'Amount must be an amount in euros, like 25.00.'), 422);
  const destination = one(form, 'destination');
  const answer = await c.api(req, s, 'POST', '/payouts', {
    amount: { amount, currency: 'EUR' },
    ...(destination ? { destination_id: destination } : {}),
  });
  if (answer.status >= 300) return refuse(refusalOf(answer, FIELDS), answer.status);
  return done(reply, `${PAGE}/${seg(answer.body.id)}`, `Payout of ${money(answer.body.amount)} requested.`);
};

const payoutPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const refused = takeRefused(c, req, reply, s, `${PAGE}/${seg(id)}`);
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
    {
      title: 'Payout',
      active: 'payouts',
      ...flash(req),
      ...(refused?.state.refusal && { error: refused.state.refusal.message }),
    },
    html`<h1>Payout ${money(p.amount)} ${statusPill(p.status)}</h1><div class="card"><p>To ${p.destination ? p.destination.account : methodText(p)}</p><ul class="timeline">${steps.map(([what, at]) => html`<li><strong>${what}</strong> <small>${when(at)}</small></li>`)}</ul>${p.failure_code ? html`<p>Failure: ${p.failure_code}. The amount is back in your available balance.</p>` : ''}
${p.status === 'pending' ? html`<p><a class="button danger" href="${PAGE}/${p.id}/cancel">Cancel payout…</a></p>` : ''}</div>
<h2>Balance entries</h2><div class="scroll"><table><thead><tr><th>When</th><th>Type</th><th>Account</th><th>Amount</th></tr></thead><tbody>${(p.balance_entries ?? []).map((e: any) => html`<tr><td>${when(e.created_at)}</td><td>${e.type}</td><td>${e.account}</td><td>${money(e.amount)}</td></tr>`)}</tbody></table></div>
<p><a href="${PAGE}">All payouts</a></p>`,
    refused?.status ?? 200,
  );
};

export const registerPayouts = (site: FastifyInstance, c: Console) => {
  site.get(PAGE, ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return payoutsPage(c, req, reply, s);
  });
  site.post(PAGE, ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (s) return requestPayout(c, req, reply, s);
  });
  site.get(`${PAGE}/:id`, ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return payoutPage(c, req, reply, s, (req.params as { id: string }).id);
  });
  site.get(`${PAGE}/:id/cancel`, ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const answer = await loadOr(c, req, reply, s, 'payout', `/payouts/${seg(id)}`);
    if (!answer) return;
    return confirmPage(c, reply, s, {
      title: 'Cancel payout?',
      active: 'payouts',
      consequence: html`The payout of ${money(answer.body.amount)} requested ${when(answer.body.created_at)} is not sent, and the amount returns to your available balance at once.`,
      action: `${PAGE}/${seg(id)}/cancel`,
      button: 'Cancel payout',
      back: `${PAGE}/${seg(id)}`,
    });
  });
  site.post(`${PAGE}/:id/cancel`, ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const answer = await c.api(req, s, 'POST', `/payouts/${seg(id)}/cancel`);
    if (answer.status < 300)
      return done(reply, `${PAGE}/${seg(id)}`, `Payout cancelled: ${money(answer.body.amount)} is available again.`);
    const refusal = refusalOf(answer);
    if (!redirectRefused(c, req, reply, s, `${PAGE}/${seg(id)}`, {}, refusal, answer.status))
      return render(
        c,
        reply,
        s,
        { title: 'Refused', active: 'payouts', error: refusal.message },
        html``,
        answer.status,
      );
  });
};
