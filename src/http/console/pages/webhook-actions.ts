import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, type Console, type Form, one, ROUTE, seg } from '../core.js';
import { fieldRefusal, refusalOf } from '../errors.js';
import { done, posted } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { redirectToSecret } from '../shown-once.js';
import { webhookPage } from './webhook.js';
import { endpointOf, WEBHOOK_FIELDS } from './webhook-form.js';

type Ctx = { c: Console; req: FastifyRequest; reply: FastifyReply; s: ConsoleSession; id: string; form: Form };

const path = (x: Ctx) => `/webhooks/${seg(x.id)}`;
const page = (x: Ctx) => `/console/webhooks/${seg(x.id)}`;

const after = (x: Ctx, answer: Answer, notice: string) =>
  answer.status < 300
    ? done(x.reply, page(x), notice)
    : webhookPage(
        x.c,
        x.req,
        x.reply,
        x.s,
        x.id,
        {
          values: x.form,
          refusal: refusalOf(answer, {
            ...WEBHOOK_FIELDS,
            since: { name: 'since', label: 'Since' },
            event: { name: 'event', label: 'Event type' },
          }),
        },
        answer.status,
      );

const test = async (x: Ctx) => {
  const answer = await x.c.api(x.req, x.s, 'POST', `${path(x)}/test`, { event: one(x.form, 'event') || 'order.paid' });
  const result = answer.body?.succeeded
    ? 'delivered'
    : `failed (${answer.body?.response_status ?? answer.body?.error ?? 'no answer'})`;
  return after(x, answer, `Test-fire of ${one(x.form, 'event') || 'order.paid'} ${result}.`);
};

/** Recovery from a moment the person gives as a day and a time in UTC (the datetime-local input). */
const recover = async (x: Ctx) => {
  const since = one(x.form, 'since');
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(since)
    ? new Date(`${since}${since.length === 16 ? ':00' : ''}Z`)
    : undefined;
  if (!at || Number.isNaN(at.getTime()))
    return webhookPage(
      x.c,
      x.req,
      x.reply,
      x.s,
      x.id,
      { values: x.form, refusal: fieldRefusal('since', 'Since must be a day and a time.') },
      422,
    );
  const answer = await x.c.api(x.req, x.s, 'POST', `${path(x)}/recover`, { since: at.toISOString() });
  return after(
    x,
    answer,
    `Recovery started: events since ${at.toISOString().replace('T', ' ').slice(0, 16)} UTC are sent again.`,
  );
};

const rotate = async (x: Ctx) => {
  const answer = await x.c.api(x.req, x.s, 'POST', `${path(x)}/rotate-secret`);
  if (answer.status >= 300) return after(x, answer, '');
  return redirectToSecret(x.c, x.req, x.reply, x.s, {
    title: 'New signing secret',
    active: 'webhooks',
    notice: 'Secret rotated.',
    intro: 'The previous secret keeps signing alongside it for 24 hours.',
    secret: answer.body.secret,
    links: [
      [`/console/webhooks/${seg(x.id)}`, 'Back to the endpoint'],
      ['/console/webhooks', 'Back to webhooks'],
    ],
  });
};

const remove = async (x: Ctx) => {
  const answer = await x.c.api(x.req, x.s, 'DELETE', path(x));
  return answer.status < 300 ? done(x.reply, '/console/webhooks', 'Endpoint deleted.') : after(x, answer, '');
};

const ACTIONS: Record<string, (x: Ctx) => Promise<unknown>> = {
  save: async (x) => after(x, await x.c.api(x.req, x.s, 'PATCH', path(x), endpointOf(x.form)), 'Endpoint saved.'),
  enable: async (x) =>
    after(x, await x.c.api(x.req, x.s, 'PATCH', path(x), { status: 'active' }), 'Endpoint re-enabled.'),
  disable: async (x) =>
    after(x, await x.c.api(x.req, x.s, 'PATCH', path(x), { status: 'disabled' }), 'Endpoint disabled.'),
  test,
  recover,
  'rotate-secret': rotate,
  delete: remove,
};

export const registerWebhookActions = (site: FastifyInstance, c: Console) => {
  site.post('/console/webhooks/:id/:action', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const { id, action } = req.params as { id: string; action: string };
    const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!run) return reply.redirect(`/console/webhooks/${seg(id)}`, 303);
    return run({ c, req, reply, s, id, form: (req.body ?? {}) as Form });
  });
};
