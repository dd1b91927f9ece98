import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Console } from './core.js';
import type { Refusal } from './errors.js';
import { FORM_TOKEN_FIELD } from './form-token.js';
import type { FormState } from './forms.js';
import { cookie, type ConsoleSession, cookies } from './session.js';

/**
 * A refused form is answered as an accepted one is, by a redirect to its page (post, then
 * redirect, then get): a reload never posts again, and the page shows the refusal once with
 * every field's error and every value as it was sent. The values and the refusal cross the
 * redirect in a short-lived cookie sealed with the service key, bound to the session and to
 * the page; the page reads it once and deletes it.
 */
const REFUSED_COOKIE = 'svc_console_refused';
const REFUSED_SECONDS = 120;
/** Under a browser's 4 KiB per cookie, with room for the name and attributes. */
const MAX_SEALED = 3500;

interface Kept {
  session: string;
  path: string;
  values: FormState['values'];
  refusal: Refusal;
  status: number;
}

/**
 * Redirects to `to` with the refused form kept for it; false when it is too large to keep
 * (the caller then shows the page as the post's own answer).
 */
export const redirectRefused = (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  to: string,
  form: Record<string, unknown>,
  refusal: Refusal,
  status: number,
): boolean => {
  // the tokens belong to the rendering that was posted: the page renders its own again
  const values = Object.fromEntries(
    Object.entries(form).filter(([k]) => k !== '_csrf' && k !== FORM_TOKEN_FIELD),
  ) as FormState['values'];
  const kept: Kept = { session: s.id, path: to, values, refusal, status };
  const sealed = c.services.secretBox.seal(JSON.stringify(kept));
  if (sealed.length > MAX_SEALED) return false;
  void reply.header('set-cookie', cookie(req, REFUSED_COOKIE, sealed, REFUSED_SECONDS)).redirect(to, 303);
  return true;
};

/**
 * The refused form kept for this page, if any, with the status it was refused with; the
 * cookie is deleted whatever it held, so a reload shows the page afresh.
 */
export const takeRefused = (
  c: Console,
  req: FastifyRequest,
  reply: FastifyReply,
  s: ConsoleSession,
  path: string,
): { state: FormState; status: number } | undefined => {
  const sealed = cookies(req).get(REFUSED_COOKIE);
  if (sealed === undefined) return undefined;
  void reply.header('set-cookie', cookie(req, REFUSED_COOKIE, '', 0));
  try {
    const kept = JSON.parse(c.services.secretBox.open(sealed)) as Kept;
    if (kept.session !== s.id || kept.path !== path) return undefined;
    return { state: { values: kept.values, refusal: kept.refusal }, status: kept.status };
  } catch {
    return undefined; // not ours, or sealed under another key: nothing to show
  }
};
