import { request } from 'undici';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import type { Metrics } from '../metrics.js';
import type { TargetPolicy } from '../net/targets.js';
import type { SupplierTimeouts } from './supplier-timeouts.js';
import { signatureHeader } from '../crypto/signature.js';
import type { WebhookEndpointState } from '../domain/webhook-endpoint.js';
import { newId } from '../ids.js';
import { outboundDispatcher, refusalOf } from '../net/pinned.js';
import { checkTargetBeforeCall } from '../net/targets.js';
import { attemptOutcome } from '../metrics.js';

/** What sending needs (the commands' dependencies carry it): the attempt log is a table of its own. */
export interface SendDeps {
  clock: Clock;
  db: Kysely<Database>;
  secretBox: SecretBox;
  targets: TargetPolicy;
  timeouts: SupplierTimeouts;
  metrics?: Metrics;
}

export const WEBHOOK_USER_AGENT = 'service-webhooks/1.0';
const RESPONSE_KEPT_BYTES = 4096;

export interface AttemptResult {
  attemptId: string;
  succeeded: boolean;
  responseStatus: number;
  durationMs: number;
  error: string | null;
}

/** How an attempt moves its delivery row, given whether it succeeded. */
export type DeliveryChange = (succeeded: boolean) => { status?: string; attempts?: number };

/** The endpoint's secrets in clear: the current one, and the previous one during a rotation. */
export const endpointSecrets = (deps: SendDeps, endpoint: WebhookEndpointState, at: Date): string[] => {
  const secrets = [deps.secretBox.open(endpoint.secretSealed)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousValidUntil &&
    Date.parse(endpoint.previousValidUntil) > at.getTime()
  )
    secrets.push(deps.secretBox.open(endpoint.previousSecretSealed));
  return secrets;
};

/**
 * One attempt: the stored body, signed now, POSTed to the endpoint. Success is a 2xx within
 * the window; redirects are not followed (they fail). The target is checked on every
 * attempt, on the address the connection uses, so a host re-pointed to a private address
 * is refused. Every attempt is
 * logged with its exact request and the first 4 KB of the answer.
 */
// eslint-disable-next-line max-lines-per-function -- one attempt: sign, send, time and record, in order
export const sendAttempt = async (
  deps: SendDeps,
  endpoint: WebhookEndpointState,
  delivery: { id: string; eventId: string; eventType: string; body: string; supplierId: string },
  attempt: number,
  change: DeliveryChange,
): Promise<AttemptResult> => {
  const now = deps.clock.now();
  const timestamp = String(now.getTime());
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': delivery.eventType,
    'x-svc-event-id': delivery.eventId,
    'x-svc-delivery-id': delivery.id,
    'x-svc-timestamp': timestamp,
    'x-svc-signature': signatureHeader(endpointSecrets(deps, endpoint, now), timestamp, delivery.body),
  };
  const started = performance.now();
  let responseStatus = 0;
  let responseBody: string | null = null;
  let error: string | null = null;
  const target = checkTargetBeforeCall(endpoint.settings.url, deps.targets);
  if (!target.ok) error = `target refused: ${target.reason}`;
  else {
    try {
      const res = await request(endpoint.settings.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        headersTimeout: deps.timeouts.webhookMs,
        bodyTimeout: deps.timeouts.webhookMs,
        signal: AbortSignal.timeout(deps.timeouts.webhookMs),
        dispatcher: outboundDispatcher(deps.targets),
      });
      responseStatus = res.statusCode;
      const bytes = Buffer.from(await res.body.arrayBuffer());
      responseBody = bytes.subarray(0, RESPONSE_KEPT_BYTES).toString('utf8');
    } catch (e) {
      const refusal = refusalOf(e);
      const timedOut =
        e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.message));
      error = refusal
        ? `target refused: ${refusal}`
        : timedOut
          ? `no answer within ${deps.timeouts.webhookMs} ms`
          : 'connection failed';
    }
  }
  const durationMs = Math.round(performance.now() - started);
  const succeeded = error === null && responseStatus >= 200 && responseStatus < 300;
  deps.metrics?.webhookAttempt(attemptOutcome(error, responseStatus), durationMs);
  const attemptId = newId();
  // the signature is a secret's proof, not a secret: the log keeps the exact request. The
  // attempt and its delivery's new state are one statement, one commit.
  await deps.db
    .with('logged', (db) =>
      db.insertInto('webhook_attempts').values({
        id: attemptId,
        delivery_id: delivery.id,
        supplier_id: delivery.supplierId,
        attempt,
        request_headers: JSON.stringify(headers),
        request_body: delivery.body,
        response_status: responseStatus || null,
        response_body: responseBody,
        duration_ms: durationMs,
        error,
        succeeded,
        created_at: now,
      }),
    )
    .updateTable('webhook_deliveries')
    .set({ ...change(succeeded), updated_at: now })
    .where('id', '=', delivery.id)
    .execute();
  return { attemptId, succeeded, responseStatus, durationMs, error };
};
