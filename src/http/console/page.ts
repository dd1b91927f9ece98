import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, type Console, type Form } from './core.js';
import { refusalOf } from './errors.js';
import { formTokenOf } from './form-token.js';
import { type Html, html, type LayoutOptions, layout } from './html.js';
import { type ConsoleSession, readSession, sameOrigin, sameToken } from './session.js';

const CSP =
  "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/** Answers a console page: the layout (with the test-mode banner in the sandbox) around the body. */
export const render = (
  c: Console,
  reply: FastifyReply,
  s: ConsoleSession | undefined,
  options: Omit<LayoutOptions, 'who' | 'sandbox'>,
  body: Html,
  status = 200,
) =>
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .type('text/html; charset=utf-8')
    .send(layout({ ...options, sandbox: c.sandbox, ...(s && { who: { name: s.supplierName, csrf: s.csrf } }) }, body));

/** The signed-in supplier, or a redirect to the sign-in page. */
export const signedIn = (req: FastifyRequest, reply: FastifyReply): ConsoleSession | undefined => {
  const session = readSession(req);
  if (!session) void reply.redirect('/console/sign-in', 303);
  return session;
};

/** A form post of the signed-in supplier, its CSRF token and origin checked. */
export const posted = (c: Console, req: FastifyRequest, reply: FastifyReply): ConsoleSession | undefined => {
  const session = signedIn(req, reply);
  if (!session) return undefined;
  const form = req.body as Form | undefined;
  const csrf = form?._csrf;
  // a form without its rendering's token would write again on every repeat (form-token.ts)
  if (
    !sameOrigin(req) ||
    !sameToken(typeof csrf === 'string' ? csrf : undefined, session.csrf) ||
    formTokenOf(form) === undefined
  ) {
    void render(
      c,
      reply,
      session,
      {
        title: 'Refused',
        error: 'This form is out of date or did not come from this console. Reload the page and try again.',
      },
      html``,
      403,
    );
    return undefined;
  }
  return session;
};

/** After a change: back to the page, with a notice saying what was done. */
export const done = (reply: FastifyReply, to: string, notice: string) =>
  reply.redirect(`${to}${to.includes('?') ? '&' : '?'}notice=${encodeURIComponent(notice)}`, 303);

/** The notice a redirect carried. */
export const flash = (req: FastifyRequest) => {
  const notice = (req.query as Record<string, unknown>).notice;
  return typeof notice === 'string' && notice ? { notice } : {};
};

/** The page's query parameters as strings (a repeated one: its first). */
export const params = (req: FastifyRequest): Record<string, string> =>
  Object.fromEntries(
    Object.entries((req.query ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      String(Array.isArray(v) ? v[0] : v),
    ]),
  );

/** A console page that answers 404: an unknown console URL, or a resource the API does not know for this supplier. */
export const notFound = (c: Console, reply: FastifyReply, s: ConsoleSession | undefined, what = 'page') =>
  render(
    c,
    reply,
    s,
    { title: 'Not found' },
    html`<h1>Not found</h1><div class="card"><p>There is no such ${what} in this console${s ? ' for your account' : ''}.</p><p><a href="/console">Go to the console's start</a></p></div>`,
    404,
  );

/**
 * A page whose resource the API did not answer: not found for an unknown or malformed id
 * (both mean "no such thing of yours"), else the refusal in words.
 */
export const unanswered = (c: Console, reply: FastifyReply, s: ConsoleSession, answer: Answer, what: string) =>
  answer.status === 404 || answer.status === 422
    ? notFound(c, reply, s, what)
    : render(c, reply, s, { title: 'Not available', error: refusalOf(answer).message }, html``, answer.status);

/**
 * What a page reads before it can show anything: the API's answer to the GET, or undefined
 * once the page has answered why not (`unanswered`), so no page repeats that check.
 */
export const loadOr = async (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  what: string,
  url: string,
  accept?: string,
): Promise<Answer | undefined> => {
  const answer = await c.api(req, s, 'GET', url, undefined, accept);
  if (answer.status === 200) return answer;
  await unanswered(c, reply, s, answer, what);
  return undefined;
};
