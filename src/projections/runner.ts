import { faultPoint } from '../faults.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import {
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
  type Subscription,
} from '../eventstore/port.js';
import { isDatabaseUnavailable } from '../db/faults.js';
import { reconnectPause } from '../eventstore/wakeup.js';
import { lockProjector, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { applyEvent, type Projector } from './projector.js';
import { createTables, rebuildProjector } from './rebuild.js';

interface Waiter {
  target: Position;
  resolve: () => void;
}

/**
 * Runs every projector (read models and the event side of process managers) on its own
 * catch-up subscription. Each batch is applied and the checkpoint advanced in one
 * transaction, so a crash never applies an event twice nor loses one.
 */
export class ProjectionRunner {
  private readonly positions = new Map<string, Position>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly failures = new Map<string, unknown>();
  private waiters: Waiter[] = [];
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    readonly projectors: Projector[],
    private readonly now: () => Date,
    private readonly log: Logger,
  ) {}

  /** Prepares tables and checkpoints (rebuilding a projector whose version changed), then subscribes. */
  async start(): Promise<void> {
    for (const p of this.projectors) {
      const checkpoint = await this.prepare(p);
      this.positions.set(p.name, checkpoint);
      this.follow(p, checkpoint, 0);
    }
  }

  /**
   * Subscribes one projector from `from`. A failing batch (a bug, the database gone) stops
   * that subscription; it is retried from the last checkpoint with a growing pause, so a
   * passing fault heals by itself and a real bug keeps the service not ready, and logged.
   */
  private follow(p: Projector, from: Position, failures: number): void {
    if (this.stopped) return;
    const subscription = this.store.subscribe({
      from,
      onEvents: async (events) => {
        await this.applyBatch(p, events);
        failures = 0;
        this.failures.delete(p.name);
      },
      onError: (error) => {
        this.failures.set(p.name, error);
        // the database going away is an outage to wait out, not a bug in the projector
        if (isDatabaseUnavailable(error))
          this.log.warn(
            { projector: p.name, err: { message: (error as Error).message } },
            'projector lost the database; resuming from its checkpoint',
          );
        else this.log.error({ err: error, projector: p.name }, 'projector failed; retrying from its checkpoint');
        // short pauses first (a dropped session comes back at once), at most 5 s: the read
        // models lag no longer than needed after an outage; a real bug logs every 5 s
        const pause = reconnectPause(failures);
        const retry = setTimeout(
          () =>
            void (async () => {
              this.subscriptions.delete(subscription);
              const checkpoint =
                (await readCheckpoint(this.db, p.name).catch(() => undefined))?.position ??
                this.positions.get(p.name) ??
                START;
              this.follow(p, checkpoint, failures + 1);
            })(),
          pause,
        );
        this.retries.add(retry);
      },
    });
    this.subscriptions.add(subscription);
  }

  private async prepare(p: Projector): Promise<Position> {
    const checkpoint = await readCheckpoint(this.db, p.name);
    if (!checkpoint) {
      await this.db.transaction().execute(async (trx) => {
        await lockProjector(trx, p.name);
        if (await readCheckpoint(trx, p.name)) return; // another instance was first
        await createTables(trx, p, 'public');
        // a process manager added to a running system starts at the head: replaying the
        // past would repeat effects that never belonged to it
        const from = p.rebuildable ? START : await this.store.head();
        await writeCheckpoint(trx, p.name, from, p.version, this.now());
      });
      return (await readCheckpoint(this.db, p.name))!.position;
    }
    if (checkpoint.version !== p.version && p.rebuildable) {
      this.log.info(
        { projector: p.name, from: checkpoint.version, to: p.version },
        'projection version changed: rebuilding',
      );
      return rebuildProjector(this.db, this.store, p, this.now);
    }
    return checkpoint.position;
  }

  private async applyBatch(p: Projector, events: RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1]!.position;
    await this.db.transaction().execute(async (trx) => {
      await lockProjector(trx, p.name);
      // another instance (or a rebuild's swap) may have gone further meanwhile
      const current = (await readCheckpoint(trx, p.name))?.position ?? START;
      const fresh = events.filter((e) => comparePositions(e.position, current) > 0);
      if (fresh.length === 0) return;
      for (const e of fresh) await applyEvent(p, trx, e);
      faultPoint('projector-batch');
      await writeCheckpoint(trx, p.name, last, p.version, this.now());
    });
    this.positions.set(p.name, last);
    this.settleWaiters();
  }

  private lowest(): Position {
    let low: Position | undefined;
    for (const pos of this.positions.values()) if (!low || comparePositions(pos, low) < 0) low = pos;
    return low ?? START;
  }

  private settleWaiters() {
    const low = this.lowest();
    this.waiters = this.waiters.filter((w) => {
      if (comparePositions(low, w.target) >= 0) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /**
   * Resolves once every projector has applied `target`, or after `timeoutMs` (a write's
   * answer never hangs on a slow read model; the caller's next read may then lag a little).
   */
  waitFor(target: Position, timeoutMs = 5000): Promise<boolean> {
    if (comparePositions(this.lowest(), target) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        target,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Has every projector applied everything a reader can see now? */
  async caughtUp(): Promise<boolean> {
    if (this.failures.size > 0) return false;
    return comparePositions(this.lowest(), await this.store.head()) >= 0;
  }

  position(name: string): Position | undefined {
    return this.positions.get(name);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retries.forEach(clearTimeout);
    const open = [...this.subscriptions];
    this.subscriptions.clear();
    await Promise.all(open.map((s) => s.close()));
    this.waiters.forEach((w) => w.resolve());
    this.waiters = [];
  }
}
