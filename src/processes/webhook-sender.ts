import { inSpan } from '../tracing.js';
import { type Selectable, sql } from 'kysely';
import type { Logger } from 'pino';
import type { CommandDeps } from '../commands/context.js';
import type { WebhookDeliveryTable } from '../db/schema.js';
import { load } from '../commands/handle.js';
import { webhookStream } from '../commands/streams.js';
import { disableEndpoint } from '../commands/webhooks.js';
import {
  DISABLE_AFTER_FAILURES,
  type WebhookEndpointState,
  webhookEndpointDecider,
} from '../domain/webhook-endpoint.js';
import { WEBHOOK_RETRY_LADDER_MS } from '../domain/contract-timings.js';
import { newId } from '../ids.js';
import { attemptDelivery } from '../outbound/webhook-send.js';
import { EndpointPacer, EndpointSlots } from './webhook-pacing.js';
import { PacingLeases } from './webhook-pacing-leases.js';
import { type DeliveryOutcome, writeOutcomes } from './webhook-outcomes.js';
import { type DueSource, LEASE_MS } from './timers.js';
import { BatchRuns } from './batch-runs.js';

/** 7 attempts in all, one per rung of the spec's retry ladder. */
export const MAX_ATTEMPTS = WEBHOOK_RETRY_LADDER_MS.length;
/** At most this many attempts in flight per endpoint in one process: a slow endpoint waits its turn, others do not. */
const PER_ENDPOINT_IN_FLIGHT = 4;
/** Deliveries one statement claims. */
const CLAIM_BATCH = 100;
/** Deliveries claimed and not yet recorded in one instance, at most. */
const MAX_CLAIMED = 400;
/**
 * New deliveries the fan-out handed over and not yet recorded in one instance, at most: a
 * burst's deliveries go straight to the sender of the instance that made them (their bodies
 * are in memory, about a kilobyte each), not through a claim each. Counted apart from the
 * claims, so that while new ones keep coming, the due ones (retries, and what did not fit)
 * are still claimed and sent beside them.
 */
const MAX_HANDED = 2_000;
/** Claims are renewed this often (real time) while held, as timer leases are. */
const RENEW_MS = 10_000;
/** A delivery whose attempt could not even start (an unexpected error) is due again after this. */
const UNEXPECTED_RETRY_MS = 60_000;

/** An endpoint deliveries are sent to: there, active, not deleted. */
const sendable = (endpoint: WebhookEndpointState | null | undefined): endpoint is WebhookEndpointState =>
  !!endpoint && !endpoint.deleted && endpoint.status === 'active';

/** No attempt: the endpoint is gone or disabled; the delivery is final. */
const skipped = (row: ClaimedDelivery): DeliveryOutcome => ({
  deliveryId: row.id,
  endpointId: row.endpoint_id,
  status: 'skipped',
  attempts: null,
  nextAttemptAt: null,
});

/** What a slot answers for an endpoint found not sendable when the attempt's turn came. */
const GONE = Symbol('endpoint gone');

/** A claimed delivery: its row as the claim answered it. */
export type ClaimedDelivery = Pick<
  Selectable<WebhookDeliveryTable>,
  'id' | 'event_id' | 'event_type' | 'supplier_id' | 'endpoint_id' | 'body' | 'attempts'
> & {
  /** Its event's trace context, with tracing on (null or absent without). */
  traceparent?: string | null;
};

interface Waiting {
  outcome: DeliveryOutcome;
  recorded: () => void;
}

/**
 * Sends webhook deliveries in batches. Due deliveries are claimed straight from
 * `webhook_deliveries` (`next_attempt_at` due, `FOR UPDATE SKIP LOCKED`), up to 100 in one
 * statement: the claim moves `next_attempt_at` to the end of a 30 s lease and names this
 * instance in `claimed_by`, so a crashed instance's claims fall due again when their lease
 * runs out; a live one renews its leases every 10 s. Each claimed delivery is sent on its
 * own (per-endpoint rate limit, held across instances by a lease, at most 4 in flight per
 * endpoint), and the outcomes are recorded as they come in one statement per group:
 * whatever finished while the previous statement ran is written by the next (attempts
 * logged, deliveries moved, failure counters folded per endpoint). Auto-disables follow
 * the recorded counters.
 */
