import type { Kysely } from 'kysely';
import { UNAVAILABLE_RETRY_AFTER_S } from '../db/faults.js';
import type { Database } from '../db/schema.js';
import { readPayout } from '../resources/payout-resource.js';
import { HttpProblem } from './problem.js';

/**
 * A payout just written, as the read models show it. Should they not show it yet (the
 * request's read waited for them and they lag behind), the answer is a 503 to retry, not
 * a 500: the payout is recorded, and a retry with the same Idempotency-Key answers with it
 * without paying out again (its id follows from the key's operation).
 */
export const recordedPayout = async (db: Kysely<Database>, payoutId: string, supplierId?: string) => {
  const found = await readPayout(db, payoutId, supplierId);
  if (found) return found;
  throw new HttpProblem(
    'service_unavailable',
    `payout ${payoutId} is recorded and not readable yet; retry shortly (with the same Idempotency-Key)`,
    {},
    { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) },
  );
};
