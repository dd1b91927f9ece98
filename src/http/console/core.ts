import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Services } from '../services.js';
import type { ConsoleSession } from './session.js';

/** A posted form: a field sent more than once (the event checkboxes) is a list. */
export type Form = Record<string, string | string[] | undefined>;

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

export const parseForm = (text: string): Form => {
  const form: Form = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = form[k];
    form[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return form;
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

/** Console routes: public to the API's authentication (the session is the console's), metered by the API calls they make. */
export const ROUTE = { config: { public: true, unlimited: true }, schema: { hide: true } } as const;

export const consoleOf = (app: FastifyInstance, services: Services): Console => ({
  services,
  sandbox: services.config.env === 'sandbox',
  api: async (req, s, method, url, body, accept) => {
    const res = await app.inject({
      method,
      url: `/api/v1${url}`,
      remoteAddress: req.ip,
      headers: {
        authorization: `Bearer ${s.token}`,
        ...(accept && { accept }),
        ...(method !== 'GET' && { 'idempotency-key': randomUUID() }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
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
