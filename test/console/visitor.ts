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

/** Signs in through the sign-in form, as a person does: its own CSRF cookie, then the token. */
export const signIn = async (v: Visitor, token: string) => {
  const form = await v.get('/console/sign-in');
  const answer = await v.post('/console/sign-in', { _csrf: csrfOf(form), token });
  expect(answer).toMatchObject({ status: 303, location: '/console/offers' });
};
