import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, type Form, one, ROUTE } from '../core.js';
import { FORM_LIMITS } from '../form-body.js';
import { html } from '../html.js';
import { posted, render } from '../page.js';
import {
  endSession,
  readSession,
  sameOrigin,
  signInToken,
  signInTokenHolds,
  startSession,
  type SessionDeps,
} from '../session.js';

const TOKEN_SHAPE = /^[\x21-\x7e]{1,512}$/;

const signInPage = (
  c: Console,
  sessions: SessionDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  error?: string,
  status = 200,
) =>
  render(
    c,
    reply,
    undefined,
    { title: 'Sign in' },
    html`<div class="card" style="max-width:30rem;margin:2rem auto"><h1>Sign in</h1>
<form method="post" action="/console/sign-in"><input type="hidden" name="_csrf" value="${signInToken(reply, req, sessions)}">
<label for="token">Supplier API token</label><input id="token" name="token" type="password" autocomplete="off" required style="width:100%"${error ? html` aria-invalid="true" aria-describedby="token-error"` : ''}>
${error ? html`<p class="field-error" id="token-error" role="alert">${error}</p>` : ''}
<p><button type="submit">Sign in</button></p></form>
<p style="font-size:.9rem;color:#4a5263">The token stays in this service: the browser keeps only a sealed, HttpOnly session cookie.</p></div>`,
    status,
  );

const signIn = async (c: Console, sessions: SessionDeps, req: FastifyRequest, reply: FastifyReply) => {
  const form = (req.body ?? {}) as Form;
  if (!sameOrigin(req) || !signInTokenHolds(req, form._csrf, sessions))
    return signInPage(c, sessions, req, reply, 'The sign-in form expired. Try again.', 403);
  const token = one(form, 'token');
  // a token is visible ASCII: anything else is no token, and could not travel as a header
  const who = TOKEN_SHAPE.test(token) ? await c.api(req, { token }, 'GET', '/whoami') : undefined;
  if (who?.status !== 200) {
    const limited = who?.status === 429;
    return signInPage(
      c,
      sessions,
      req,
      reply,
      limited ? 'Too many attempts; wait a minute.' : 'That token is not a valid supplier token.',
      limited ? 429 : 401,
    );
  }
  await startSession(req, reply, sessions, {
    token,
    tokenId: who.body.token_id,
    supplierId: who.body.supplier.id,
    supplierName: who.body.supplier.name,
  });
  return reply.redirect('/console/offers', 303);
};

export const registerSignIn = (site: FastifyInstance, c: Console, sessions: SessionDeps) => {
  site.get('/console', ROUTE, async (req, reply) =>
    reply.redirect(readSession(req) ? '/console/offers' : '/console/sign-in', 303),
  );
  site.get('/console/sign-in', ROUTE, async (req, reply) => signInPage(c, sessions, req, reply));
  site.post('/console/sign-in', { ...ROUTE, bodyLimit: FORM_LIMITS.signInBytes }, async (req, reply) =>
    signIn(c, sessions, req, reply),
  );
  site.post('/console/sign-out', ROUTE, async (req, reply) => {
    if (!posted(c, req, reply)) return;
    await endSession(req, reply, c.services.db);
    return reply.redirect('/console/sign-in', 303);
  });
};
