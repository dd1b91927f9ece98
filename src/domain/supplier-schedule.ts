import { ALLOCATION_WINDOW_MS, POLL_EVERY_MS, POLL_OFFSETS_MS } from './contract-timings.js';

/**
 * The schedule of polls the fulfilment process keeps toward a declared supplier, from the
 * contract's table "Supplier-side timeouts and attempts" (contract-timings.ts: every attempt
 * and pause is read from there by its one name).
 */

/** When to poll next, counted from the first POST /orders; null once the window is over. */
export const nextPollAt = (orderedAt: number, now: number): number | null => {
  const end = orderedAt + ALLOCATION_WINDOW_MS;
  const offsets: number[] = [...POLL_OFFSETS_MS];
  for (let t = Math.max(...POLL_OFFSETS_MS) + POLL_EVERY_MS; t < ALLOCATION_WINDOW_MS; t += POLL_EVERY_MS)
    offsets.push(t);
  const next = offsets.map((o) => orderedAt + o).find((t) => t > now);
  if (next !== undefined) return next;
  return now < end ? end : null;
};
