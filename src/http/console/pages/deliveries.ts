import type { FastifyInstance } from 'fastify';
import { type Console, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { csrfField, html, statusPill } from '../html.js';
import { done, flash, loadOr, posted, render, signedIn } from '../page.js';

export const registerDeliveries = (site: FastifyInstance, c: Console) => {
  site.get('/console/webhooks/deliveries/:id', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (!s) return;
    const answer = await loadOr(
      c,
      req,
      reply,
      s,
      'delivery',
      `/webhook-deliveries/${seg((req.params as { id: string }).id)}`,
    );
    if (!answer) return;
    const a = answer.body;
    const headers = Object.entries(a.request_headers ?? {})
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join('\n');
    return render(
      c,
      reply,
      s,
      { title: 'Delivery', active: 'webhooks', ...flash(req) },
      html`<h1>${a.event_type} · attempt ${a.attempt} ${statusPill(a.succeeded ? 'succeeded' : 'failed')}</h1>
<div class="card row"><form class="inline" method="post" action="/console/webhooks/deliveries/${a.delivery_id}/resend">${csrfField(s.csrf)}<button type="submit">Resend</button></form></div>
<h2>Request</h2><pre>${headers}\n\n${a.request_body}</pre>
<h2>Response</h2><pre>${a.response_status ?? 'no answer'} ${a.error ?? ''}\n\n${a.response_body ?? ''}</pre>`,
    );
  });
  site.post('/console/webhooks/deliveries/:id/resend', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const answer = await c.api(req, s, 'POST', `/webhook-deliveries/${seg((req.params as { id: string }).id)}/resend`);
    if (answer.status >= 300)
      return render(
        c,
        reply,
        s,
        { title: 'Resend refused', active: 'webhooks', error: refusalOf(answer).message },
        html`<p><a href="/console/webhooks">Back to webhooks</a></p>`,
        answer.status === 422 ? 404 : answer.status,
      );
    const result = answer.body?.succeeded
      ? 'delivered'
      : `failed again (${answer.body?.response_status ?? answer.body?.error ?? 'no answer'})`;
    return done(reply, '/console/webhooks', `Resent: ${result}.`);
  });
};
