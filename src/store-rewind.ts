import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { StreamStates } from './commands/handle.js';
import { isDatabaseUnavailable } from './db/faults.js';
import type { Database } from './db/schema.js';
import type { Rewind } from './eventstore/rewind.js';
import type { RewindWatch } from './eventstore/rewind-watch.js';
import { reconnectPause } from './eventstore/wakeup.js';
import { reopenAnsweredKeys } from './http/idempotency.js';
import type { ReplicaReads } from './http/replica-reads.js';
import type { Metrics } from './metrics.js';
import type { ReadFence } from './projections/read-fence.js';
import type { ProjectionRunner } from './projections/runner.js';

/**
 * Stored answers of keys taken this long before the store was last found whole are opened
 * again too: a request that took its key earlier may have answered after the rewind (no
 * handler waits longer than a connection may stay silent, 2 minutes).
 */
const REOPEN_MARGIN_MS = 120_000;

export interface RewindRecoveryDeps {
  watch: RewindWatch;
  projections: ProjectionRunner;
  states: StreamStates;
  fence: ReadFence;
  replicaReads?: ReplicaReads;
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  /** When the instance started (its clock): what "found whole" means before the first probe. */
  startedAt: Date;
}

/**
 * What an instance does once it finds its event store went back in time (src/eventstore/
 * rewind.ts): it says so (`/readyz` answers 503 `store_rewound`, writes 503 with
 * Retry-After, an error is logged and `svc_store_rewinds_total` counts it), then drops what
 * it held of the lost history and starts over from what the store holds:
 *
 * 1. the projection feed and its catch-ups stop (`halt`): no batch writes a checkpoint of
 *    the lost history;
 * 2. cached aggregate states, the read fence's and the replica reads' positions are
 *    forgotten, and so is the highest event the watch saw;
 * 3. the answers stored for Idempotency-Keys taken since the store was last found whole
 *    are opened again (`reopenAnsweredKeys`): they may name effects the store lost;
 * 4. every read model is rebuilt from the events the store has (unless another instance
 *    rebuilt it after the rewind), every process manager goes on from its checkpoint, and
 *    the feed opens again (`resume`);
 * 5. writes are taken again and the watch probes again.
 *
 * A step that meets the database away waits and tries again; the instance stays
 * `store_rewound` until every step is done.
 */
export class RewindRecovery {
  private recovering: Promise<void> | undefined;
  private stopping = false;
  private count = 0;

  constructor(private readonly deps: RewindRecoveryDeps) {}

  /** True from a rewind found until the instance has started over from what the store holds. */
  get active(): boolean {
    return this.recovering !== undefined;
  }

  /** How many rewinds this instance has found since it started. */
  get found(): number {
    return this.count;
  }

  /** A rewind found (by the watch's probe or by a projection batch's check); one recovery at a time. */
  noticed(rewind: Rewind): void {
    if (this.recovering || this.stopping) return;
    const { log, metrics } = this.deps;
    this.count++;
    metrics.storeRewinds.inc({ cause: rewind.cause });
    log.error(
      { rewind },
      'the event store went back in time: it no longer holds what this instance saw; refusing writes, dropping what it held and rebuilding the read models from the store',
    );
    this.recovering = this.recover().finally(() => {
      this.recovering = undefined;
    });
  }

  /** Settles once the recovery under way, if any, is done. */
  async settled(): Promise<void> {
    await this.recovering;
  }

  /** Ends a recovery that waits for the database (the instance is stopping); one that rebuilds finishes first. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.recovering;
  }

  private async recover(): Promise<void> {
    const { watch, projections, states, fence, replicaReads, db, clock, log } = this.deps;
    watch.pause();
    const verifiedAt = watch.verifiedAt;
    const since = new Date((verifiedAt ?? this.deps.startedAt).getTime() - REOPEN_MARGIN_MS);
    const started = performance.now();
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        await projections.halt();
        states.clear();
        fence.forget();
        replicaReads?.forget();
        watch.forget();
        const reopened = await reopenAnsweredKeys(db, since, clock.now());
        await projections.resume(verifiedAt);
        log.warn(
          { reopened_keys: reopened, ms: Math.round(performance.now() - started) },
          'started over from what the event store holds: read models rebuilt, writes taken again',
        );
        break;
      } catch (error) {
        // the database away meanwhile waits; anything else is said, and tried again as well
        if (isDatabaseUnavailable(error))
          log.warn({ err: { message: (error as Error).message } }, 'recovering from the rewind: the database is away');
        else log.error({ err: error }, 'recovering from the rewind failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, reconnectPause(attempt)));
      }
    }
    watch.resume();
  }
}
