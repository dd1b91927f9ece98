import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from './clock.js';
import type { Database } from './db/schema.js';
import { changedWrites, overriding } from './eventstore/overriding.js';
import { type EventStore, type Position, WrongExpectedRevision } from './eventstore/port.js';

/**
 * Every metric the service exposes, on a registry of its own per service instance (tests
 * start several services in one process; prom-client's global registry would mix them).
 * Counters and histograms are fed by one-line hooks where the work happens; the gauges that
 * describe state (projection lag, timers, orders) are read when scraped, from the same
 * tables and runner the service uses, so they are never stale and cost nothing between scrapes.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly processRegistry: Registry | undefined;

  /**
   * `process`: the process's own families too (prom-client's defaults: CPU, resident memory,
   * open files, heap, GC, event-loop lag with its percentiles), collected once per process
   * however many instances it runs (tests start many), and rendered after the instance's own.
   */
  constructor(options: { process?: boolean } = {}) {
    this.processRegistry = options.process ? processRegistry() : undefined;
  }

  readonly httpRequests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'svc_http_rate_limited_total',
    help: 'Requests refused with 429 rate_limited, by route template and rate-limit class',
    labelNames: ['route', 'class'] as const,
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'svc_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookDuration = new Histogram({
    name: 'svc_webhook_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly keyCollisions = new Counter({
    name: 'svc_key_collisions_total',
    help: "Keys uploaded that another supplier's item holds, by what followed (held_both, other_not_for_sale, other_gone)",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly supplierCalls = new Counter({
    name: 'svc_supplier_calls_total',
    help: "Calls to suppliers' systems, by kind and outcome",
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly supplierDuration = new Histogram({
    name: 'svc_supplier_call_duration_seconds',
    help: "Duration of calls to suppliers' systems, by kind and outcome",
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly appendDuration = new Histogram({
    name: 'svc_eventstore_append_duration_seconds',
    help: 'Event store appends, by result (ok, conflict, error)',
    labelNames: ['result'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly ledgerEntriesRefused = new Counter({
    name: 'svc_ledger_entries_refused_total',
    help: 'Ledger entries read whose signature failed (forged, changed, or after one that was): kept out of every balance, statement and payout; each counted once per instance',
    registers: [this.registry],
  });
  readonly ledgerSignaturesVerified = new Counter({
    name: 'svc_ledger_signatures_verified_total',
    help: 'Ledger entry signatures checked with Ed25519 (those this instance signed or checked lately cost a comparison instead, those another instance sealed an HMAC)',
    registers: [this.registry],
  });
  readonly ledgerSealsAccepted = new Counter({
    name: 'svc_ledger_seals_accepted_total',
    help: 'Ledger entry signatures taken as verified by the seal another instance of the service made with the signing key (an HMAC instead of an Ed25519 verification)',
    registers: [this.registry],
  });
  readonly storeRewinds = new Counter({
    name: 'svc_store_rewinds_total',
    help: 'Times the event store was found holding less than this instance had seen (a failover that lost commits, a restore), by cause',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  private readonly projectionLag = new Gauge({
    name: 'svc_projection_lag_events',
    help: `Events in the store this instance's projector has not applied yet (counted up to ${LAG_CAP})`,
    labelNames: ['projector'] as const,
    registers: [this.registry],
  });
  private readonly projectionLagSeconds = new Gauge({
    name: 'svc_projection_lag_seconds',
    help: "Age of the oldest event in the store this instance's projector has not applied yet (0 when none)",
    labelNames: ['projector'] as const,
    registers: [this.registry],
  });
  private readonly poolConnections = new Gauge({
    name: 'svc_db_pool_connections',
    help: 'Connections of a database pool of this instance, by pool (primary, replica) and state (in_use, idle)',
    labelNames: ['pool', 'state'] as const,
    registers: [this.registry],
  });
  private readonly poolWaiting = new Gauge({
    name: 'svc_db_pool_waiting',
    help: 'Queries of this instance waiting for a connection of a database pool, by pool',
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private readonly pools = new Map<string, PoolCounts>();
  private readonly stateCacheBytes = new Gauge({
    name: 'svc_state_cache_bytes',
    help: "Heap the command side's cache of folded aggregate states is reckoned to hold, and its budget (SVC_STATE_CACHE_MB), by kind (held, budget)",
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly stateCacheStreams = new Gauge({
    name: 'svc_state_cache_streams',
    help: "Streams whose folded state the command side's cache holds",
    registers: [this.registry],
  });
  private readonly replicaLag = new Gauge({
    name: 'svc_db_replica_lag_seconds',
    help: "How far this instance's read replica (DATABASE_READ_URL) is behind the primary, by pool (replica): 0 once it replayed all the primary had written when scraped; absent without a replica or while it does not answer",
    // labelled, so that without a value there is no series at all (an unlabelled gauge shows 0)
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private replica: (() => Promise<number>) | undefined;
  private stateCache: () => StateCacheSize = () => ({ streams: 0, bytes: 0, maxBytes: 0 });
  private readonly ready = new Gauge({
    name: 'svc_ready',
    help: 'Whether this instance answers /readyz with 200 (1) or not (0: starting, stopping, its store away)',
    registers: [this.registry],
  });
  private readonly timersNextDue = new Gauge({
    name: 'svc_timers_next_due_timestamp_seconds',
    help: 'When the earliest timer of a kind is due (Unix seconds): a daily one far in the past did not run',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly timersDue = new Gauge({
    name: 'svc_timers_due',
    help: 'Timers whose time has come and that no instance holds, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly timersRunning = new Gauge({
    name: 'svc_timers_running',
    help: 'Timers claimed by an instance whose lease still holds, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly orders = new Gauge({
    name: 'svc_orders',
    help: 'Orders by state (final: completed, expired, cancelled, refunded, partially_refunded)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  /**
   * One supplier call's outcome: `ok` (2xx), `http_4xx`, `http_5xx`, or a failure reason
   * (`timeout`, `connection`, `target`, `too_large`: an answer past the call's limit, `malformed`).
   */
  supplierCall(kind: string, outcome: string, latencyMs: number): void {
    this.supplierCalls.inc({ kind, outcome });
    this.supplierDuration.observe({ kind, outcome }, latencyMs / 1000);
  }

  webhookAttempt(outcome: string, durationMs: number): void {
    this.webhookAttempts.inc({ outcome });
    this.webhookDuration.observe({ outcome }, durationMs / 1000);
  }

  /** A database pool whose connections are shown when scraped. */
  watchPool(name: string, pool: PoolCounts): void {
    this.pools.set(name, pool);
  }

  /** The read replica, whose lag behind the primary is read when scraped. */
  watchReplica(lag: () => Promise<number>): void {
    this.replica = lag;
  }

  /** The cache of folded states, whose size is shown when scraped. */
  watchStateCache(size: () => StateCacheSize): void {
    this.stateCache = size;
  }

  /** Reads the state gauges, then renders every metric in the Prometheus text format. */
  async render(source: ScrapeSource): Promise<string> {
    this.readPools();
    const cache = this.stateCache();
    this.stateCacheBytes.set({ kind: 'held' }, cache.bytes);
    this.stateCacheBytes.set({ kind: 'budget' }, cache.maxBytes);
    this.stateCacheStreams.set(cache.streams);
    this.ready.set(source.isReady() && !source.isRewound() ? 1 : 0);
    await Promise.all([this.readLag(source), this.readTimers(source), this.readOrders(source), this.readReplicaLag()]);
    const own = await this.registry.metrics();
    return this.processRegistry ? `${own}\n${await this.processRegistry.metrics()}` : own;
  }

  private readPools(): void {
    for (const [name, pool] of this.pools) {
      this.poolConnections.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.poolConnections.set({ pool: name, state: 'idle' }, pool.idleCount);
      this.poolWaiting.set({ pool: name }, pool.waitingCount);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async readLag({ store, projections, clock }: ScrapeSource): Promise<void> {
    this.projectionLag.reset();
    this.projectionLagSeconds.reset();
    for (const p of projections.projectors) {
      const at = projections.position(p.name);
      if (!at) continue;
      const behind = await store.readAll(at, LAG_CAP);
      this.projectionLag.set({ projector: p.name }, behind.length);
      const oldest = behind[0]?.createdAt.getTime();
      this.projectionLagSeconds.set(
        { projector: p.name },
        oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest) / 1000),
      );
    }
  }

  private async readReplicaLag(): Promise<void> {
    if (!this.replica) return;
    try {
      this.replicaLag.set({ pool: 'replica' }, await this.replica());
    } catch {
      // a replica that does not answer has no lag to show: the series goes, and reads go to the primary
      this.replicaLag.reset();
    }
  }

  private async readTimers({ db, clock }: ScrapeSource): Promise<void> {
    const now = clock.now();
    const rows = await db
      .selectFrom('timers')
      .select((eb) => [
        'kind',
        eb.fn
          .countAll<string>()
          .filterWhere('due_at', '<=', now)
          .filterWhere((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
          .as('due'),
        eb.fn.countAll<string>().filterWhere('claimed_until', '>', now).as('running'),
        eb.fn.min<Date>('due_at').as('next'),
      ])
      .groupBy('kind')
      .execute();
    // webhook deliveries are due from their own table (a claim's lease is its next_attempt_at):
    // shown as the kind their timers had
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere('next_attempt_at', '<=', now).as('due'),
        eb.fn
          .countAll<string>()
          .filterWhere('next_attempt_at', '>', now)
          .filterWhere('claimed_by', 'is not', null)
          .as('running'),
      ])
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirstOrThrow();
    this.timersNextDue.reset();
    for (const r of rows) this.timersNextDue.set({ kind: r.kind }, new Date(r.next).getTime() / 1000);
    this.timersDue.reset();
    this.timersRunning.reset();
    for (const r of [...rows, { kind: 'webhook.deliver', ...deliveries }]) {
      this.timersDue.set({ kind: r.kind }, Number(r.due));
      this.timersRunning.set({ kind: r.kind }, Number(r.running));
    }
  }

  private async readOrders({ db }: ScrapeSource): Promise<void> {
    const rows = await db
      .selectFrom('orders')
      .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute();
    this.orders.reset();
    for (const s of ORDER_STATES) this.orders.set({ state: s }, 0);
    for (const r of rows) this.orders.set({ state: r.status }, Number(r.n));
  }
}

let shared: Registry | undefined;

/** The process's families, collected from the first time an instance asks for them (an event-loop monitor and a GC observer run from then on). */
const processRegistry = (): Registry => {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared, eventLoopMonitoringPrecision: 10 });
  }
  return shared;
};

/** Lag is counted by reading the events after a projector's position, so it stops counting here. */
const LAG_CAP = 10_000;
const ORDER_STATES = ['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled'];

export interface StateCacheSize {
  streams: number;
  bytes: number;
  maxBytes: number;
}

/** What a pg pool says of its connections. */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface ScrapeSource {
  db: Kysely<Database>;
  isReady(): boolean;
  /** Starting over from a store that went back in time: `/readyz` answers 503 `store_rewound`. */
  isRewound(): boolean;
  clock: Clock;
  store: EventStore;
  /** The projection runner, as far as lag goes (metrics sit below the projections layer). */
  projections: { readonly projectors: readonly { name: string }[]; position(name: string): Position | undefined };
}

/** The outcome label of an HTTP answer from a supplier's system. */
export const httpOutcome = (status: number): string =>
  status >= 200 && status < 300 ? 'ok' : `http_${Math.floor(status / 100)}xx`;

/** The metric label of one call to a supplier: its spec name, never the URL (ids would explode the series). */
export const supplierCallKind = (method: string, path: string): string => {
  const p = path.split('?')[0]!;
  if (p === '/healthcheck') return 'healthcheck';
  if (p === '/reservations') return 'reservation';
  if (p.startsWith('/reservations/')) return 'reservation_release';
  if (p === '/orders') return 'order';
  if (/^\/orders\/[^/]+\/items$/.test(p)) return method === 'DELETE' ? 'order_cancel' : 'order_poll';
  if (p === '/topup/validate') return 'topup_validate';
  if (p === '/topup/execute') return 'topup_execute';
  if (p.startsWith('/topup/operations/')) return 'topup_status';
  return 'other';
};

/**
 * Wraps an event store so every append is timed (a wrapper, not an edit of the adapters, so
 * every adapter is measured the same way).
 */
export const measuredStore = (store: EventStore, metrics: Metrics): EventStore => {
  const timed = async <T>(write: () => Promise<T>): Promise<T> => {
    const end = metrics.appendDuration.startTimer();
    try {
      const result = await write();
      end({ result: 'ok' });
      return result;
    } catch (error) {
      end({ result: error instanceof WrongExpectedRevision ? 'conflict' : 'error' });
      throw error;
    }
  };
  return overriding(store, changedWrites(store, { around: timed }));
};

/**
 * The outcome label of an attempt that recorded an error text (outbound-call.ts's
 * callFailureText) or an HTTP status: `too_large` is an answer past the call's limit.
 */
export const attemptOutcome = (error: string | null | undefined, status: number): string =>
  !error
    ? httpOutcome(status)
    : error.startsWith('target')
      ? 'target'
      : error.startsWith('no answer')
        ? 'timeout'
        : error.startsWith('answer larger than')
          ? 'too_large'
          : 'connection';
