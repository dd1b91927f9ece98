import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, ROUTE } from './core.js';
import { html } from './html.js';
import { render, signedIn } from './page.js';
import { type ConsoleSession, cookie, cookies } from './session.js';

/** The cookie that carries a secret from the write that made it to the one page view that shows it. */
export const ONCE_COOKIE = 'svc_console_once';
const ONCE_PATH = '/console/shown-once';
/** Long enough for a slow redirect, short enough that a secret never waits in a browser. */
const ONCE_SECONDS = 300;

/** What the page of a secret shows: the secret, and the words and links around it. */
export interface ShownOnce {
  title: string;
  active: 'offers' | 'webhooks';
  notice: string;
  intro: string;
  secret: string;
  links: [href: string, label: string][];
}

/**
 * A secret the API answered once (a new endpoint's signing secret, a new fulfilment secret)
 * is shown by a page the write redirects to, not by the write's own answer: a reload then
 * repeats no write, and shows the secret no more. The secret goes to that page sealed with
 * the service key in a cookie of this session, readable by that page only and for five
 * minutes at most; the page's answer takes the cookie away. Never in a URL, never stored.
 */
export const redirectToSecret = (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  shown: ShownOnce,
) => {
  const sealed = c.services.secretBox.seal(
    JSON.stringify({ ...shown, session: s.id, until: c.services.clock.now().getTime() + ONCE_SECONDS * 1000 }),
  );
  return reply
    .header('set-cookie', cookie(req, ONCE_COOKIE, sealed, ONCE_SECONDS))
    .header('cache-control', 'no-store')
    .redirect(ONCE_PATH, 303);
};

const opened = (c: Console, req: FastifyRequest, s: ConsoleSession): ShownOnce | undefined => {
  const sealed = cookies(req).get(ONCE_COOKIE);
  if (!sealed) return undefined;
  try {
    const { session, until, ...shown } = JSON.parse(c.services.secretBox.open(sealed)) as ShownOnce & {
      session: string;
      until: number;
    };
    return session === s.id && until > c.services.clock.now().getTime() ? shown : undefined;
  } catch {
    return undefined; // not sealed by this service: nothing to show
  }
};

const secretPage = (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const shown = opened(c, req, s);
  reply.header('set-cookie', cookie(req, ONCE_COOKIE, '', 0));
  if (!shown)
    return render(
      c,
      reply,
      s,
      { title: 'Secret shown once' },
      html`<h1>Secret shown once</h1><div class="card"><p>This secret was shown once and is no longer here. If it was not copied, rotate it on its page for a new one.</p><p><a href="/console/webhooks">Webhooks</a> · <a href="/console/offers">Offers</a></p></div>`,
    );
  return render(
    c,
    reply,
    s,
    { title: shown.title, active: shown.active, notice: shown.notice },
    html`<h1>${shown.title}</h1><div class="card"><p>${shown.intro} Copy it now: it is not shown again.</p><p class="secret" id="secret">${shown.secret}</p><p>${shown.links.map(([href, label], i) => html`${i > 0 ? ' · ' : ''}<a href="${href}">${label}</a>`)}</p></div>`,
  );
};

export const registerShownOnce = (site: FastifyInstance, c: Console) => {
  site.get(ONCE_PATH, ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return secretPage(c, req, reply, s);
  });
};
