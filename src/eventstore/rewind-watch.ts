import { newId } from '../ids.js';
import { overriding } from './overriding.js';
import type { EventStore, Line, NewEvent, RecordedEvent, StoreHistory, Witness } from './port.js';
import { higher, lineChange, lineMoved, type Rewind, rewindOf } from './rewind.js';

/** A probe every this often: a rewind is noticed within one interval and a probe's time. */
export const PROBE_INTERVAL_MS = 2_000;
/** A probe not answered within this is given up (the database away); the next one may start. */
const PROBE_TIMEOUT_MS = 2_000;
/** A nudge (a connection opened again) probes at once, though not more often than this. */
const NUDGE_GAP_MS = 250;

export interface RewindLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Watches one process's event store for a rewind (src/eventstore/rewind.ts): it keeps the
 * highest event the process read or wrote through `watching(store)`, and every few seconds,
 * and at once when a database connection opens again (`nudge`), asks the store whether that
 * event is still there and where its history stands. One indexed read, a few seconds apart.
 * A rewind found is handed to `onRewind` once; the watch then waits (`pause`) until the
 * process has dropped what it held and calls `forget` and `resume`.
 *
 * The highest event seen stands for everything seen before it only within one history.
 * After a rewind the new history's events pass the lost ones' positions as soon as its
 * transactions have used the lost transaction ids again, and an event read there would hide
 * the loss. So when a connection shows another line than the last reading's (`lineSeen`),
 * the witness from before is held, what is seen from then on is kept apart, and the next
 * reading asks about the held one.
 */
export class RewindWatch {
  private seen: Witness | undefined;
  /** Held when a connection showed another line: the witness from before, asked about first. */
  private held: { witness: Witness | undefined } | undefined;
  /** What was seen since the hold: it joins `seen` once the held witness is found stored. */
  private seenSince: Witness | undefined;
  private last: StoreHistory | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private paused = false;
  /** The probe whose answer counts: a later one, or `forget`, makes an earlier answer stale. */
  private current = 0;
  private inFlight: { id: number; startedAt: number } | undefined;
  private lastStartedAt = 0;
  /** When (the process's clock) the last probe that found nothing started. */
  private verified: Date | undefined;

  constructor(
    /** The store's `history` (src/eventstore/port.ts). */
    private readonly history: (witness?: Witness) => Promise<StoreHistory>,
    private readonly now: () => Date,
    private readonly onRewind: (rewind: Rewind) => void,
    private readonly log: RewindLog,
    private readonly intervalMs = PROBE_INTERVAL_MS,
  ) {}

  /** Notes an event the process read or wrote: the highest one is the witness the next probe asks about. */
  saw(witness: Witness): void {
    if (this.held) this.seenSince = higher(this.seenSince, witness);
    else this.seen = higher(this.seen, witness);
  }

  /**
   * A connection opened on `line` (read before anything else ran on it): another line than
   * the last reading's, or its WAL behind, holds the witness and probes at once.
   */
  lineSeen(line: Line): void {
    const known = this.last?.line;
    if (!known || this.held || !lineMoved(known, line)) return;
    this.held = { witness: this.seen };
    this.nudge();
  }

