import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import type { Clock } from '../clock.js';
import type { Timers } from './timers.js';

const HOUR_MS = 60 * 60_000;

/** Hourly housekeeping: forget expired idempotency keys and spent rate-limit windows. */
export const registerMaintenance = (timers: Timers, deps: { db: Kysely<Database>; rateLimiter: RateLimiter; clock: Clock }) => {
  timers.on('maintenance.purge', async () => {
    // from now: a clock moved by days runs it once, not once per missed hour
    const now = deps.clock.now();
    await purgeIdempotencyKeys(deps.db, now);
    await deps.rateLimiter.purge(now);
    return { runAgainAt: new Date(now.getTime() + HOUR_MS) };
  });
};
