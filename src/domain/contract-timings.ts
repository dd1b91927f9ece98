/**
 * The contract's timing tables, one named constant per rule, each written here only: the
 * table "Supplier-side timeouts and attempts" (spec, Limits) and the webhooks' retry ladder
 * (spec, Webhooks; "Webhook retry attempts" in Limits). The per-call timeouts
 * (src/outbound/supplier-timeouts.ts), the schedule the fulfilment and top-up processes keep
 * (supplier-schedule.ts), checkout and the healthchecks all read them from here.
 */

// ---- POST /reservations: 10 s, 2 attempts, the retry after 2 s; the buyer waits at checkout
export const RESERVATION_TIMEOUT_MS = 10_000;
export const RESERVATION_ATTEMPTS = 2;
export const RESERVATION_RETRY_MS = 2_000;

/**
 * Reservation TTL: 15 minutes. A checkout's stock (uploaded or declared) is held this long and
 * an unpaid order expires then; a fresh reservation (after a 410, for a reroute) is asked for as long.
 */
export const RESERVATION_TTL_MS = 15 * 60_000;

// ---- POST /orders: 10 s, 3 attempts 5 s apart, from the payment's authorization
export const ORDER_TIMEOUT_MS = 10_000;
export const ORDER_ATTEMPTS = 3;
export const ORDER_RETRY_MS = 5_000;

// ---- GET /orders/{id}/items: 10 s per poll, at +0, +5, +15, +30 s after the first POST /orders,
// then every 60 s, inside the 10-minute allocation window
export const POLL_TIMEOUT_MS = 10_000;
export const POLL_OFFSETS_MS = [0, 5_000, 15_000, 30_000] as const;
export const POLL_EVERY_MS = 60_000;
export const ALLOCATION_WINDOW_MS = 10 * 60_000;

// ---- DELETE /orders/{id}/items: 10 s, 3 attempts over an hour, best effort
export const CANCEL_TIMEOUT_MS = 10_000;
export const CANCEL_ATTEMPT_OFFSETS_MS = [0, 30 * 60_000, 60 * 60_000] as const;

// ---- GET /healthcheck: 5 s, 1 attempt, every 5 minutes while active, every 10 in cooldown
export const HEALTHCHECK_TIMEOUT_MS = 5_000;
export const HEALTHCHECK_EVERY_MS = 5 * 60_000;
export const HEALTHCHECK_IN_COOLDOWN_EVERY_MS = 10 * 60_000;

// ---- POST /topup/validate: 10 s, 1 attempt, no retry, at checkout
export const VALIDATE_TIMEOUT_MS = 10_000;

// ---- POST /topup/execute: 30 s, 3 attempts 10 s apart, within 15 minutes
export const EXECUTE_TIMEOUT_MS = 30_000;
export const EXECUTE_ATTEMPTS = 3;
export const EXECUTE_RETRY_MS = 10_000;
/** The top-up's window from its first execute: unresolved then is a definitive failure. */
export const TOPUP_WINDOW_MS = 15 * 60_000;

// ---- top-up status poll: every 10 s for 1 minute, then every 30 s, within the top-up window.
// The table gives no timeout per poll; a poll is given as long as the other reads (10 s).
export const STATUS_TIMEOUT_MS = 10_000;
export const STATUS_EARLY_EVERY_MS = 10_000;
export const STATUS_EARLY_FOR_MS = 60_000;
export const STATUS_LATE_EVERY_MS = 30_000;

// ---- offer health: items ready this fast after POST /orders earn the bigger bonus
export const FAST_DELIVERY_MS = 60_000;

// ---- stale top-up validation: re-validated before the execute when older than 15 minutes
export const STALE_VALIDATION_MS = 15 * 60_000;

// ---- webhook success: a 2xx within 10 s (the Limits table)
export const WEBHOOK_SUCCESS_WINDOW_MS = 10_000;

// ---- webhook retries: after a failed attempt +0, +1 min, +5 min, +30 min, +2 h, +8 h, +24 h
// (7 attempts in all); after the seventh the event is abandoned for that endpoint
/** Entry n is the wait before attempt n + 1. */
export const WEBHOOK_RETRY_LADDER_MS: readonly number[] = [
  0,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  8 * 3600_000,
  24 * 3600_000,
];
