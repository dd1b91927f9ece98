import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { MAX_PACING_WAIT_MS } from './webhook-pacing.js';

/** How long a lease lasts without a renewal: a crashed holder's endpoints wait at most this. */
export const PACING_LEASE_MS = 30_000;
/**
 * A held lease serves without a statement while more than this is left, and is renewed by
 * the next attempt after. An attempt may then wait its turn in the pacer up to
 * `MAX_PACING_WAIT_MS` (10 s), so it starts at least 5 s before the lease can end: the next
 * holder's first attempt comes seconds after this one's last, never closer than the
 * endpoint's interval (1 s at most).
 */
const RENEW_WHEN_LEFT_MS = MAX_PACING_WAIT_MS + 5_000;

/**
 * An endpoint's `rate_limit` holds across instances: one instance at a time sends to a
 * rate-limited endpoint, the holder of its lease (`webhook_pacing_leases`, an expiry in the
 * database's own time, so the instances' clocks need not agree). The claim of due deliveries
 * passes over those of an endpoint another instance holds (processes/webhook-sender.ts), so
 * they wait for the holder, which paces them all. A lease is taken at the first attempt to
 * the endpoint, renewed by later ones (one statement per endpoint every 15 s or so while it
 * is busy), and lapses 30 s after the last: an instance that stopped or died holds its
 * endpoints that long. Endpoints without a rate limit take no lease and cost nothing.
 */
export class PacingLeases {
  /** Endpoints this instance holds, with when its lease ends (this process's clock, conservatively). */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly instance: string,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Statements in flight, per endpoint: the attempts of one claim ask together, once. */
  private readonly asking = new Map<string, Promise<boolean>>();

  /** Does this instance hold (or now take) the endpoint's lease? */
  take(endpointId: string): Promise<boolean> | true {
    const until = this.held.get(endpointId);
    if (until !== undefined && until - this.nowMs() > RENEW_WHEN_LEFT_MS) return true;
    let asking = this.asking.get(endpointId);
    if (!asking) {
      asking = this.ask(endpointId).finally(() => this.asking.delete(endpointId));
      this.asking.set(endpointId, asking);
    }
    return asking;
  }

  private async ask(endpointId: string): Promise<boolean> {
    const asked = this.nowMs();
    const { rows } = await sql<{ instance: string }>`
      insert into webhook_pacing_leases (endpoint_id, instance, until)
      values (${endpointId}, ${this.instance}, now() + ${`${PACING_LEASE_MS} milliseconds`}::interval)
      on conflict (endpoint_id) do update set instance = excluded.instance, until = excluded.until
        where webhook_pacing_leases.instance = excluded.instance or webhook_pacing_leases.until < now()
      returning instance`.execute(this.db);
    if (rows.length === 0) {
      this.held.delete(endpointId);
      return false;
    }
    // counted from before the statement: the lease ends no earlier than this here
    this.held.set(endpointId, asked + PACING_LEASE_MS);
    return true;
  }
}
