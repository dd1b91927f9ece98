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
import { callFailureText, outboundCall } from '../net/outbound-call.js';
import { checkTargetBeforeCall } from '../net/targets.js';
import { attemptOutcome } from '../metrics.js';
import { CONNECTION_REFUSED, connectionRefused } from './webhook-outcome.js';
import { WEBHOOK_ANSWER_KEPT_BYTES } from './answer-limits.js';

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

export interface AttemptResult {
  attemptId: string;
  succeeded: boolean;
  responseStatus: number;
  durationMs: number;
  error: string | null;
}

/** How an attempt moves its delivery row, given whether it succeeded. */
export type DeliveryChange = (succeeded: boolean) => {
  status?: string;
  attempts?: number;
  next_attempt_at?: Date | null;
};

/**
 * The endpoint's sealed secrets opened, per endpoint state: a state is replaced, never
 * changed, when its endpoint moves (a rotation among them), so the attempts of one state
 * open its secrets once instead of once each (an AES-GCM open per attempt was a twentieth
 * of the sender's CPU). Held only as long as the state itself is.
 */
const opened = new WeakMap<WebhookEndpointState, { current: string; previous: string | null }>();

/** The endpoint's secrets in clear: the current one, and the previous one during a rotation. */
export const endpointSecrets = (deps: SendDeps, endpoint: WebhookEndpointState, at: Date): string[] => {
  let secrets = opened.get(endpoint);
  if (!secrets) {
    secrets = {
      current: deps.secretBox.open(endpoint.secretSealed),
      previous: endpoint.previousSecretSealed ? deps.secretBox.open(endpoint.previousSecretSealed) : null,
    };
    opened.set(endpoint, secrets);
  }
  return secrets.previous !== null &&
    endpoint.previousValidUntil &&
    Date.parse(endpoint.previousValidUntil) > at.getTime()
    ? [secrets.current, secrets.previous]
    : [secrets.current];
};

/**
 * The check of an endpoint's URL before a call, per policy and URL: it looks at the URL's
 * text only (the address a name resolves to is checked on the connection), so its answer
 * never changes; kept instead of parsing the URL again for every attempt.
 */
type TargetCheck = ReturnType<typeof checkTargetBeforeCall>;
const checkedTargets = new WeakMap<TargetPolicy, Map<string, TargetCheck>>();
const checkTargetOnce = (url: string, policy: TargetPolicy) => {
  let checked = checkedTargets.get(policy);
  if (!checked || checked.size > 10_000) checkedTargets.set(policy, (checked = new Map<string, TargetCheck>()));
  let result = checked.get(url);
  if (!result) checked.set(url, (result = checkTargetBeforeCall(url, policy)));
  return result;
};

/** A delivery as an attempt sends it. */
export interface OutgoingDelivery {
  id: string;
  eventId: string;
  eventType: string;
  body: string;
  supplierId: string;
}

/** One attempt as it happened, ready for the log (`webhook_attempts`). */
export interface AttemptRecord extends AttemptResult {
  deliveryId: string;
  supplierId: string;
  attempt: number;
  /** As sent: the log keeps them as a JSON object, encoded once with the statement that writes it. */
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseBody: string | null;
  at: Date;
}

/** A delivery's headers, signed at `now` with each of `secrets` (an endpoint's, or a listen session's). */
export const deliveryHeaders = (
  delivery: Pick<OutgoingDelivery, 'id' | 'eventId' | 'eventType' | 'body'>,
  secrets: string[],
  now: Date,
): Record<string, string> => {
  const timestamp = String(now.getTime());
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': delivery.eventType,
    'x-svc-event-id': delivery.eventId,
    'x-svc-delivery-id': delivery.id,
    'x-svc-timestamp': timestamp,
    'x-svc-signature': signatureHeader(secrets, timestamp, delivery.body),
  };
};

