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
import { reconnectPause, retryPause } from '../eventstore/wakeup.js';
import { applyShares, type Share } from './apply-shares.js';
import { lockProjector, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { Gathering, type Projector } from './projector.js';
import { createTables, rebuildProjector } from './rebuild.js';

/** Which projectors a wait is for: the read models a caller reads next, or every consumer. */
export type WaitScope = 'read-models' | 'all';

interface Waiter {
  target: Position;
  scope: WaitScope;
  resolve: () => void;
}

interface Consumer {
  projector: Projector;
  /** Everything up to here is applied (in memory; the checkpoint row may trail it, see `deliver`). */
  position: Position;
  /** Fed by the shared subscription; false while it catches up on its own after a failure. */
  live: boolean;
  failures: number;
}

/** Events per read, of the feed and of a consumer catching up. */
const BATCH = 500;
const later = (a: Position, b: Position) => (comparePositions(a, b) >= 0 ? a : b);
const lowestOf = (consumers: Consumer[]): Position | undefined =>
  consumers.reduce<Position | undefined>(
    (low, c) => (low && comparePositions(low, c.position) <= 0 ? low : c.position),
    undefined,
  );

/**
 * Runs every projector (read models and the event side of process managers) from one
 * subscription per process: each event is read once and handed to every consumer. A batch
 * is applied, for all consumers with something to do, in one transaction with their
 * checkpoints, so a crash never applies an event twice nor loses one. A consumer that
 * fails leaves the shared feed, catches up on its own from its checkpoint (with growing
 * pauses), and joins again once it reached the feed: it never holds the others back.
 */
export class ProjectionRunner {
  private readonly consumers: Consumer[] = [];
  private feed: Subscription | undefined;
  /** The end of the last batch the feed handed out: a consumer at or past it may join again. */
  private feedCursor: Position = START;
  private feedRetry: NodeJS.Timeout | undefined;
  /** The feed has read up to the head since it opened (see `feeding`). */
  private feedCurrent = false;
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly failures = new Map<string, unknown>();
  private waiters: Waiter[] = [];
  private readonly observers: ((events: RecordedEvent[]) => void)[] = [];
  private readonly appliedListeners: ((earliestDue: Date | undefined) => void)[] = [];
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    readonly projectors: Projector[],
    private readonly now: () => Date,
    private readonly log: Logger,
    /** How long `waitFor` waits unless told (config.readModelWaitMs). */
    private readonly waitBoundMs = 30_000,
  ) {}

  /** Prepares tables and checkpoints (rebuilding a projector whose version changed), then subscribes once. */
  async start(): Promise<void> {
    for (const p of this.projectors)
      this.consumers.push({ projector: p, position: await this.prepare(p), live: true, failures: 0 });
    this.feedCursor = this.lowest('all');
    this.openFeed(0);
  }

  private openFeed(failures: number): void {
    if (this.stopped) return;
    this.feedCurrent = false;
    this.feed = this.store.subscribe({
      from: this.feedCursor,
      batchSize: BATCH,
      onEvents: async (events) => {
        this.feedCursor = events[events.length - 1]!.position;
        for (const observe of this.observers) observe(events);
        // a short batch is the store's head as of that read: the observers are current again
        this.feedCurrent = events.length < BATCH;
        await this.deliver(
          this.consumers.filter((c) => c.live),
          events,
        );
        failures = 0;
      },
      onError: (error) => {
        // only a read that is not a passing outage ends the feed; the consumers that had not
        // applied its last batch catch up on their own, and the feed opens again later on
        this.log.error({ err: error }, 'projection feed failed; opening it again');
        this.feed = undefined;
        for (const c of this.consumers)
          if (c.live && comparePositions(c.position, this.feedCursor) < 0) this.fail(c, error);
        this.feedRetry = setTimeout(() => this.openFeed(failures + 1), retryPause(failures));
      },
    });
  }

  /**
   * Hands one batch to `consumers`. Those with no handler for any of its events only move
   * their position in memory (their checkpoint rows follow with the next write, or at stop):
   * most batches concern a few projectors, and a transaction per idle one would be most of
   * the cost. The rest apply it together; if that fails, each tries alone, so a failing one
   * is found and set aside while the others go on.
   */
  private async deliver(consumers: Consumer[], events: RecordedEvent[]): Promise<void> {
    const end = events[events.length - 1]!.position;
    const shares = new Map<Consumer, Share>();
    for (const c of consumers) {
      const mine = events.filter(
        (e) => comparePositions(e.position, c.position) > 0 && c.projector.handlers[e.type] !== undefined,
      );
      if (mine.length > 0) shares.set(c, { projector: c.projector, events: mine });
    }
    if (shares.size > 0) {
      // the idle ones ride along: their checkpoints advance in the same statement
      const riders = consumers.filter((c) => !shares.has(c) && comparePositions(c.position, end) < 0);
      const together = [...shares.values(), ...riders.map((c) => ({ projector: c.projector, events: [] }))];
      const applied = await this.apply(together, end);
      if (!applied) {
        for (const [c, share] of shares) {
          const alone = await this.apply([share], end, c);
          if (alone) this.advance(c, alone.get(c.projector.name)!);
        }
        for (const c of riders) this.advance(c, end);
      } else for (const c of consumers) this.advance(c, applied.get(c.projector.name) ?? end);
    } else for (const c of consumers) this.advance(c, end);
    this.settleWaiters();
  }

  /**
   * One transaction for `shares`. While the database is away it waits and tries again (an
   * outage is not a projector's fault). Any other failure answers undefined, and sets
   * `alone` aside when it was the only one in it.
   */
  private async apply(shares: Share[], end: Position, alone?: Consumer): Promise<Map<string, Position> | undefined> {
    for (let outage = 0; !this.stopped; outage++) {
      try {
        const gathering = new Gathering();
        const after = await applyShares(this.db, shares, end, this.now(), gathering);
        this.failures.delete('database');
        for (const listener of this.appliedListeners) listener(gathering.earliestDue);
        return after;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          if (alone) this.fail(alone, error);
          return undefined;
        }
        this.failures.set('database', error);
        this.log.warn({ err: { message: (error as Error).message } }, 'projections lost the database; trying again');
        await new Promise((resolve) => setTimeout(resolve, reconnectPause(outage)));
      }
    }
    return undefined;
  }

  private advance(c: Consumer, to: Position): void {
    c.position = later(c.position, to);
    if (c.live) {
      c.failures = 0;
      this.failures.delete(c.projector.name);
    }
  }

  /** Sets a failing consumer aside; it catches up on its own after a pause that grows with each failure. */
  private fail(c: Consumer, error: unknown): void {
    c.live = false;
    this.failures.set(c.projector.name, error);
    this.log.error({ err: error, projector: c.projector.name }, 'projector failed; retrying from its checkpoint');
    const retry = setTimeout(() => {
      this.retries.delete(retry);
      void this.catchUp(c);
    }, retryPause(c.failures++));
    this.retries.add(retry);
  }

  /** Reads on its own from the consumer's position until it reaches the feed, then joins it again. */
  private async catchUp(c: Consumer): Promise<void> {
    while (!this.stopped && !c.live) {
      let events: RecordedEvent[];
      try {
        events = await this.store.readAll(c.position, BATCH);
      } catch (error) {
        this.fail(c, error);
        return;
      }
      if (events.length > 0) {
        const end = events[events.length - 1]!.position;
        const mine = events.filter((e) => c.projector.handlers[e.type] !== undefined);
        let to = end;
        if (mine.length > 0) {
          const after = await this.apply([{ projector: c.projector, events: mine }], end, c);
          if (!after) return; // set aside again, with a longer pause
          to = after.get(c.projector.name)!;
        }
        c.position = later(c.position, to);
      }
      // no await between this check and joining: the feed cannot hand out a batch in between
      if (comparePositions(c.position, this.feedCursor) >= 0) {
        c.live = true;
        c.failures = 0;
        this.failures.delete(c.projector.name);
        this.settleWaiters();
        return;
      }
      if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
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
      // another instance may have rebuilt it while this one waited for the rebuild lock
      const rebuilt = async () => {
        const now = await readCheckpoint(this.db, p.name);
        return now?.version === p.version ? now.position : undefined;
      };
      return rebuildProjector(this.db, this.store, p, this.now, undefined, rebuilt);
    }
    return checkpoint.position;
  }

  private lowest(scope: WaitScope): Position {
    return (
      lowestOf(scope === 'read-models' ? this.consumers.filter((c) => c.projector.rebuildable) : this.consumers) ??
      START
    );
  }

  private settleWaiters() {
    if (this.waiters.length === 0) return;
    const low = { 'read-models': this.lowest('read-models'), all: this.lowest('all') };
    this.waiters = this.waiters.filter((w) => {
      if (comparePositions(low[w.scope], w.target) >= 0) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /**
   * Resolves once the projectors in `scope` have applied `target`, or after `timeoutMs` (a
   * write's answer never hangs on a stuck read model; the caller's next read may then lag).
   * Generous, as the read fence's bound: on a busy machine a batch can take seconds, and an
   * operator write that answered early left its token unknown to the next request (401).
   * A write waits for the read models only: the process managers act on their own time and
   * nothing a caller reads next is written by them.
   */
  waitFor(target: Position, timeoutMs = this.waitBoundMs, scope: WaitScope = 'read-models'): Promise<boolean> {
    if (this.hasApplied(target, scope)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        target,
        scope,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Have the projectors in `scope` applied `target` (in this process's view)? */
  hasApplied(target: Position, scope: WaitScope = 'read-models'): boolean {
    return comparePositions(this.lowest(scope), target) >= 0;
  }

  /** Has every projector applied everything a reader can see now? */
  async caughtUp(): Promise<boolean> {
    if (this.failures.size > 0) return false;
    return comparePositions(this.lowest('all'), await this.store.head()) >= 0;
  }

  /** Hands every event the feed reads to `observer` as well (in order, before the projectors). */
  observe(observer: (events: RecordedEvent[]) => void): void {
    this.observers.push(observer);
  }

  /**
   * Called after each committed batch (a process manager's timers are then in their table),
   * with the earliest due time of the timers it wrote, if any.
   */
  onApplied(listener: (earliestDue: Date | undefined) => void): void {
    this.appliedListeners.push(listener);
  }

  /**
   * Is the feed reading and has it read up to the head since it (re)opened? Its observers
   * then see every event a moment after it commits; after an outage, not before they caught up.
   */
  get feeding(): boolean {
    return this.feed !== undefined && !this.stopped && this.feedCurrent;
  }

  position(name: string): Position | undefined {
    return this.consumers.find((c) => c.projector.name === name)?.position;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.feedRetry);
    this.retries.forEach(clearTimeout);
    await this.feed?.close();
    this.feed = undefined;
    // the checkpoints of projectors that only moved in memory are written now, so a
    // restart does not read those events again (harmless if it did: they had no handler)
    const live = this.consumers.filter((c) => c.live);
    const applied = lowestOf(live);
    if (applied && comparePositions(applied, START) > 0)
      await applyShares(
        this.db,
        live.map((c) => ({ projector: c.projector, events: [] })),
        applied,
        this.now(),
      ).catch(() => undefined);
    this.waiters.forEach((w) => w.resolve());
    this.waiters = [];
  }
}
