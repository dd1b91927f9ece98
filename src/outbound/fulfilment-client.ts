import type { Clock } from '../clock.js';
import { signatureHeader } from '../crypto/signature.js';
import type { ProbeResult } from '../domain/offer.js';
import { callFailureText, outboundCall } from '../net/outbound-call.js';
import { checkTargetBeforeCall, type TargetPolicy } from '../net/targets.js';
import { attemptOutcome, type Metrics } from '../metrics.js';
import { SMALL_ANSWER_BYTES } from './answer-limits.js';

export const HEALTHCHECK_TIMEOUT_MS = 5000;
export const FULFILMENT_USER_AGENT = 'service-fulfilment/1.0';

export interface SupplierEndpoint {
  offerId: string;
  baseUrl: string;
  /** Current secret first; during a rotation the previous one too. */
  secrets: string[];
}

const joinPath = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;

/**
 * `GET {base_url}/healthcheck`: 200 within 5 s is a pass. The call is signed like every
 * call to the supplier (the supplier may skip verifying it).
 */
export const probeHealthcheck = async (endpoint: SupplierEndpoint, deps: ProbeDeps): Promise<ProbeResult> => {
  const result = await probeOnce(endpoint, deps);
  deps.metrics?.supplierCall('healthcheck', attemptOutcome(result.error, result.httpStatus), result.latencyMs);
  return result;
};

type ProbeDeps = { clock: Clock; policy: TargetPolicy; timeoutMs?: number; metrics?: Metrics };

const probeOnce = async (endpoint: SupplierEndpoint, deps: ProbeDeps): Promise<ProbeResult> => {
  const url = joinPath(endpoint.baseUrl, '/healthcheck');
  const checkedAt = deps.clock.now().toISOString();
  const target = checkTargetBeforeCall(url, deps.policy);
  if (!target.ok)
    return { ok: false, httpStatus: 0, latencyMs: 0, checkedAt, error: `target refused: ${target.reason}` };
  const timestamp = String(deps.clock.now().getTime());
  const started = performance.now();
  const timeout = deps.timeoutMs ?? HEALTHCHECK_TIMEOUT_MS;
  try {
    const res = await outboundCall(deps.policy, url, {
      method: 'GET',
      headers: {
        'user-agent': FULFILMENT_USER_AGENT,
        'x-svc-timestamp': timestamp,
        'x-svc-signature': signatureHeader(endpoint.secrets, timestamp, ''),
        'x-svc-offer-id': endpoint.offerId,
      },
      timeoutMs: timeout,
      // the verdict is the status alone, but an endless body must not keep the probe reading
      maxAnswerBytes: SMALL_ANSWER_BYTES,
    });
    const latencyMs = Math.round(performance.now() - started);
    return { ok: res.statusCode === 200, httpStatus: res.statusCode, latencyMs, checkedAt };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    return { ok: false, httpStatus: 0, latencyMs, checkedAt, error: callFailureText(error, timeout) };
  }
};
