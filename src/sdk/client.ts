import { randomUUID } from 'node:crypto';
import createClient, { type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { components, paths } from './api-types.js';

/** A problem+json answer, as the API document describes it. */
export type Problem = components['schemas']['Problem'];
export type ProblemCode = Problem['code'];

/** Raised for every answer of status 400 or more: the problem's code, status and trace id, typed. */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly traceId: string;
  /** Seconds to wait, on a 429. */
  readonly retryAfter: number | undefined;

  constructor(
    readonly problem: Problem,
    retryAfter?: number,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'ProblemError';
    this.status = problem.status;
    this.code = problem.code;
    this.traceId = problem.trace_id;
    this.retryAfter = retryAfter;
  }
}

export interface MarketplaceClientOptions {
  /** The service's origin, e.g. `https://api.example.com` (paths carry `/api/v1`). */
  baseUrl: string;
  /** A supplier token (`svc_test_…` or `svc_live_…`). */
  token: string;
  /** Retries of one call answered 429, each after its Retry-After. Default 3. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is raised. Default 120 000 (two rate-limit windows). */
  maxRetryDelayMs?: number;
  /** How to wait (tests move a clock instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Makes each mutating call's Idempotency-Key (default: a random UUID). */
  idempotencyKey?: () => string;
  fetch?: (request: Request) => Promise<Response>;
}

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type Media = `${string}/${string}`;
/** The paths that have method `M` (the document gives every path each method, `never` where it has none). */
type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends Record<string, unknown> ? P : never;
}[keyof paths];
/** The operation of a path and method. */
type Operation<P extends keyof paths, M extends HttpMethod> = Extract<paths[P][M], Record<string | number, unknown>>;
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** openapi-fetch's: the options argument, required when the path or its body needs one. */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/**
 * openapi-fetch's method with its answer narrowed to the success: every answer of 400 or
 * more is raised (`ProblemError`) before it could be returned, so `data` is never undefined.
 */
type SucceedingMethod<M extends HttpMethod> = <
  Path extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<{ data: NonNullable<FetchResponse<Operation<Path, M>, Init, Media>['data']>; response: Response }>;

/** The typed client: one method per HTTP method, each taking a path of the API document. */
export interface MarketplaceClient {
  GET: SucceedingMethod<'get'>;
  POST: SucceedingMethod<'post'>;
  PUT: SucceedingMethod<'put'>;
  PATCH: SucceedingMethod<'patch'>;
  DELETE: SucceedingMethod<'delete'>;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A typed client of the supplier API (`openapi-fetch` over the generated `paths`):
 *
 * - every mutating call carries an `Idempotency-Key` (one you set yourself is kept), so a
 *   call retried after a lost answer is applied once;
 * - a 429 is retried after its `Retry-After`, with the same key, up to `maxRetries` times;
 * - any problem+json answer is raised as a `ProblemError`, so `data` is always the success.
 */
export const createMarketplaceClient = (options: MarketplaceClientOptions): MarketplaceClient => {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const send = options.fetch ?? ((request: Request) => fetch(request));

  // the same request again after each 429: a clone per attempt, since a body is read once
  const retrying = async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const seconds = Number(response.headers.get('retry-after'));
      if (!Number.isFinite(seconds) || seconds * 1000 > maxDelay) return response;
      await response.body?.cancel();
      await sleep(seconds * 1000);
    }
  };

  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retrying,
    headers: { authorization: `Bearer ${options.token}` },
  });
  const conventions: Middleware = {
    onRequest({ request }) {
      if (MUTATING.has(request.method) && !request.headers.has('idempotency-key'))
        request.headers.set('idempotency-key', (options.idempotencyKey ?? randomUUID)());
      return request;
    },
    async onResponse({ response }) {
      if (response.status < 400) return response;
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) throw new Error(`HTTP ${response.status} without a problem body`);
      const retryAfter = response.headers.get('retry-after');
      throw new ProblemError((await response.json()) as Problem, retryAfter === null ? undefined : Number(retryAfter));
    },
  };
  client.use(conventions);
  // the middleware raised every refusal: what returns is a success
  return client as unknown as MarketplaceClient;
};
