import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { byCodeUnits } from '../domain/code-units.js';
import { type AttemptRecord, attemptFacts } from '../outbound/webhook-send.js';

/**
 * What became of one claimed delivery: an attempt was sent (`sent`), it waits for its
 * endpoint's rate limit (no attempt, due again later), or its endpoint is gone (`skipped`).
 */
export interface DeliveryOutcome {
  deliveryId: string;
  endpointId: string;
  status: 'pending' | 'succeeded' | 'abandoned' | 'skipped';
  /** The delivery's attempt count after this; null leaves it as it was. */
  attempts: number | null;
  /** When the next attempt is due; null once final. */
  nextAttemptAt: Date | null;
  sent?: AttemptRecord;
}

/** One endpoint's consecutive-failure counter move over a batch of attempts, in the order they finished. */
export interface CounterMove {
  endpointId: string;
  /** A 2xx came: the count restarts from 0 before `failures`. */
  reset: boolean;
  /** Failed attempts after the last 2xx (all of them when none came). */
  failures: number;
}

/**
 * The counter moves of a batch, one per endpoint with a sent attempt, in endpoint order:
 * any 2xx resets the count, and only the failures after the last one count on. Folded, a
 * batch leaves the counter where attempt-by-attempt counting would.
 */
export const foldCounters = (outcomes: DeliveryOutcome[]): CounterMove[] => {
  const moves = new Map<string, CounterMove>();
  for (const o of outcomes) {
    if (!o.sent) continue;
    const move = moves.get(o.endpointId) ?? { endpointId: o.endpointId, reset: false, failures: 0 };
    if (o.sent.succeeded) {
      move.reset = true;
      move.failures = 0;
    } else move.failures++;
    moves.set(o.endpointId, move);
  }
  // one order for every writer: two batches' upserts never wait on each other crosswise
  return [...moves.values()].sort((a, b) => byCodeUnits(a.endpointId, b.endpointId));
};

/**
 * A batch's outcomes in one statement: the attempts logged, the deliveries moved (only
 * those this instance's claim still holds; a delivery a resend finished meanwhile stays
 * finished) and the failure counters moved per endpoint. Answers the counters it changed.
 */
export const writeOutcomes = async (
  db: Kysely<Database>,
  outcomes: DeliveryOutcome[],
  claimedBy: string,
  now: Date,
): Promise<Map<string, number>> => {
  // the request body is not sent back over the wire (the statement takes it from the delivery)
  // the request's headers as an object in the document: encoded once, not as JSON in JSON
  const attempts = outcomes.flatMap((o) =>
    o.sent ? [{ ...attemptFacts(o.sent), request_headers: o.sent.requestHeaders }] : [],
  );
  const counters = foldCounters(outcomes);
  // the attempts as one JSON document (jsonb_to_recordset): JSON.stringify is native, where
  // arrays of text and jsonb parameters are escaped element by element in JavaScript (about
  // half a kilobyte per attempt: its exact request headers are logged)
  const { rows } = await sql<{ endpoint_id: string; consecutive_failures: number }>`
    with logged as (
      -- the request body is the delivery's own (an attempt sends it as stored): taken from
      -- its row, not sent back over the wire
      insert into webhook_attempts (id, delivery_id, supplier_id, attempt, request_headers, request_body,
        response_status, response_body, duration_ms, error, succeeded, created_at)
      select a.id, a.delivery_id, a.supplier_id, a.attempt, a.request_headers, d.body,
        a.response_status, a.response_body, a.duration_ms, a.error, a.succeeded, a.created_at
      from jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
        as a(id text, delivery_id text, supplier_id text, attempt int, request_headers jsonb, response_status int,
          response_body text, duration_ms int, error text, succeeded boolean, created_at timestamptz)
      join webhook_deliveries d on d.id = a.delivery_id
    ), moved as (
      update webhook_deliveries d set
        status = case when d.status = 'pending' then m.status else d.status end,
        attempts = coalesce(m.attempts, d.attempts),
        next_attempt_at = case when d.status = 'pending' then m.next_at end,
        claimed_by = null,
        updated_at = ${now}
      from unnest(${outcomes.map((o) => o.deliveryId)}::text[], ${outcomes.map((o) => o.status)}::text[],
        ${outcomes.map((o) => o.attempts)}::int[], ${outcomes.map((o) => o.nextAttemptAt)}::timestamptz[])
        as m(id, status, attempts, next_at)
      where d.id = m.id and d.claimed_by = ${claimedBy}
    )
    insert into webhook_endpoint_failures as f (endpoint_id, consecutive_failures)
    select * from unnest(${counters.map((c) => c.endpointId)}::text[], ${counters.map((c) => c.failures)}::int[])
    on conflict (endpoint_id) do update set consecutive_failures = case
        when f.endpoint_id = any(${counters.filter((c) => c.reset).map((c) => c.endpointId)}::text[])
        then excluded.consecutive_failures
        else f.consecutive_failures + excluded.consecutive_failures end
      -- a batch of successes writes only when there is a streak to end
      where excluded.consecutive_failures > 0 or f.consecutive_failures <> 0
    returning endpoint_id, consecutive_failures`.execute(db);
  return new Map(rows.map((r) => [r.endpoint_id, r.consecutive_failures]));
};
