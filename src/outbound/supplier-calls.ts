import type { Clock } from '../clock.js';
import { signatureHeader } from '../crypto/signature.js';
import { callFailure, outboundCall } from '../net/outbound-call.js';
import { checkTargetBeforeCall, type TargetPolicy } from '../net/targets.js';
import { SMALL_ANSWER_BYTES } from './answer-limits.js';
import type { SupplierEndpoint } from './fulfilment-client.js';
import { type Metrics, httpOutcome, supplierCallKind } from '../metrics.js';

/** What came back from one call to the supplier's systems. */
export type CallOutcome =
  | { kind: 'answer'; status: number; body: unknown; latencyMs: number }
  /** No usable answer: timeout, refused connection, a refused target, a body past the call's limit or not JSON. */
  | {
      kind: 'failure';
      reason: 'timeout' | 'connection' | 'target' | 'too_large' | 'malformed';
      detail: string;
      latencyMs: number;
    };

export interface SupplierCallDeps {
  clock: Clock;
  policy: TargetPolicy;
  metrics?: Metrics;
}

const USER_AGENT = 'service-fulfilment/1.0';

export interface CallLimits {
  /** The most of the answer read (answer-limits.ts): the items answer's depends on the quantity. */
  maxAnswerBytes?: number;
}

/**
 * One signed call to `{base_url}{path}`: JSON body signed with every current secret
 * (`X-SVC-Signature: v1=…[,v1=…]`), `X-SVC-Timestamp`, `X-SVC-Offer-Id`, the fulfilment
 * User-Agent. The target is checked on every call, on the address the connection uses (a
 * host re-pointed to a private address is refused). Redirects are not followed.
 */
export const callSupplier = async (...args: Parameters<typeof callOnce>): Promise<CallOutcome> => {
  const outcome = await callOnce(...args);
  args[5].metrics?.supplierCall(
    supplierCallKind(args[1], args[2]),
    outcome.kind === 'answer' ? httpOutcome(outcome.status) : outcome.reason,
    outcome.latencyMs,
  );
  return outcome;
};

const callOnce = async (
  endpoint: SupplierEndpoint,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  timeoutMs: number,
  deps: SupplierCallDeps,
  limits: CallLimits = {},
): Promise<CallOutcome> => {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`;
  const target = checkTargetBeforeCall(url, deps.policy);
  if (!target.ok) return { kind: 'failure', reason: 'target', detail: target.reason, latencyMs: 0 };
  const raw = body === undefined ? '' : JSON.stringify(body);
  const timestamp = String(deps.clock.now().getTime());
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await outboundCall(deps.policy, url, {
      method,
      headers: {
        'user-agent': USER_AGENT,
        'x-svc-timestamp': timestamp,
        'x-svc-signature': signatureHeader(endpoint.secrets, timestamp, raw),
        'x-svc-offer-id': endpoint.offerId,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : raw,
      timeoutMs,
      maxAnswerBytes: limits.maxAnswerBytes ?? SMALL_ANSWER_BYTES,
    });
    const text = res.body.toString('utf8');
    if (text.length === 0) return { kind: 'answer', status: res.statusCode, body: undefined, latencyMs: elapsed() };
    try {
      return { kind: 'answer', status: res.statusCode, body: JSON.parse(text), latencyMs: elapsed() };
    } catch {
      return {
        kind: 'failure',
        reason: 'malformed',
        detail: `HTTP ${res.statusCode} with a body that is not JSON`,
        latencyMs: elapsed(),
      };
    }
  } catch (error) {
    return { kind: 'failure', ...callFailure(error, timeoutMs), latencyMs: elapsed() };
  }
};

export const codeOf = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
    ? (body as { code: string }).code
    : undefined;
