import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, type Console, type Form, one, ROUTE, seg } from '../core.js';
import { fieldRefusal, type Refusal, refusalOf } from '../errors.js';
import { whole } from '../forms.js';
import { done, posted } from '../page.js';
import { redirectRefused } from '../refused-form.js';
import type { ConsoleSession } from '../session.js';
import { redirectToSecret } from '../shown-once.js';
import { offerPage } from './offer.js';
import { OFFER_FIELDS, priceOf, termsOf } from './offer-form.js';

type Ctx = { c: Console; req: FastifyRequest; reply: FastifyReply; s: ConsoleSession; id: string; form: Form };

const SANDBOX_FIELDS = {
  scenario: { name: 'scenario', label: 'Scenario' },
  quantity: { name: 'quantity', label: 'Quantity' },
  buyer_country: { name: 'buyer_country', label: 'Buyer country' },
};

/**
 * The offer's page after a change, reached by a redirect either way (post, redirect, get):
 * with its notice, or with the form's values and the refusal's words kept for one view.
 */
const after = (x: Ctx, answer: Answer, notice: string, fields = OFFER_FIELDS) =>
  answer.status < 300 ? done(x.reply, pageOf(x), notice) : refused(x, refusalOf(answer, fields), answer.status);

const pageOf = (x: Ctx) => `/console/offers/${seg(x.id)}`;

/** A refusal kept across the redirect; a form too large to keep is answered by the page itself. */
const refused = (x: Ctx, refusal: Refusal, status: number) =>
  redirectRefused(x.c, x.req, x.reply, x.s, pageOf(x), x.form, refusal, status)
    ? undefined
    : offerPage(x.c, x.req, x.reply, x.s, x.id, { values: x.form, refusal }, status);

const badPrice = (x: Ctx) => refused(x, fieldRefusal('price', 'Price must be an amount in euros, like 19.99.'), 422);

const edit = async (x: Ctx) => {
  if (Number.isNaN(priceOf(x.form))) return badPrice(x);
  const offer = await x.c.api(x.req, x.s, 'GET', `/offers/${seg(x.id)}`);
  const { price, ...rest } = termsOf(x.form, offer.body?.stock_mode === 'declared');
  // a price left as the page showed it is no price change: sending it would set a price the
  // pricing rule has moved since back to what it was (or be refused while the rule is on)
  const untouched = one(x.form, 'price_shown') === String(price.amount);
  const terms = untouched ? rest : { price, ...rest };
  return after(x, await x.c.api(x.req, x.s, 'PATCH', `/offers/${seg(x.id)}`, terms), 'Offer saved.');
};

const price = async (x: Ctx) => {
  if (Number.isNaN(priceOf(x.form))) return badPrice(x);
  const body = { price: { amount: priceOf(x.form), currency: 'EUR' } };
  return after(x, await x.c.api(x.req, x.s, 'PUT', `/offers/${seg(x.id)}/price`, body), 'Price changed.');
};

const stock = async (x: Ctx) =>
  after(
    x,
    await x.c.api(x.req, x.s, 'PUT', `/offers/${seg(x.id)}/stock`, {
      declared_stock: whole(one(x.form, 'declared_stock')) ?? Number.NaN,
    }),
    'Declared stock set.',
  );

const rotate = async (x: Ctx) => {
  const answer = await x.c.api(x.req, x.s, 'POST', `/offers/${seg(x.id)}/fulfilment/rotate-secret`);
  if (answer.status >= 300) return after(x, answer, '');
  return redirectToSecret(x.c, x.req, x.reply, x.s, {
    title: 'New fulfilment secret',
    active: 'offers',
    notice: 'Fulfilment secret rotated.',
    intro: 'Your fulfilment API checks our calls with it from now on.',
    secret: answer.body.fulfilment?.secret,
    links: [[`/console/offers/${seg(x.id)}`, 'Back to the offer']],
  });
};

const sandboxOrder = async (x: Ctx) => {
  const formFields = Object.fromEntries(
    Object.keys(x.form)
      .filter((k) => k.startsWith('form_'))
      .map((k) => [k.slice(5), one(x.form, k)]),
  );
  const answer = await x.c.api(x.req, x.s, 'POST', '/sandbox/orders', {
    offer_id: x.id,
    quantity: whole(one(x.form, 'quantity')) ?? Number.NaN,
    buyer_country: one(x.form, 'buyer_country').toUpperCase(),
    scenario: one(x.form, 'scenario') || 'paid',
    ...(Object.keys(formFields).length > 0 && { form_fields: formFields }),
  });
  if (answer.status >= 300) return after(x, answer, '', SANDBOX_FIELDS);
  return done(x.reply, `/console/orders/${seg(answer.body.id)}`, `Sandbox order placed: ${answer.body.status}.`);
};

const ACTIONS: Record<string, (x: Ctx) => Promise<unknown>> = {
  activate: async (x) =>
    after(x, await x.c.api(x.req, x.s, 'POST', `/offers/${seg(x.id)}/activate`), 'Offer activated.'),
  deactivate: async (x) =>
    after(x, await x.c.api(x.req, x.s, 'POST', `/offers/${seg(x.id)}/deactivate`), 'Offer deactivated.'),
  edit,
  price,
  stock,
  'rotate-secret': rotate,
  'sandbox-order': sandboxOrder,
};

export const registerOfferActions = (site: FastifyInstance, c: Console) => {
  site.post('/console/offers/:id/:action', ROUTE, async (req, reply) => {
    const s = posted(c, req, reply);
    if (!s) return;
    const { id, action } = req.params as { id: string; action: string };
    const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!run) return reply.redirect(`/console/offers/${seg(id)}`, 303);
    return run({ c, req, reply, s, id, form: (req.body ?? {}) as Form });
  });
};
