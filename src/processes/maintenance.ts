import type { Clock } from '../clock.js';
import type { Timers } from './timers.js';

const HOUR_MS = 60 * 60_000;

/** Forgets what expired before `now` (idempotency keys, spent rate-limit windows, values no upload recorded). */
export type Purge = (now: Date) => Promise<unknown>;

/**
 * Hourly housekeeping. The purges are handed in by the composition root: the tables they
 * clean belong to the HTTP layer's mechanisms, which a process does not reach into.
 */
export const registerMaintenance = (timers: Timers, deps: { clock: Clock; purges: Purge[] }) => {
  timers.on('maintenance.purge', async () => {
    // from now: a clock moved by days runs it once, not once per missed hour
    const now = deps.clock.now();
    for (const purge of deps.purges) await purge(now);
    return { runAgainAt: new Date(now.getTime() + HOUR_MS) };
  });
};