export class DeliverySender implements DueSource {
  /** Who holds a claim of this instance's (`claimed_by`). */
  readonly instance = `webhooks:${newId()}`;
  private readonly pacer = new EndpointPacer();
  private readonly slots = new EndpointSlots(PER_ENDPOINT_IN_FLIGHT);
  private waiting: Waiting[] = [];
  private flushing: Promise<void> | undefined;
  /** Deliveries held, by how they came: claimed here, or handed over by the fan-out. */
  private readonly held = { claimed: 0, handed: 0 };
  /**
   * The ids of the deliveries held now, until their outcome is written (or failed to be):
   * only these have their leases renewed, and a claim that meets one of them (its lease ran
   * out on a clock moved ahead) leaves it to the attempt already under way.
   */
  private readonly heldIds = new Set<string>();
  /** Endpoint states a 410 answered for (a state is replaced when its endpoint moves on). */
  private readonly answeredGone = new WeakSet<WebhookEndpointState>();
  /** Set once `settle` begins: nothing new is taken on after. */
  private stopping = false;
  private renewal: ReturnType<typeof setInterval> | undefined;

  private readonly running: BatchRuns;
  private readonly leases: PacingLeases;

  constructor(
    private readonly deps: CommandDeps,
    private readonly log: Logger,
    wake: () => void,
  ) {
    this.running = new BatchRuns(wake);
    this.leases = new PacingLeases(deps.db, this.instance, deps.timeouts.webhookMs);
  }

  async runDue({ wait }: { wait: boolean }): Promise<number> {
    const room = Math.min(CLAIM_BATCH, MAX_CLAIMED - this.held.claimed);
    if (room <= 0 || this.stopping) return 0;
    const claimed = await this.claim(room);
    if (claimed.length === 0) return 0;
    const rows = claimed.filter((r) => !this.heldIds.has(r.id));
    const work = this.deliver(rows);
    await this.running.start(work, wait);
    return claimed.length;
  }

  background(): Promise<boolean> {
    return this.running.settle();
  }

  /** At stop: once the attempts in flight are recorded, the endpoints this instance paced are handed back. */
  async settle(): Promise<void> {
    this.stopping = true;
    await this.running.settle();
    await this.leases.release().catch((error: unknown) => {
      // they lapse on their own within 30 s
      this.log.warn({ err: error }, 'webhook pacing leases not handed back');
    });
  }

