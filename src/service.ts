import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { type Clock, OffsetClock, systemClock } from './clock.js';
import { addClockOffset, loadClockOffset } from './clock-offset.js';
import type { CommandDeps } from './commands/context.js';
import { sweepValueSets } from './commands/value-set-sweep.js';
import { adoptOlderData } from './commands/older-data.js';
import { StreamStates } from './commands/handle.js';
import { replicaLagSeconds } from './db/replica-lag.js';
import { type SupplierTimeouts, specTimeouts } from './outbound/supplier-timeouts.js';
import type { Config } from './config.js';
import { connect, type Db } from './db/connect.js';
import { migrate } from './db/migrations.js';
import { SecretBox } from './crypto/secret-box.js';
import { derivedLedgerSigningKey, ledgerKeys } from './crypto/ledger-signing.js';
import { LedgerBook, ledgerCheckedStore } from './projections/ledger-book.js';
import type { EventStore } from './eventstore/port.js';
import { connectEventStore } from './eventstore/select.js';
import { EventVersions, versionedStore } from './eventstore/upcast.js';
import { buildHttpApp } from './http/app.js';
import { limitTable, type LimitTable } from './http/limits.js';
import { marketsFor, routableOffers } from './resources/market.js';
import { rankOffers } from './domain/routing.js';
import { eventVersions } from './domain/upcasters.js';
import { RateLimiter } from './http/rate-limiter.js';
import type { Services } from './http/services.js';
import { allProjectors } from './projections/index.js';
import { ReadFence } from './projections/read-fence.js';
import { ReplicaReads } from './http/replica-reads.js';
import { ProjectionRunner } from './projections/runner.js';
import { Timers } from './processes/timers.js';
import { registerMaintenance } from './processes/maintenance.js';
import { nextMidnight, registerLedgerCheckpoints } from './processes/ledger-checkpoint.js';
import { processProjectors, registerProcessTimers } from './processes/index.js';
import { WebhookListeners } from './processes/webhook-listeners.js';
import { Metrics, measuredStore } from './metrics.js';
import { purgeIdempotencyKeys } from './http/idempotency.js';
import { purgeConsoleSessions } from './http/console/session.js';
import { RewindWatch } from './eventstore/rewind-watch.js';
import { watchConnectionLines } from './eventstore/postgres.js';
import { RewindRecovery } from './store-rewind.js';

export interface ServiceOptions {
  config: Config;
  databaseUrl: string;
  /** A read replica (HAProxy's replica port) for the GET routes' read models; absent, the primary. */
  readDatabaseUrl?: string;
  operatorToken: string;
  secretKey: string;
  /**
   * The ledger's signing key (`serve` passes SVC_LEDGER_SIGNING_KEY or the sandbox data dir's);
   * absent, the config's, and without that (tests, the simulation) one derived from `secretKey`.
   */
  ledgerSigningKey?: string;
  clock?: Clock & { advance?(seconds: number): Date };
  logger?: Logger;
  /** Poll for due timers in the background (tests drain them by hand instead). */
  backgroundTimers?: boolean;
  limits?: Partial<LimitTable>;
  poolSize?: number;
  /** Lower timeouts toward suppliers (tests); the schedule itself stays the spec's. */
  supplierTimeouts?: Partial<SupplierTimeouts>;
  /** PEM of an extra certificate authority trusted for outbound HTTPS (tests). */
  trustedCa?: string;
  /** The event store, already connected; by default the one the config names. Closed by stop(). */
  store?: EventStore;
}

export interface RunningService {
  services: Services;
  app: FastifyInstance;
  /** Waits until read models and processes caught up and no timer is due, repeatedly. */
  drain(): Promise<void>;
  listen(): Promise<string>;
  /**
   * The first step of a graceful stop: /readyz answers 503 while requests are still served,
   * so a proxy that checks it stops sending before `stop` drains.
   */
  stopping(): void;
  stop(): Promise<void>;
  /** Watches the event store for a rewind (src/eventstore/rewind-watch.ts); `probe()` reads it at once. */
  rewindWatch: RewindWatch;
}

export const createLogger = (level: string): Logger =>
  pino({
    level,
    // belt and braces: no code path logs these, and if one ever did they would not leave
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.token',
        '*.secret',
        '*.password',
        '*.value',
        '*.content_base64',
      ],
      censor: '[redacted]',
    },
  });

