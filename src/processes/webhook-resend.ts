import type { Kysely } from 'kysely';
import type { Caller, CommandDeps } from '../commands/context.js';
import { countAttempt, disableEndpoint, loadEndpoint } from '../commands/webhooks.js';
import type { Database } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import { DISABLE_AFTER_FAILURES } from '../domain/webhook-endpoint.js';
import { sendAttempt } from '../outbound/webhook-send.js';
import { LOG_RETENTION_MS } from './webhooks.js';
import { deliveryAttempt } from '../projections/webhook-reads.js';

/** The supplier's attempt by its id, or a delivery's latest attempt by the delivery's id. */
export const attemptOf = async (db: Kysely<Database>, supplierId: string, id: string) => {
  const row = await deliveryAttempt(db, supplierId, id);
  if (!row) throw new DomainError('not_found', `webhook delivery ${id} not found`);
  return row;
};

/**
 * Delivers a logged event's same body again, now: another attempt of its delivery, counted
 * like any other (its failure can be the endpoint's 30th in a row, and a 410 is the receiver
 * saying it is gone, whichever attempt it answers). Only within the log's 30 days, and only
 * to an active endpoint.
 */
export const resendDelivery = async (
  deps: CommandDeps,
  db: Kysely<Database>,
  supplierId: string,
  id: string,
  caller: Caller,
) => {
  const r = await attemptOf(db, supplierId, id);
  if (deps.clock.now().getTime() - new Date(r.delivery_created_at).getTime() > LOG_RETENTION_MS)
    throw new DomainError('invalid_state', 'deliveries can be resent for 30 days');
  const endpoint = await loadEndpoint(deps, supplierId, r.endpoint_id);
  if (endpoint.status !== 'active')
    throw new DomainError('invalid_state', 'the endpoint is disabled; re-enable it first');
  const attempt = r.attempts + 1;
  const result = await sendAttempt(
    deps,
    endpoint,
    { id: r.delivery_id, eventId: r.event_id, eventType: r.event_type, body: r.body, supplierId },
    attempt,
    // a success ends a delivery still on its ladder: no further attempt is due
    (succeeded) => ({ attempts: attempt, ...(succeeded && { status: 'succeeded', next_attempt_at: null }) }),
  );
  const failures = r.test_fire ? 0 : await countAttempt(deps, endpoint.id, result.succeeded);
  if (!r.test_fire && result.responseStatus === 410) await disableEndpoint(deps, endpoint.id, 'gone', failures, caller);
  else if (!r.test_fire && !result.succeeded && failures >= DISABLE_AFTER_FAILURES)
    await disableEndpoint(deps, endpoint.id, 'consecutive_failures', failures, caller);
  return { deliveryId: r.delivery_id, eventType: r.event_type, result };
};
