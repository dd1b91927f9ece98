import * as timings from './contract-timings.js';

/**
 * Attempts and pauses toward the supplier's systems: the schedule the fulfilment and top-up
 * processes keep, from the contract's table "Supplier-side timeouts and attempts"
 * (contract-timings.ts, which the per-call timeouts of src/outbound/supplier-timeouts.ts read too).
 */
export const SCHEDULE = {
  reservationAttempts: timings.RESERVATION_ATTEMPTS,
  reservationRetryMs: timings.RESERVATION_RETRY_MS,
  orderAttempts: timings.ORDER_ATTEMPTS,
  orderRetryMs: timings.ORDER_RETRY_MS,
  pollOffsetsMs: timings.POLL_OFFSETS_MS,
  pollEveryMs: timings.POLL_EVERY_MS,
  allocationWindowMs: timings.ALLOCATION_WINDOW_MS,
  cancelAttemptOffsetsMs: timings.CANCEL_ATTEMPT_OFFSETS_MS,
  executeAttempts: timings.EXECUTE_ATTEMPTS,
  executeRetryMs: timings.EXECUTE_RETRY_MS,
  statusEarlyEveryMs: timings.STATUS_EARLY_EVERY_MS,
  statusEarlyForMs: timings.STATUS_EARLY_FOR_MS,
  statusLateEveryMs: timings.STATUS_LATE_EVERY_MS,
  topupWindowMs: timings.TOPUP_WINDOW_MS,
  staleValidationMs: timings.STALE_VALIDATION_MS,
  /** Items ready this fast after POST /orders earn the bigger health bonus (spec, offer health). */
  fastDeliveryMs: 60_000,
} as const;

/** When to poll next, counted from the first POST /orders; null once the window is over. */
export const nextPollAt = (orderedAt: number, now: number): number | null => {
  const end = orderedAt + SCHEDULE.allocationWindowMs;
  const offsets: number[] = [...SCHEDULE.pollOffsetsMs];
  for (
    let t = SCHEDULE.pollOffsetsMs.at(-1)! + SCHEDULE.pollEveryMs;
    t < SCHEDULE.allocationWindowMs;
    t += SCHEDULE.pollEveryMs
  )
    offsets.push(t);
  const next = offsets.map((o) => orderedAt + o).find((t) => t > now);
  if (next !== undefined) return next;
  return now < end ? end : null;
};
