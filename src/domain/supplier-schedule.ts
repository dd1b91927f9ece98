/**
 * Attempts and pauses toward the supplier's systems, from the spec's table "Supplier-side
 * timeouts and attempts": the schedule the fulfilment and top-up processes keep. The
 * per-call timeouts are in src/outbound/supplier-timeouts.ts.
 */
export const SCHEDULE = {
  reservationAttempts: 2,
  reservationRetryMs: 2_000,
  orderAttempts: 3,
  orderRetryMs: 5_000,
  /** Polls at +0, +5, +15, +30 s after the first POST /orders, then every 60 s. */
  pollOffsetsMs: [0, 5_000, 15_000, 30_000],
  pollEveryMs: 60_000,
  allocationWindowMs: 10 * 60_000,
  /** DELETE /orders/{id}/items: 3 attempts over an hour. */
  cancelAttemptOffsetsMs: [0, 30 * 60_000, 60 * 60_000],
  executeAttempts: 3,
  executeRetryMs: 10_000,
  /** Status polls every 10 s for the first minute, then every 30 s, until 15 minutes. */
  statusEarlyEveryMs: 10_000,
  statusEarlyForMs: 60_000,
  statusLateEveryMs: 30_000,
  topupWindowMs: 15 * 60_000,
  staleValidationMs: 15 * 60_000,
  /** Items ready this fast after POST /orders earn the bigger health bonus. */
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