/** Builds and starts one instance: database schema, projections, timers, HTTP app. */
// eslint-disable-next-line max-lines-per-function -- the composition root: each line wires one part
export const startService = async (options: ServiceOptions): Promise<RunningService> => {
  const { config } = options;
  const log = options.logger ?? createLogger(config.logLevel);
  const db: Db = connect(options.databaseUrl, options.poolSize ?? 20, options.readDatabaseUrl);
  const metrics = new Metrics({ process: true });
  metrics.watchPool('primary', db.pool);
  const { replicaPool } = db;
  const replicaUrl = options.readDatabaseUrl;
  if (replicaPool && replicaUrl) {
    metrics.watchPool('replica', replicaPool);
    metrics.watchReplica(() => replicaLagSeconds(db.pool, replicaUrl));
  }
  let store: EventStore;
  /** The store below the ledger's check (upcast and measured): what the upgrade reads. */
  let stored: EventStore;
  let ledger: LedgerBook;
  // the test clock continues from its stored offset (read once the schema exists)
  let clock: Clock;
  // notices a store that went back in time under this instance (src/eventstore/rewind.ts):
  // it sees every event the instance reads or writes, and the recovery below acts on a rewind
  const watch = new RewindWatch(
    // the store below, once connected (the watch reads it once started)
    (witness) => store.history(witness),
    () => clock.now(),
    (rewind) => recovery.noticed(rewind),
    log,
  );
  try {
    // read models, timers, idempotency keys and rate limits live in Postgres whatever the event store
    await migrate(db.kysely);
    // every reader gets events in their type's current shape (upcast on read); a gap in the
    // table stops the start before an event store is connected
    const versions = new EventVersions(eventVersions);
    stored = measuredStore(
      versionedStore(watch.watching(options.store ?? (await connectEventStore(config, () => db.pool, log))), versions),
      metrics,
    );
    // every balance event read is checked against the ledger's keys: the refused ones count nowhere
    const keys = ledgerKeys(
      options.ledgerSigningKey ?? config.ledgerSigningKey ?? derivedLedgerSigningKey(options.secretKey),
      config.ledgerRetiredKeys,
    );
    ledger = new LedgerBook(stored, keys, { metrics, log });
    store = ledgerCheckedStore(stored, ledger);
    clock = options.clock ?? (config.testClock ? new OffsetClock(await loadClockOffset(db.kysely)) : systemClock);
  } catch (error) {
    await db.close();
    throw error;
  }
  const listeners = new WebhookListeners();
  const eventsHere = config.eventStore === 'postgres' && !options.store;
  const projections = new ProjectionRunner(
    db.kysely,
    store,
    [...allProjectors, ...processProjectors(listeners)],
    () => clock.now(),
    log,
    config.readModelWaitMs,
    // with the events in this database, each batch checks that those it follows are still there
    eventsHere,
  );
  projections.observe((events) => listeners.observe(events));
  const timers = new Timers(db.kysely, clock, log);
  // the process managers write their timers with their checkpoints: the loop looks at once
  // when one is due already (a watchdog due later is found by the loop's next poll, 250 ms)
  projections.onApplied((due) => {
    if (due && due.getTime() <= clock.now().getTime()) timers.wake();
  });
  const rateLimiter = new RateLimiter(db.kysely, clock, { log });
  const secretBox = new SecretBox(options.secretKey);
  const ledgerKey = ledger.keys.current!;
  // cached aggregate states stay current through the one subscription: it evicts a state
  // another instance moved on, so commands and reads skip reading a cached stream's tail
  const states = new StreamStates({ maxBytes: config.stateCacheBytes });
  metrics.watchStateCache(() => states.size);
  projections.observe((events) => states.observe(events));
  states.watchedBy(() => projections.feeding);
  const commands: CommandDeps = {
    store,
    clock,
    env: config.env,
    projections,
    states,
    db: db.kysely,
    secretBox,
    secretKey: options.secretKey,
    ledger,
    metrics,
    targets: { allowPrivate: config.allowPrivateTargets, ...(options.trustedCa && { ca: options.trustedCa }) },
    timeouts: { ...specTimeouts, ...options.supplierTimeouts },
  };
  let ready = false;
  /** Set by `stopping()`: /readyz answers 503 from then on. */
  let stopping = false;

  // everything committed, not only what is readable now: on a shared server a transaction
  // running elsewhere can hold the readable head back for seconds
  const drain = async () => {
    for (let round = 0; round < 1000; round++) {
      const head = await store.lastCommitted();
      if (!(await projections.waitFor(head, 30_000, 'all')))
        throw new Error('drain: the projections did not apply the committed events within 30 s');
      const ran = await timers.runDue();
      // what the background loop claimed before this drain looked is part of it too
      const busy = await timers.background();
      const after = await store.lastCommitted();
      if (ran === 0 && !busy && after.commit === head.commit && after.prepare === head.prepare) return;
    }
    throw new Error('drain did not settle after 1000 rounds');
  };

  const advance =
    options.clock?.advance?.bind(options.clock) ??
    (clock instanceof OffsetClock
      ? async (seconds: number) => {
          clock.setOffset(await addClockOffset(db.kysely, Math.round(seconds * 1000)));
          return clock.now();
        }
      : undefined);
  // requests answer a write once its events are stored; their reads wait for the instance's
  // answered writes instead (src/projections/read-fence.ts)
  const fence = new ReadFence(projections, config.readModelWaitMs);
  const readDb = db.gated(() => fence.wait());
  const replicaReads = options.readDatabaseUrl
    ? new ReplicaReads(
        projections,
        async () => {
          const { rows } = await sql<{ lsn: string }>`select pg_current_wal_flush_lsn()::text as lsn`.execute(
            db.kysely,
          );
          return rows[0]!.lsn;
        },
        db.primary,
      )
    : undefined;
  const services: Services = {
    config,
    clock,
    db: readDb,
    plainDb: db.kysely,
    store,
    projections,
    timers,
    commands: { ...commands, db: readDb, projections: fence.passingRunner() },
    operatorCommands: { ...commands, db: readDb },
    readsApplied: async () => void (await fence.wait()),
    ...(replicaReads && { replicaReads }),
    rateLimiter,
    limits: limitTable(options.limits),
    operatorToken: options.operatorToken,
    secretBox,
    ledgerKey,
    ledger,
    log,
    metrics,
    market: (ids, supplierId) => marketsFor(readDb, ids, supplierId, clock.now()),
    isReady: () => ready,
    isRewound: () => recovery.active,
    rewinds: () => recovery.found,
    isStopping: () => stopping,
    ...(advance &&
      config.testClock && {
        advanceClock: async (seconds: number) => {
          const now = await advance(seconds);
          await drain();
          return now;
        },
      }),
  };

  registerMaintenance(timers, {
    clock,
    purges: [
      (now) => purgeIdempotencyKeys(db.kysely, now),
      (now) => rateLimiter.purge(now),
      (now) => sweepValueSets(commands, now, log),
      (now) => purgeConsoleSessions(db.kysely, now),
    ],
  });
  // the routing module's ranking over the offers read model, for checkout and rerouting
  const rank = async (productId: string) =>
    rankOffers((await routableOffers(db.kysely, [productId])).get(productId) ?? [], clock.now()).map((o) => o.offerId);
  registerProcessTimers(timers, commands, rank, projections);
  registerLedgerCheckpoints(timers, commands, ledgerKey);
  // what older releases wrote is brought forward before the read models read it
  await adoptOlderData(commands, stored, log);
  const recovery = new RewindRecovery({
    watch,
    projections,
    states,
    fence,
    ...(replicaReads && { replicaReads }),
    db: db.kysely,
    clock,
    log,
    metrics,
    startedAt: clock.now(),
  });
  projections.onRewind((rewind) => recovery.noticed(rewind));
  await projections.start();
  // probed every few seconds, and at once when a connection opens again (a failover, a
  // restore); with the events in this database, each new connection's line is read first
  watch.start();
  db.pool.on('connect', () => watch.nudge());
  if (eventsHere) watchConnectionLines(db.pool, (line) => watch.lineSeen(line));
  await timers.schedule('maintenance.purge', 'all', clock.now(), {});
  await timers.schedule('webhook.purge', 'all', clock.now(), {});
  await timers.schedule('ledger.checkpoint', 'daily', nextMidnight(clock.now()), {});
  if (options.backgroundTimers ?? true) timers.start();
  const app = await buildHttpApp(services, log);

  // ready once the read models caught up with what was there at start
  void projections.waitFor(await store.head(), 10 * 60_000).then((ok) => {
    ready = ok;
  });

  rateLimiter.start(); // shares the counts with the other instances, off the requests' path
  let stopped = false;
  return {
    services,
    app,
    drain,
    rewindWatch: watch,
    listen: async () => {
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    },
    stopping: () => {
      stopping = true;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      watch.stop();
      await app.close(); // in-flight requests finish first
      await recovery.stop();
      await rateLimiter.stop(); // their hits still reach the shared counts
      await timers.stop();
      await projections.stop();
      await store.close();
      await db.close();
    },
  };
};