  /**
   * A new delivery sent now by the caller, one after another (a recovery keeps its order):
   * inserted already claimed by this instance, then sent and recorded like a batch of one.
   */
  async sendNew(row: ClaimedDelivery & { recovered: boolean; recovery_id: string | null }): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db
      .insertInto('webhook_deliveries')
      .values({
        ...row,
        test_fire: false,
        status: 'pending',
        created_at: now,
        updated_at: now,
        next_attempt_at: new Date(now.getTime() + LEASE_MS),
        claimed_by: this.instance,
      })
      .execute();
    await this.deliver([row]);
  }

  /**
   * Room for up to `n` new deliveries the fan-out makes, held from now on (their leases
   * renewed as claims' are): it inserts that many claimed by this instance and hands them
   * over with `handOver`, which gives back what it did not use.
   */
  reserve(n: number): number {
    if (this.stopping) return 0;
    const granted = Math.min(n, Math.max(0, MAX_HANDED - this.held.handed));
    if (granted > 0) this.hold('handed', granted);
    return granted;
  }

  /** New deliveries inserted claimed by this instance (`reserve`): sent like a claimed batch. */
  async handOver(rows: ClaimedDelivery[], reserved: number, wait: boolean): Promise<void> {
    // a fan-out that reserved before the stop began: its rows stay claimed until their
    // lease runs out, and are sent by whichever instance claims them then
    if (this.stopping) return this.release('handed', reserved);
    this.release('handed', reserved - rows.length);
    if (rows.length > 0) await this.running.start(this.deliver(rows, 'handed'), wait);
  }

  /** Claims up to `limit` due deliveries, oldest due first. */
  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.deps.clock.now();
    const { rows } = await sql<ClaimedDelivery>`
      update webhook_deliveries d set next_attempt_at = ${new Date(now.getTime() + LEASE_MS)}, claimed_by = ${this.instance}
      from (
        select w.id from webhook_deliveries w where w.next_attempt_at <= ${now}
          -- a rate-limited endpoint another instance sends to waits for that instance
          and not exists (
            select 1 from webhook_pacing_leases l
            where l.endpoint_id = w.endpoint_id and l.instance <> ${this.instance} and l.until > now())
        -- among those due at once, in the order they were made (ids are monotonic)
        order by w.next_attempt_at, w.id limit ${limit}
        for update of w skip locked
      ) due
      where d.id = due.id
      returning d.id, d.event_id, d.event_type, d.supplier_id, d.endpoint_id, d.body, d.attempts, d.traceparent`.execute(
      this.deps.db,
    );
    return rows;
  }

  /** Sends claimed deliveries side by side; resolves once every outcome is recorded. */
  private async deliver(rows: ClaimedDelivery[], came: 'claimed' | 'handed' = 'claimed'): Promise<void> {
    // handed-over deliveries are held from their reservation on
    if (came === 'claimed') this.hold(came, rows.length);
    for (const row of rows) this.heldIds.add(row.id);
    try {
      const endpoints = new Map<string, Promise<WebhookEndpointState | undefined>>();
      const endpointOf = (id: string) => {
        let endpoint = endpoints.get(id);
        if (!endpoint) {
          endpoint = load(this.deps.store, webhookStream(id), webhookEndpointDecider, this.deps.states).then(
            (l) => l.state ?? undefined,
          );
          endpoints.set(id, endpoint);
        }
        return endpoint;
      };
      await Promise.all(
        rows.map(async (row) => {
          // a delivery, first attempt or retry, is a step of its event's trace (tracing on)
          const attempt = () => this.attempt(row, endpointOf);
          const traced = row.traceparent
            ? inSpan(
                'webhook.deliver',
                [{ traceparent: row.traceparent }],
                { 'svc.webhook_id': row.endpoint_id, 'svc.event_type': row.event_type },
                attempt,
              )
            : attempt();
          const outcome = await traced.catch((error: unknown) => {
            // the attempt could not even start: nothing was sent; the delivery is due again later
            this.log.error({ err: error, deliveryId: row.id }, 'webhook attempt failed to start; retrying later');
            return this.later(row, UNEXPECTED_RETRY_MS);
          });
          await this.record(outcome);
          this.heldIds.delete(row.id);
        }),
      );
    } finally {
      for (const row of rows) this.heldIds.delete(row.id);
      this.release(came, rows.length);
    }
  }

  /** One delivery's attempt through its endpoint's rate limit and slots, or why none was made. */
  private async attempt(
    row: ClaimedDelivery,
    endpointOf: (id: string) => Promise<WebhookEndpointState | undefined>,
  ): Promise<DeliveryOutcome> {
    const endpoint = await endpointOf(row.endpoint_id);
    if (!sendable(endpoint)) return skipped(row);
    // another instance sends to this endpoint (this one made the delivery, or claimed it
    // just before the lease was taken): due again at once, for that instance's next claim
    if (endpoint.settings.rateLimit && !(await this.leases.take(endpoint.id))) return this.later(row, 0);
    const attempt = row.attempts + 1;
    const paced = await this.pacer.run(endpoint.id, endpoint.settings.rateLimit, async () => {
      // asked again after the turn in the pacer, right before the request: the lease still
      // outlasts it (webhook-pacing-leases.ts), or another instance took over meanwhile
      if (endpoint.settings.rateLimit && !(await this.leases.take(endpoint.id))) return undefined;
      return this.slots.run(endpoint.id, async () => {
        // the endpoint as it is now, after this attempt's wait for a slot: one disabled
        // meanwhile (a 410, the 30th failure among the attempts before) gets no more
        const current = (
          await load(this.deps.store, webhookStream(endpoint.id), webhookEndpointDecider, this.deps.states)
        ).state;
        if (!sendable(current) || this.answeredGone.has(current)) return GONE;
        const sent = await attemptDelivery(
          this.deps,
          current,
          {
            id: row.id,
            eventId: row.event_id,
            eventType: row.event_type,
            body: row.body,
            supplierId: row.supplier_id,
          },
          attempt,
        );
        // a 410 disables the endpoint once its outcome is written: the attempts queued
        // behind it need not wait for that write to stop
        if (sent.responseStatus === 410) this.answeredGone.add(current);
        return sent;
      });
    });
    if ('deferMs' in paced) return this.later(row, paced.deferMs);
    if (!paced.ran) return this.later(row, 0);
    if (paced.ran === GONE) return skipped(row);
    const sent = paced.ran;
    // the ladder has no rung past the last attempt (MAX_ATTEMPTS): a failure there is final
    const retryIn = sent.succeeded ? undefined : WEBHOOK_RETRY_LADDER_MS[attempt];
    return {
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      status: sent.succeeded ? 'succeeded' : retryIn === undefined ? 'abandoned' : 'pending',
      attempts: attempt,
      nextAttemptAt: retryIn === undefined ? null : new Date(this.deps.clock.now().getTime() + retryIn),
      sent,
    };
  }

  /** No attempt now: due again in `ms`. */
  private later(row: ClaimedDelivery, ms: number): DeliveryOutcome {
    return {
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      status: 'pending',
      attempts: null,
      nextAttemptAt: new Date(this.deps.clock.now().getTime() + ms),
    };
  }

  /** Resolves once the outcome is written (or its write failed: the lease then runs out and it is sent again). */
  private record(outcome: DeliveryOutcome): Promise<void> {
    return new Promise((recorded) => {
      this.waiting.push({ outcome, recorded });
      // the outcomes that finish while one statement runs are written by the next one
      this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        await this.write(group.map((w) => w.outcome));
      } catch (error) {
        this.log.error(
          { err: error, deliveries: group.length },
          'webhook outcomes not recorded; their leases will run out and they are sent again',
        );
      } finally {
        for (const w of group) w.recorded();
      }
    }
    this.flushing = undefined;
  }

  /** One statement for the group, then the auto-disables its attempts call for (rare: an event append each). */
  private async write(outcomes: DeliveryOutcome[]): Promise<void> {
    const counts = await writeOutcomes(this.deps.db, outcomes, this.instance, this.deps.clock.now());
    const sent = outcomes.flatMap((o) => (o.sent ? [{ ...o, sent: o.sent }] : []));
    for (const endpointId of new Set(sent.map((o) => o.endpointId))) {
      const failures = counts.get(endpointId) ?? 0;
      const mine = sent.filter((o) => o.endpointId === endpointId);
      const gone = mine.find((o) => o.sent.responseStatus === 410);
      const failed = mine.findLast((o) => !o.sent.succeeded);
      const cause = gone ?? (failed && failures >= DISABLE_AFTER_FAILURES ? failed : undefined);
      if (!cause) continue;
      await disableEndpoint(this.deps, endpointId, gone ? 'gone' : 'consecutive_failures', failures, {
        correlationId: `webhook.deliver:${cause.deliveryId}:${cause.sent.attempt}`,
      });
    }
  }

  /** Deliveries held: their leases are renewed while any are. */
  private hold(came: 'claimed' | 'handed', n: number): void {
    this.held[came] += n;
    this.renewal ??= setInterval(() => void this.renew(), RENEW_MS);
  }

  private release(came: 'claimed' | 'handed', n: number): void {
    if (n === 0) return;
    this.held[came] -= n;
    if (this.held.claimed + this.held.handed > 0 || !this.renewal) return;
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  /**
   * Moves the lease of every delivery held now; one being recorded right now is skipped (it
   * ends anyway). Rows still claimed by this instance and no longer held (their outcome's
   * write failed) are left to run out, so they are sent again.
   */
  private async renew(): Promise<void> {
    if (this.heldIds.size === 0) return;
    try {
      await sql`
        update webhook_deliveries d set next_attempt_at = ${new Date(this.deps.clock.now().getTime() + LEASE_MS)}
        from (
          select id from webhook_deliveries
          where id = any(${[...this.heldIds]}::text[]) and next_attempt_at is not null and claimed_by = ${this.instance}
          for update skip locked
        ) held
        where d.id = held.id`.execute(this.deps.db);
    } catch (error) {
      this.log.warn({ err: error }, 'webhook claims not renewed');
    }
  }
}
