import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhook-endpoint.js';
import { type Console, ROUTE, seg } from '../core.js';
import { field, type FormState, select } from '../forms.js';
import { csrfField, html, statusPill, when } from '../html.js';
import { flash, loadOr, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { endpointFields } from './webhook-form.js';
import { confirmLink, confirmPage } from '../confirm.js';

const button = (s: ConsoleSession, action: string, text: string, cls = '') =>
  html`<form class="inline" method="post" action="${action}">${csrfField(s.csrf)}<button type="submit" class="${cls}">${text}</button></form>`;

const toolForms = (s: ConsoleSession, h: any, state: FormState) => {
  const at = `/console/webhooks/${h.id}`;
  return html`<div class="card"><h2 style="margin-top:0">Test-fire</h2><form class="row" method="post" action="${at}/test">${csrfField(s.csrf)}
${select({ name: 'event', label: 'Event type', options: WEBHOOK_EVENT_TYPES.map((e) => [e, e] as const), state })}<button type="submit">Test-fire</button></form>
<h2>Recover</h2><p>Sends again every event since then (at most 14 days back), in order.</p><form class="row" method="post" action="${at}/recover">${csrfField(s.csrf)}
${field({ name: 'since', label: 'Since (UTC)', type: 'datetime-local', hint: 'A day and a time, UTC', state })}<button type="submit">Recover</button></form>
<h2>Endpoint</h2><div class="row">${h.status === 'disabled' ? button(s, `${at}/enable`, 'Re-enable') : button(s, `${at}/disable`, 'Disable', 'plain')}
${button(s, `${at}/rotate-secret`, 'Rotate secret', 'plain')}${confirmLink(`${at}/delete`, 'Delete endpoint…')}</div></div>`;
};

/** An endpoint's page: its settings to edit, test-fire, recovery, secret rotation and deletion. */
export const webhookPage = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  id: string,
  state: FormState = {},
  status = 200,
) => {
  const answer = await loadOr(c, req, reply, s, 'webhook endpoint', `/webhooks/${seg(id)}`);
  if (!answer) return;
  const h = answer.body;
  return render(
    c,
    reply,
    s,
    {
      title: 'Webhook endpoint',
      active: 'webhooks',
      ...flash(req),
      ...(state.refusal && { error: state.refusal.message }),
    },
    html`<h1>Endpoint ${statusPill(h.status)}</h1><p><strong>${h.url}</strong><br><small>created ${when(h.created_at)} · ${h.consecutive_failures} failures in a row</small></p>
<div class="card"><h2 style="margin-top:0">Edit endpoint</h2><form method="post" action="/console/webhooks/${h.id}/save">${csrfField(s.csrf)}${endpointFields(state, h)}<p><button type="submit">Save endpoint</button></p></form></div>
${toolForms(s, h, state)}<p><a href="/console/webhooks">Back to webhooks</a></p>`,
    status,
  );
};

export const registerWebhook = (site: FastifyInstance, c: Console) => {
  site.get('/console/webhooks/:id', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return webhookPage(c, req, reply, s, (req.params as { id: string }).id);
  });
  site.get('/console/webhooks/:id/delete', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (!s) return;
    const id = (req.params as { id: string }).id;
    const answer = await loadOr(c, req, reply, s, 'webhook endpoint', `/webhooks/${seg(id)}`);
    if (!answer) return;
    return confirmPage(c, reply, s, {
      title: 'Delete endpoint?',
      active: 'webhooks',
      consequence: html`<code>${answer.body.url}</code> stops receiving events at once, and what waits for it is not sent. Its delivery log stays. This cannot be undone: to receive events there again, add it anew (with a new secret).`,
      action: `/console/webhooks/${seg(id)}/delete`,
      button: 'Delete endpoint',
      back: `/console/webhooks/${seg(id)}`,
    });
  });
};
