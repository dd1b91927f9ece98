import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';

export interface Visit {
  status: number;
  location: string | null;
  text: string;
}

/**
 * A browser over plain HTTP: it keeps the cookies it is set (a Max-Age=0 one deleted) and
 * sends them back, follows no redirect by itself, and posts forms as a page of the service's
 * own origin does. `jar` is open, so a test can keep a copy of a cookie and replay it.
 */
export const visitor = (origin: string) => {
  const jar = new Map<string, string>();
  const send = async (path: string, form?: Record<string, string>): Promise<Visit> => {
    const res = await fetch(`${origin}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded', origin }),
      },
      ...(form && { body: new URLSearchParams(form).toString() }),
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      if (/;\s*Max-Age=0(;|$)/i.test(set)) jar.delete(pair.slice(0, at));
      else jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  return { jar, get: (path: string) => send(path), post: send };
};

export type Visitor = ReturnType<typeof visitor>;

/** The CSRF token a console page's forms carry. */
export const csrfOf = (page: Visit): string => /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;

/** A form as a page renders it: where it posts, and its hidden fields (the CSRF token and the token of this rendering). */
export interface RenderedForm {
  action: string;
  hidden: Record<string, string>;
}

/** Every form of a page, in order. */
export const formsOf = (page: Visit): RenderedForm[] =>
  [...page.text.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({
    action: action!,
    hidden: Object.fromEntries(
      [...inner!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [
        name!,
        value!,
      ]),
    ),
  }));

/** The hidden fields of the page's form that posts to `action`: what a browser sends with that form. */
export const hiddenOf = (page: Visit, action: string): Record<string, string> => {
  const form = formsOf(page).find((f) => f.action === action);
  if (!form) throw new Error(`no form posting to ${action} on the page`);
  return form.hidden;
};

/** Signs in through the sign-in form, as a person does: its own CSRF cookie, then the token. */
export const signIn = async (v: Visitor, token: string) => {
  const form = await v.get('/console/sign-in');
  const answer = await v.post('/console/sign-in', { _csrf: csrfOf(form), token });
  expect(answer).toMatchObject({ status: 303, location: '/console/offers' });
};

/**
 * The hidden fields of a form rendered just now, for a test that posts to a route without
 * reading its page first: the session's CSRF token and a token of its own, as a new rendering has.
 */
export const newForm = (csrf: string) => ({ _csrf: csrf, _form: randomBytes(24).toString('base64url') });
