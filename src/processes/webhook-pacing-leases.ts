import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** How long a lease lasts without a renewal: a crashed holder's endpoints wait at most this. */
export const PACING_LEASE_MS = 30_000;
/**
 * A held lease serves without a statement while more than the webhook timeout and this
 * margin are left, and is renewed by the next attempt after. The sender asks again right
 * before each request it sends (after its turn in the pacer), and a request ends within
 * the webhook timeout: the last request of a holder ends at least this margin before its
 * lease can, so the next holder's first request comes at least 5 s after it, never closer
 * than the endpoint's interval (1 s at most).
 */
const MARGIN_MS = 5_000;
/**
 * After another instance was found holding an endpoint, this instance does not ask again
 * for this long: the deliveries it claimed just before the other's lease are handed back
 * without a statement each.
 */
const REFUSED_FOR_MS = 1_000;

/**
 * An endpoint's `rate_limit` holds across instances: one instance at a time sends to a
 * rate-limited endpoint, the holder of its lease (`webhook_pacing_leases`, an expiry in the
 * database's own time, so the instances' clocks need not agree). The claim of due deliveries
 * passes over those of an endpoint another instance holds (processes/webhook-sender.ts), so
 * they wait for the holder, which paces them all. A lease is taken at the first attempt to
 * the endpoint, renewed by later ones (one statement per endpoint every 15 s or so while it
 * is busy, with the 10 s timeout), and lapses 30 s after the last; an instance that stops
 * hands its leases back at once, one that died holds its endpoints those 30 s. Endpoints
 * without a rate limit take no lease and cost nothing.
 */
export class PacingLeases {
  /** Endpoints this instance holds, with when its lease ends (this process's clock, conservatively). */
  private readonly held = new Map<string, number>();
  /** Endpoints another instance was found holding, with until when that answer is kept. */
  private readonly refused = new Map<string, number>();
  /** Statements in flight, per endpoint: the attempts of one claim ask together, once. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly instance: string,
    /** The longest a request to an endpoint can take (the webhook timeout). */
    private readonly sendMs: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Does this instance hold (or now take) the endpoint's lease, with time for a request and the margin left? */
  take(endpointId: string): Promise<boolean> | boolean {
    const now = this.nowMs();
    const until = this.held.get(endpointId);
    if (until !== undefined && until - now > this.sendMs + MARGIN_MS) return true;
    const refused = this.refused.get(endpointId);
    if (refused !== undefined) {
      if (refused > now) return false;
      this.refused.delete(endpointId);
    }
    let asking = this.asking.get(endpointId);
    if (!asking) {
      asking = this.ask(endpointId).finally(() => this.asking.delete(endpointId));
      this.asking.set(endpointId, asking);
    }
    return asking;
  }

  /** Hands back every lease this instance holds (at stop): the other instances send at once. */
  async release(): Promise<void> {
    if (this.held.size === 0) return;
    this.held.clear();
    await this.db.deleteFrom('webhook_pacing_leases').where('instance', '=', this.instance).execute();
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
      this.refused.set(endpointId, asked + REFUSED_FOR_MS);
      return false;
    }
    // counted from before the statement: the lease ends no earlier than this here
    this.held.set(endpointId, asked + PACING_LEASE_MS);
    return true;
  }
}
