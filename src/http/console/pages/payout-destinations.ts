import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_FAILING_IBAN } from '../../../domain/payout-destination.js';
import { confirmLink, confirmPage } from '../confirm.js';
import { type Answer, type Console, type Form, one, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { field, type FormState } from '../forms.js';
import { csrfField, html } from '../html.js';
import { done, loadOr, posted, render, signedIn } from '../page.js';
import { redirectRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';

const PAGE = '/console/payouts';
const FIELDS = {
  iban: { name: 'iban', label: 'IBAN' },
  holder_name: { name: 'holder_name', label: 'Account holder' },
  email: { name: 'email', label: 'PayPal email' },
  destination_id: { name: 'destination', label: 'Destination' },
};

const methodName = (method: string) => (method === 'paypal' ? 'PayPal' : 'Bank transfer (SEPA)');

/** The IBAN as it is printed on cards and statements: groups of four. */
const grouped = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

const destinationRow = (s: ConsoleSession, d: any) =>
  html`<tr><td>${d.account}</td><td>${methodName(d.method)}</td><td>${d.holder_name ?? ''}</td><td>${d.default ? html`<span class="pill">default</span>` : html`<form class="inline" method="post" action="${PAGE}/destinations/${d.id}/default">${csrfField(s.csrf)}<button type="submit" class="plain" aria-label="Make default: ${d.account}">Make default</button></form>`}</td><td>${confirmLink(`${PAGE}/destinations/${d.id}/remove`, 'Remove…')}</td></tr>`;

/** Where payouts go: the destinations, masked, the default marked, and the forms that add one. */
export const destinationsCard = (
  s: ConsoleSession,
  destinations: any[],
  state: FormState,
  sandbox: boolean,
) => html`<div class="card"><h2 style="margin-top:0">Where payouts go</h2>
${
  destinations.length === 0
    ? html`<p>No destination yet: add a bank account or a PayPal address, and payouts go there.</p>`
    : html`<div class="scroll"><table><thead><tr><th>Account</th><th>Method</th><th>Holder</th><th>Default</th><th>Remove</th></tr></thead><tbody>${destinations.map((d) => destinationRow(s, d))}</tbody></table></div>`
}
<h3>Add a bank account</h3><form class="row" method="post" action="${PAGE}/destinations">${csrfField(s.csrf)}<input type="hidden" name="method" value="sepa_bank_transfer">
${field({ name: 'iban', label: 'IBAN', hint: sandbox ? `Test IBAN that fails: ${grouped(SANDBOX_FAILING_IBAN)}` : 'Like DE89 3704 0044 0532 0130 00', attrs: html` autocomplete="off" spellcheck="false"`, required: true, state })}${field({ name: 'holder_name', label: 'Account holder', attrs: html` autocomplete="name"`, required: true, state })}<button type="submit">Add bank account</button></form>
<h3>Add a PayPal address</h3><form class="row" method="post" action="${PAGE}/destinations">${csrfField(s.csrf)}<input type="hidden" name="method" value="paypal">
${field({ name: 'email', label: 'PayPal email', type: 'email', attrs: html` autocomplete="email"`, required: true, state })}<button type="submit">Add PayPal address</button></form></div>`;

/** Back to the payouts page: with a notice when it worked, with the form and its errors when not. */
const back = (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  form: Form,
  answer: Answer,
  notice: string,
) => {
  if (answer.status < 300) return done(reply, PAGE, notice);
  const refusal = refusalOf(answer, FIELDS);
  if (!redirectRefused(c, req, reply, s, PAGE, form, refusal, answer.status))
    return render(c, reply, s, { title: 'Refused', active: 'payouts', error: refusal.message }, html``, answer.status);
};

export const registerPayoutDestinations = (site: FastifyInstance, c: Console) => {
  site.post(`${PAGE}/destinations`, ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const form = (req.body ?? {}) as Form;
    const body =
      one(form, 'method') === 'paypal'
        ? { method: 'paypal', email: one(form, 'email') }
        : { method: 'sepa_bank_transfer', iban: one(form, 'iban'), holder_name: one(form, 'holder_name') };
    const answer = await c.api(req, s, 'POST', '/payout-destinations', body);
    return back(c, req, reply, s, form, answer, `Payout destination ${answer.body?.account ?? ''} added.`);
  });
  site.post(`${PAGE}/destinations/:id/default`, ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const answer = await c.api(req, s, 'PATCH', `/payout-destinations/${seg(id)}`, { default: true });
    return back(c, req, reply, s, {}, answer, `Payouts now go to ${answer.body?.account ?? ''}.`);
  });
  site.get(`${PAGE}/destinations/:id/remove`, ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const list = await loadOr(c, req, reply, s, 'page', '/payout-destinations');
    if (!list) return;
    const d = (list.body.data as any[]).find((x) => x.id === id);
    if (!d) return done(reply, PAGE, 'That destination is already removed.');
    return confirmPage(c, reply, s, {
      title: 'Remove payout destination?',
      active: 'payouts',
      consequence: html`${d.account} (${methodName(d.method)}) no longer receives payouts. Payouts already sent to it keep naming it.${d.default ? ' It is your default: only your last destination can be removed while it is the default.' : ''}`,
      action: `${PAGE}/destinations/${seg(id)}/remove`,
      button: 'Remove destination',
      back: PAGE,
    });
  });
  site.post(`${PAGE}/destinations/:id/remove`, ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const answer = await c.api(req, s, 'DELETE', `/payout-destinations/${seg(id)}`);
    return back(c, req, reply, s, {}, answer, 'Payout destination removed.');
  });
};