  /**
   * `store` noting every event it reads or writes. Events written without an id get one
   * here (as the adapters would), so a write's last event is a witness like a read one.
   */
  watching(store: EventStore): EventStore {
    const sawLast = (events: readonly RecordedEvent[]) => {
      const e = events[events.length - 1];
      if (e) this.saw({ id: e.id, position: e.position });
    };
    const named = (events: NewEvent[]) => events.map((e) => (e.id ? e : { ...e, id: newId() }));
    const many = store.appendMany?.bind(store);
    return overriding(store, {
      append: async (streamId, events, expected, at, options) => {
        const given = named(events);
        const result = await store.append(streamId, given, expected, at, options);
        const last = given[given.length - 1];
        if (last?.id) this.saw({ id: last.id, position: result.position });
        return result;
      },
      ...(many && {
        appendMany: async (appends, at, options) => {
          const given = appends.map((a) => ({ ...a, events: named(a.events) }));
          const results = await many(given, at, options);
          // the parts take positions in their order: the last part's last event is the highest
          const last = given[given.length - 1]?.events.at(-1);
          const result = results[given.length - 1];
          if (last?.id && result) this.saw({ id: last.id, position: result.position });
          return results;
        },
      }),
      readStream: async (streamId, fromRevision) => {
        const events = await store.readStream(streamId, fromRevision);
        sawLast(events);
        return events;
      },
      readAll: async (after, limit) => {
        const events = await store.readAll(after, limit);
        sawLast(events);
        return events;
      },
      subscribe: (options) =>
        store.subscribe({
          ...options,
          onEvents: (events) => {
            sawLast(events);
            return options.onEvents(events);
          },
        }),
    });
  }

  /** When (the process's clock) the store was last found holding everything the process saw. */
  get verifiedAt(): Date | undefined {
    return this.verified;
  }

  /** Probes now (the first reading names the line new connections are compared with), then every interval. */
  start(): void {
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.current++;
  }

  /** Probes at once (a database connection opened again: the server behind it may be another). */
  nudge(): void {
    if (!this.running || this.paused) return;
    const since = performance.now() - this.lastStartedAt;
    this.schedule(since >= NUDGE_GAP_MS ? 0 : NUDGE_GAP_MS - since);
  }

  /** No probes until `resume` (the process is dropping what it held). */
  pause(): void {
    this.paused = true;
    clearTimeout(this.timer);
    this.current++;
  }

  resume(): void {
    this.paused = false;
    if (this.running) this.schedule(0);
  }

  /** Forgets what the process saw and the last reading: after it dropped what it held, it starts over. */
  forget(): void {
    this.seen = undefined;
    this.held = undefined;
    this.seenSince = undefined;
    this.last = undefined;
    this.current++;
  }

  private schedule(inMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), inMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.running || this.paused) return;
    // one probe at a time, unless the one under way is past its time (the database away)
    const stuck = this.inFlight && performance.now() - this.inFlight.startedAt > PROBE_TIMEOUT_MS;
    if (!this.inFlight || stuck) await this.probe().catch(() => undefined);
    // a held witness is asked about again soon: until then the new line's events are kept apart
    if (this.running && !this.paused) this.schedule(this.held ? NUDGE_GAP_MS : this.intervalMs);
  }

  /**
   * One reading of the store against what the process saw: the rewind found (handed to
   * `onRewind` as well, and the watch paused), or undefined. A reading that fails (the
   * database away) or that a later one overtook decides nothing.
   */
  async probe(): Promise<Rewind | undefined> {
    const id = ++this.current;
    const startedAt = performance.now();
    this.inFlight = { id, startedAt };
    this.lastStartedAt = startedAt;
    const at = this.now();
    const held = this.held;
    const seen = held ? held.witness : this.seen;
    try {
      const now = await this.history(seen);
      if (id !== this.current || this.paused) return undefined;
      const rewind = rewindOf(seen, this.last, now);
      if (rewind) {
        this.pause();
        this.onRewind(rewind);
        return rewind;
      }
      const change = lineChange(this.last, now);
      if (change)
        this.log.warn(
          { change },
          "the database's history changed (a failover, a switchover or a restore); it still holds what this instance saw",
        );
      this.last = now;
      this.verified = at;
      if (held && this.held === held) {
        // the history from before the new line holds: what was seen since stands with it
        this.seen = this.seenSince ? higher(held.witness, this.seenSince) : held.witness;
        this.held = undefined;
        this.seenSince = undefined;
      }
      return undefined;
    } finally {
      if (this.inFlight?.id === id) this.inFlight = undefined;
    }
  }
}
