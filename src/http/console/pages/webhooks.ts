import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, ROUTE } from '../core.js';
import { refusalOf } from '../errors.js';
import type { FormState } from '../forms.js';
import { csrfField, html, statusPill, when } from '../html.js';
import { flash, loadOr, posted, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { redirectToSecret } from '../shown-once.js';
import { endpointFields, endpointOf, WEBHOOK_FIELDS } from './webhook-form.js';

const endpointCard = (
  h: any,
) => html`<div class="card"><a href="/console/webhooks/${h.id}"><strong>${h.url}</strong></a> ${statusPill(h.status)}<br>
<small>${h.description ? `${h.description} · ` : ''}${h.events.join(', ')} · ${h.rate_limit ? `${h.rate_limit}/s` : 'no rate limit'} · ${h.consecutive_failures} failures in a row${h.disabled_at ? html` · disabled ${when(h.disabled_at)}` : ''}</small></div>`;

const attemptRow = (
  s: ConsoleSession,
  a: any,
) => html`<tr><td>${when(a.created_at)}</td><td>${a.event_type}${a.test_fire ? ' (test)' : ''}${a.recovered ? ' (recovered)' : ''}</td><td>${a.attempt}</td><td>${statusPill(a.succeeded ? 'succeeded' : 'failed')} ${a.response_status ?? a.error ?? ''}</td><td>${a.duration_ms} ms</td>
<td><a href="/console/webhooks/deliveries/${a.id}">request and response</a> <form class="inline" method="post" action="/console/webhooks/deliveries/${a.delivery_id}/resend">${csrfField(s.csrf)}<button class="plain" type="submit">Resend</button></form></td></tr>`;

const webhooksPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  state: FormState = {},
  status = 200,
) => {
  const endpoints = await loadOr(c, req, reply, s, 'page', '/webhooks?limit=100');
  if (!endpoints) return;
  const log = await loadOr(c, req, reply, s, 'page', '/webhook-deliveries?limit=50');
  if (!log) return;
  const hooks: any[] = endpoints.body.data;
  const attempts: any[] = log.body.data;
  return render(
    c,
    reply,
    s,
    { title: 'Webhooks', active: 'webhooks', ...flash(req), ...(state.refusal && { error: state.refusal.message }) },
    html`<h1>Webhooks</h1>${hooks.length === 0 ? html`<div class="card">No endpoints yet: add one below.</div>` : ''}${hooks.map(endpointCard)}
<div class="card"><h2 style="margin-top:0">Add endpoint</h2><form method="post" action="/console/webhooks">${csrfField(s.csrf)}${endpointFields(state)}<p><button type="submit">Add endpoint</button></p></form></div>
<h2>Delivery log</h2><div class="scroll"><table><thead><tr><th>When</th><th>Event</th><th>Attempt</th><th>Result</th><th>Time</th><th>Details</th></tr></thead><tbody>
${attempts.map((a) => attemptRow(s, a))}
</tbody></table></div>`,
    status,
  );
};

/** The new endpoint's signing secret, shown once by the page this write redirects to (shown-once.ts). */
const addEndpoint = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const form = (req.body ?? {}) as Form;
  const answer = await c.api(req, s, 'POST', '/webhooks', endpointOf(form));
  if (answer.status >= 300)
    return webhooksPage(c, req, reply, s, { values: form, refusal: refusalOf(answer, WEBHOOK_FIELDS) }, answer.status);
  return redirectToSecret(c, req, reply, s, {
    title: 'Endpoint added',
    active: 'webhooks',
    notice: 'Endpoint added.',
    intro: "Its signing secret: your receiver checks each delivery's signature with it.",
    secret: answer.body.secret,
    links: [
      [`/console/webhooks/${answer.body.id}`, 'Go to the endpoint'],
      ['/console/webhooks', 'Back to webhooks'],
    ],
  });
};

export const registerWebhooks = (site: FastifyInstance, c: Console) => {
  site.get('/console/webhooks', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return webhooksPage(c, req, reply, s);
  });
  site.post('/console/webhooks', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (s) return addEndpoint(c, req, reply, s);
  });
};
