import type { FastifyInstance } from 'fastify';
import { type Console, type Form, one, ROUTE, seg } from '../core.js';
import { refusalOf } from '../errors.js';
import { cents } from '../forms.js';
import { done, posted } from '../page.js';
import { pricingPage } from './pricing.js';

const FIELDS = {
  beat_by: { name: 'beat_by', label: 'Beat by', money: true },
  floor: { name: 'floor', label: 'Floor', money: true },
  ceiling: { name: 'ceiling', label: 'Ceiling', money: true },
  max_changes_per_hour: { name: 'max_changes_per_hour', label: 'Changes per hour' },
};

/** The rule as the API takes it; a value that is not a number is sent as null, which the API refuses by field. */
const ruleOf = (form: Form) => {
  const money = (name: string) => {
    const v = cents(one(form, name));
    return { amount: Number.isNaN(v) ? null : v, currency: 'EUR' };
  };
  const beat = one(form, 'beat_by').replace(',', '.');
  const percent = /^\d{1,2}(\.\d{1,2})?$/.test(beat) ? Number(beat) : null;
  const max = one(form, 'max_changes_per_hour');
  return {
    beat_by: one(form, 'beat_unit') === 'percent' ? { percent } : { amount: money('beat_by').amount },
    floor: money('floor'),
    ceiling: money('ceiling'),
    max_changes_per_hour: /^\d{1,3}$/.test(max) ? Number(max) : null,
  };
};

export const registerPricingActions = (site: FastifyInstance, c: Console) => {
  site.post('/console/offers/:id/pricing/:action', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const { id, action } = req.params as { id: string; action: string };
    const form = (req.body ?? {}) as Form;
    const to = `/console/offers/${seg(id)}/pricing`;
    if (action !== 'save' && action !== 'remove') return reply.redirect(to, 303);
    const answer =
      action === 'save'
        ? await c.api(req, s, 'PUT', `/offers/${seg(id)}/pricing-rule`, ruleOf(form))
        : await c.api(req, s, 'DELETE', `/offers/${seg(id)}/pricing-rule`);
    if (answer.status < 300)
      return done(reply, to, action === 'save' ? 'Pricing rule saved.' : 'Pricing rule removed.');
    return pricingPage(c, req, reply, s, id, { values: form, refusal: refusalOf(answer, FIELDS) }, answer.status);
  });
};
