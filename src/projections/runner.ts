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
  type Witness,
} from '../eventstore/port.js';
import { type Rewind, RewindFound } from '../eventstore/rewind.js';
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
  private readonly rewindListeners: ((rewind: Rewind) => void)[] = [];
  private stopped = false;
  /** The last event of the last batch the feed delivered: what every later batch follows. */
  private witness: Witness | undefined;
  /** Set by `halt`: nothing reads or writes until `resume`. */
  private halted = false;
  /** Raised by `halt`: a catch-up of an earlier epoch ends. */
  private epoch = 0;
  private readonly catchingUp = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    readonly projectors: Projector[],
    private readonly now: () => Date,
    private readonly log: Logger,
    /** How long `waitFor` waits unless told (config.readModelWaitMs). */
    private readonly waitBoundMs = 30_000,
    /**
     * The events live in this database (the Postgres store): each batch's transaction then
     * checks that the events it follows and ends at are still stored (`beginAndClaim`).
     */
    private readonly checkWitnesses = false,
  ) {}

  /** Prepares tables and checkpoints (rebuilding a projector whose version changed), then subscribes once. */
  async start(): Promise<void> {
    for (const p of this.projectors)
      this.consumers.push({ projector: p, position: await this.prepare(p), live: true, failures: 0 });
    this.feedCursor = this.lowest('all');
    this.openFeed(0);
  }

  private openFeed(failures: number): void {
    if (this.stopped || this.halted) return;
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
        const last = events[events.length - 1]!;
        this.witness = { id: last.id, position: last.position };
        failures = 0;
      },
      onError: (error) => {
        this.feed = undefined;
        if (error instanceof RewindFound) return this.rewound(error.rewind);
        // only a read that is not a passing outage ends the feed; the consumers that had not
        // applied its last batch catch up on their own, and the feed opens again later on
        this.log.error({ err: error }, 'projection feed failed; opening it again');
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
    const last = events[events.length - 1]!;
    const end = last.position;
    const witnesses = this.witnessesOf(last);
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
      const applied = await this.apply(together, end, witnesses);
      if (!applied) {
        for (const [c, share] of shares) {
          const alone = await this.apply([share], end, witnesses, c);
          if (alone) this.advance(c, alone.get(c.projector.name)!);
        }
        for (const c of riders) this.advance(c, end);
      } else for (const c of consumers) this.advance(c, applied.get(c.projector.name) ?? end);
    } else for (const c of consumers) this.advance(c, end);
    this.settleWaiters();
  }

  /**
   * What a batch ending at `last` must find still stored before it is applied: the event the
   * feed delivered last (the batch follows it) and `last` itself. None when the events live
   * elsewhere than this database.
   */
  private witnessesOf(last: RecordedEvent): Witness[] {
    if (!this.checkWitnesses) return [];
    const end = { id: last.id, position: last.position };
    return this.witness ? [this.witness, end] : [end];
  }

  /**
   * One transaction for `shares`. While the database is away it waits and tries again (an
   * outage is not a projector's fault). Any other failure answers undefined, and sets
   * `alone` aside when it was the only one in it; a rewind found (`RewindFound`) is no
   * projector's fault either and goes to the caller.
   */
  private async apply(
    shares: Share[],
    end: Position,
    witnesses: Witness[],
    alone?: Consumer,
  ): Promise<Map<string, Position> | undefined> {
    for (let outage = 0; !this.stopped; outage++) {
      try {
        const gathering = new Gathering();
        const after = await applyShares(this.db, shares, end, this.now(), gathering, witnesses);
        this.failures.delete('database');
        for (const listener of this.appliedListeners) listener(gathering.earliestDue);
        return after;
      } catch (error) {
        if (error instanceof RewindFound) throw error;
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
      const running = this.catchUp(c, this.epoch).finally(() => this.catchingUp.delete(running));
      this.catchingUp.add(running);
    }, retryPause(c.failures++));
    this.retries.add(retry);
  }

  /** Reads on its own from the consumer's position until it reaches the feed, then joins it again. */
  private async catchUp(c: Consumer, epoch: number): Promise<void> {
    try {
      await this.catchUpFrom(c, epoch);
    } catch (error) {
      if (error instanceof RewindFound) this.rewound(error.rewind);
      else this.fail(c, error);
    }
  }

  private async catchUpFrom(c: Consumer, epoch: number): Promise<void> {
    while (!this.stopped && !c.live && epoch === this.epoch) {
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
          const after = await this.apply(
            [{ projector: c.projector, events: mine }],
            end,
            this.witnessesOf(events[events.length - 1]!),
            c,
          );
          if (!after) return; // set aside again, with a longer pause
          to = after.get(c.projector.name)!;
        }
        c.position = later(c.position, to);
      }
      // no await between this check and joining: the feed cannot hand out a batch in between
      if (epoch !== this.epoch) return;
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

  /**
   * Called when a batch finds the store went back in time (an event it follows no longer
   * stored): the runner stops reading until `halt` and `resume`.
   */
  onRewind(listener: (rewind: Rewind) => void): void {
    this.rewindListeners.push(listener);
  }

  private rewound(rewind: Rewind): void {
    for (const listener of this.rewindListeners) listener(rewind);
  }

  /**
   * After the store went back in time: stops the feed and every catch-up (a batch under way
   * ends first), forgets the feed's place and lets every wait go (their positions may be of
   * the lost history). Nothing is read or written until `resume`.
   */
  async halt(): Promise<void> {
    this.halted = true;
    this.epoch++;
    clearTimeout(this.feedRetry);
    this.retries.forEach(clearTimeout);
    this.retries.clear();
    await this.feed?.close();
    this.feed = undefined;
    this.feedCurrent = false;
    await Promise.all([...this.catchingUp]);
    this.witness = undefined;
    this.waiters.forEach((w) => w.resolve());
    this.waiters = [];
  }

  /**
   * After `halt`: every read model rebuilt from the events the store holds now (unless
   * another instance rebuilt it after `since`), every process manager from its checkpoint
   * (its effects are not replayed: the checkpoint is in the database the timers it wrote
   * are in, and with the events there too, batches never wrote one past a lost event), and
   * the feed opened again from the lowest of them.
   */
  async resume(since: Date | undefined): Promise<void> {
    for (const c of this.consumers) {
      const p = c.projector;
      c.position = p.rebuildable
        ? await rebuildProjector(this.db, this.store, p, this.now, undefined, async () => {
            const done = await readCheckpoint(this.db, p.name);
            const after = since && done?.rebuiltAt && done.rebuiltAt.getTime() > since.getTime();
            return after && done.version === p.version ? done.position : undefined;
          })
        : ((await readCheckpoint(this.db, p.name))?.position ?? START);
      c.live = true;
      c.failures = 0;
    }
    this.failures.clear();
    this.halted = false;
    this.feedCursor = this.lowest('all');
    this.openFeed(0);
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
    const live = this.halted ? [] : this.consumers.filter((c) => c.live);
    const applied = lowestOf(live);
    if (applied && comparePositions(applied, START) > 0)
      await applyShares(
        this.db,
        live.map((c) => ({ projector: c.projector, events: [] })),
        applied,
        this.now(),
        undefined,
        this.checkWitnesses && this.witness ? [this.witness] : [],
      ).catch(() => undefined);
    this.waiters.forEach((w) => w.resolve());
    this.waiters = [];
  }
}
