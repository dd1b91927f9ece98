import { comparePositions, type Position } from '../eventstore/port.js';
import { writeNotes } from '../db/read-route.js';
import type { ProjectionRunner } from './runner.js';

/**
 * Read-your-writes for an instance whose writes answer before the read models applied them.
 * A write answers once its events are stored and hands its last position here (`pass`); a
 * read of a read model first waits (`wait`) until the read models applied every write this
 * instance answered. When they have, which is the rule once a write is a few milliseconds
 * old, a read pays one comparison and no wait. The rule across instances is in
 * docs/decisions.md ("Writes answer from the command's state").
 */
export class ReadFence {
  /** The last position a write answered at and the read models may not have applied yet. */
  private answered: Position | undefined;

  constructor(
    private readonly projections: ProjectionRunner,
    /**
     * A read never hangs on a stuck read model longer than this; it then reads what is there.
     * Generous: on a busy machine a batch can take seconds, and a read that gives up early
     * answers what the caller just wrote as missing (a just-issued token as 401).
     */
    private readonly timeoutMs = 30_000,
  ) {}

  /** A write answered at `position`. */
  pass(position: Position): void {
    if (!this.answered || comparePositions(position, this.answered) > 0) this.answered = position;
  }

  /** Forgets the answered writes (the store went back in time: their positions may be of a history it lost). */
  forget(): void {
    this.answered = undefined;
  }

  /** Nothing when every answered write is applied; else a promise settling once it is (or at the timeout). */
  wait(): Promise<unknown> | undefined {
    const target = this.answered;
    if (!target) return undefined;
    if (this.projections.hasApplied(target)) {
      if (this.answered === target) this.answered = undefined;
      return undefined;
    }
    return this.projections.waitFor(target, this.timeoutMs).then((applied) => {
      // a read model stuck past the timeout: later reads read what is there at once, as
      // the ones that waited do now, instead of each waiting the timeout again
      if (!applied && this.answered === target) this.answered = undefined;
    });
  }

  /**
   * The runner a request's commands see: its waits for the read models pass the fence
   * instead (the answer goes out at once; the next read waits, if it must).
   */
  passingRunner(): ProjectionRunner {
    return Object.create(this.projections, {
      waitFor: {
        value: async (position: Position) => {
          this.pass(position);
          writeNotes.getStore()?.note(position);
          return true;
        },
      },
    }) as ProjectionRunner;
  }
}