/**
 * One attempt: the stored body, signed now, POSTed to the endpoint. Success is a 2xx within
 * the window; redirects are not followed (they fail). The target is checked on every
 * attempt, on the address the connection uses, so a host re-pointed to a private address
 * is refused. Nothing is written: the caller logs the attempt (`recordAttempt`, or a
 * batch's outcomes in one statement), with its exact request and the first 4 KB of the answer.
 */
export const attemptDelivery = async (
  deps: SendDeps,
  endpoint: WebhookEndpointState,
  delivery: OutgoingDelivery,
  attempt: number,
): Promise<AttemptRecord> => {
  const now = deps.clock.now();
  const headers = deliveryHeaders(delivery, endpointSecrets(deps, endpoint, now), now);
  const started = performance.now();
  let responseStatus = 0;
  let responseBody: string | null = null;
  let error: string | null = null;
  const target = checkTargetOnce(endpoint.settings.url, deps.targets);
  if (!target.ok) error = `target refused: ${target.reason}`;
  else {
    try {
      const res = await outboundCall(deps.targets, endpoint.settings.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        timeoutMs: deps.timeouts.webhookMs,
        // the status is the verdict: a longer answer is cut at what the log keeps, not read on
        maxAnswerBytes: WEBHOOK_ANSWER_KEPT_BYTES,
        overLimit: 'cut',
      });
      responseStatus = res.statusCode;
      // PostgreSQL text holds no NUL character: a binary answer is logged with U+FFFD in its place
      responseBody = res.body.toString('utf8').replaceAll('\0', '\uFFFD');
    } catch (e) {
      // a refused connection reads as such in the log: nothing listens at the endpoint's address
      error = connectionRefused(e) ? CONNECTION_REFUSED : callFailureText(e, deps.timeouts.webhookMs);
    }
  }
  const durationMs = Math.round(performance.now() - started);
  const succeeded = error === null && responseStatus >= 200 && responseStatus < 300;
  deps.metrics?.webhookAttempt(attemptOutcome(error, responseStatus), durationMs);
  // the signature is a secret's proof, not a secret: the log keeps the exact request
  return {
    attemptId: newId(),
    deliveryId: delivery.id,
    supplierId: delivery.supplierId,
    attempt,
    succeeded,
    responseStatus,
    durationMs,
    error,
    requestHeaders: headers,
    requestBody: delivery.body,
    responseBody,
    at: now,
  };
};

/** The log row of one attempt but its request, which each writer passes its own way. */
export const attemptFacts = (a: AttemptRecord) => ({
  id: a.attemptId,
  delivery_id: a.deliveryId,
  supplier_id: a.supplierId,
  attempt: a.attempt,
  response_status: a.responseStatus || null,
  response_body: a.responseBody,
  duration_ms: a.durationMs,
  error: a.error,
  succeeded: a.succeeded,
  created_at: a.at,
});

/** The log row of one attempt. */
export const attemptRow = (a: AttemptRecord) => ({
  ...attemptFacts(a),
  request_headers: JSON.stringify(a.requestHeaders),
  request_body: a.requestBody,
});

/** One attempt sent and logged with its delivery's new state: one statement, one commit (test-fire, resend). */
export const sendAttempt = async (
  deps: SendDeps,
  endpoint: WebhookEndpointState,
  delivery: OutgoingDelivery,
  attempt: number,
  change: DeliveryChange,
): Promise<AttemptResult> => {
  const done = await attemptDelivery(deps, endpoint, delivery, attempt);
  await deps.db
    .with('logged', (db) => db.insertInto('webhook_attempts').values(attemptRow(done)))
    .updateTable('webhook_deliveries')
    .set({ ...change(done.succeeded), updated_at: done.at })
    .where('id', '=', delivery.id)
    .execute();
  const { attemptId, succeeded, responseStatus, durationMs, error } = done;
  return { attemptId, succeeded, responseStatus, durationMs, error };
};
