import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Services } from '../services.js';
import type { ConsoleSession } from './session.js';

import { type Form, FORM_LIMITS } from './form-body.js';
import { nextWriteKey } from './form-token.js';

export type { Form } from './form-body.js';

/** The first value of a form field, trimmed; '' when absent. */
export const one = (form: Form | undefined, name: string): string => {
  const v = form?.[name];
  return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim();
};

/** Every value of a form field. */
export const all = (form: Form | undefined, name: string): string[] => {
  const v = form?.[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** An API answer as the console reads it: the parsed JSON, or the text of another type. */
export interface Answer {
  status: number;
  body: any;
  text: string;
  type: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The API could not answer a console request (its database away, a write that lost its race,
 * or a fault of its own): no page can say anything useful about it, so it is thrown to the
 * console's error handler, which answers one page for every such case.
 */
export class ApiFault extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | undefined,
  ) {
    super(`the API answered ${status}`);
  }
}

export interface Console {
  services: Services;
  sandbox: boolean;
  /**
   * A supplier API call with the session's token: the one way the console reads or changes
   * anything. An answer of 5xx is thrown as an ApiFault; every other answer is the page's.
   */
  api: (
    req: FastifyRequest,
    s: Pick<ConsoleSession, 'token'>,
    method: Method,
    url: string,
    body?: unknown,
    accept?: string,
  ) => Promise<Answer>;
}

/**
 * Console routes: public to the API's authentication (the session is the console's); how
 * they are metered is set for all of them where the console is registered (index.ts). A
 * form's body is read within FORM_LIMITS.formBytes unless its route says otherwise.
 */
export const ROUTE = { config: { public: true }, schema: { hide: true }, bodyLimit: FORM_LIMITS.formBytes } as const;

/**
 * How long a repeated form's post waits for the first post of the same form to finish (the
 * API answers 409 while it runs): longer than any write takes, shorter than a person waits.
 */
const SAME_FORM_WAIT_MS = 20_000;
const SAME_FORM_POLL_MS = 100;

const stillRunning = (res: { statusCode: number; body: string }) =>
  res.statusCode === 409 && res.body.includes('"idempotency_key_in_use"');

export const consoleOf = (app: FastifyInstance, services: Services): Console => ({
  services,
  sandbox: services.config.env === 'sandbox',
  api: async (req, s, method, url, body, accept) => {
    const send = (key: string | undefined) =>
      app.inject({
        method,
        url: `/api/v1${url}`,
        remoteAddress: req.ip,
        headers: {
          authorization: `Bearer ${s.token}`,
          ...(accept && { accept }),
          ...(key && { 'idempotency-key': key }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
    const key = method === 'GET' ? undefined : nextWriteKey(req);
    let res = await send(key);
    // the same form posted twice at once: the second waits for the first's answer, then
    // answers with it (replayed), so both posts show the same page
    for (const until = Date.now() + SAME_FORM_WAIT_MS; stillRunning(res) && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, SAME_FORM_POLL_MS));
      res = await send(key);
    }
    if (res.statusCode >= 500) throw new ApiFault(res.statusCode, res.headers['retry-after']?.toString());
    // the page a form redirects to may be read on another instance (a session cookie
    // carries no Authorization for the balancer to route by): the change is applied first
    if (method !== 'GET') await services.readsApplied();
    const type = String(res.headers['content-type'] ?? '');
    const json = /json/.test(type) && res.body;
    return { status: res.statusCode, body: json ? res.json() : undefined, text: res.body, type };
  },
});

/** A path segment from a URL parameter, safe to put in an API path. */
export const seg = (value: unknown) => encodeURIComponent(String(value ?? ''));

/** A query string of the given parameters, the empty ones left out. */
export const query = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
  return q.size ? `?${q.toString()}` : '';
};
