import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { csrfField, html, money } from '../html.js';
import { done, loadOr, posted, render, signedIn } from '../page.js';
import { redirectRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';
import { RULE_FIELD_NAMES, ruleOf, ruleRefusal } from './pricing-rule-form.js';

/** Asks before the rule goes: what stays (the price) and what stops (the rule's changes). */
const removePage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const o = offer.body;
  const back = `/console/offers/${o.id}/pricing`;
  const rule = await c.api(req, s, 'GET', `/offers/${seg(id)}/pricing-rule`);
  if (rule.status !== 200) return done(reply, back, 'This offer has no pricing rule.');
  return render(
    c,
    reply,
    s,
    { title: 'Remove the pricing rule?', active: 'competition' },
    html`<h1>Remove the pricing rule of ${o.external_ref}?</h1><div class="card"><p>Your price stays at ${money(o.price)}. From then on it changes only when you change it: the rule no longer answers other suppliers' prices.</p>
<form method="post" action="/console/offers/${o.id}/pricing/remove">${csrfField(s.csrf)}<p class="row"><button type="submit" class="danger">Remove pricing rule</button><a href="${back}">Keep the rule</a></p></form></div>`,
  );
};

/** A preview asks nothing of the API here: the page shows it from its query (post, then redirect). */
const previewUrl = (to: string, form: Form) =>
  `${to}?${new URLSearchParams([['preview', '1'], ...RULE_FIELD_NAMES.map((n): [string, string] => [n, one(form, n)])]).toString()}#preview`;

export const registerPricingActions = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/pricing/remove', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return removePage(c, req, reply, s, (req.params as { id: string }).id);
  });

  site.post('/console/offers/:id/pricing/:action', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const { id, action } = req.params as { id: string; action: string };
    const form = (req.body ?? {}) as Form;
    const to = `/console/offers/${seg(id)}/pricing`;
    if (action !== 'save' && action !== 'remove') return reply.redirect(to, 303);
    if (action === 'save' && one(form, 'intent') === 'preview') return reply.redirect(previewUrl(to, form), 303);
    const answer =
      action === 'save'
        ? await c.api(req, s, 'PUT', `/offers/${seg(id)}/pricing-rule`, ruleOf(form))
        : await c.api(req, s, 'DELETE', `/offers/${seg(id)}/pricing-rule`);
    if (answer.status < 300) {
      // the rule's first price is set with the save: the notice says where it went
      const price = (await c.api(req, s, 'GET', `/offers/${seg(id)}`)).body?.price;
      return done(
        reply,
        to,
        action === 'save'
          ? `Pricing rule saved: your price is ${money(price)}.`
          : `Pricing rule removed: your price stays at ${money(price)}.`,
      );
    }
    const refusal = action === 'save' ? ruleRefusal(answer, form) : refusalOf(answer);
    if (!redirectRefused(c, req, reply, s, to, form, refusal, answer.status))
      return render(c, reply, s, { title: 'Refused', error: refusal.message }, html``, answer.status);
  });
};
