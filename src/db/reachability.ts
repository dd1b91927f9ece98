import { DatabaseUnreachable, isDatabaseUnavailable } from './faults.js';

/**
 * How long a read waits for what only a lost primary can give (the read models' progress,
 * its WAL position, one of its connections) before it goes on without: from the read's
 * start, or from the moment the primary was found lost, whichever ends first. Reads then
 * answer within 2 s through a failover (docs/scaling.md), with what a replica has or 503.
 */
export const READ_WAIT_MS = 1_000;

/**
 * However long the primary has been lost, a wait that starts gets this long: the primary may
 * be back, and only a statement that succeeds says so (a read that gave up at once would
 * never find out).
 */
export const READ_TRY_MS = 250;

/**
 * Whether the primary answers, as the service's own statements find it: lost from the first
 * statement or connection that fails for want of the server (src/db/faults.ts), until one
 * succeeds again. Busy is not lost: a slow statement that succeeds says the primary answers.
 */
export class Reachability {
  private lostAt: number | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A statement or connection failed: the primary is lost if it failed for want of the server. */
  failed(error: unknown): void {
    if (this.lostAt !== undefined || !isDatabaseUnavailable(error)) return;
    this.lostAt = this.now();
    for (const listener of [...this.listeners]) listener();
  }

  /** A statement succeeded. */
  answered(): void {
    this.lostAt = undefined;
  }

  /** Since when the primary is lost; undefined while it answers. */
  get lostSince(): number | undefined {
    return this.lostAt;
  }

  /** Has the primary been lost for READ_WAIT_MS, or is it lost past `deadline`? */
  gaveUp(deadline: number): boolean {
    return this.lostAt !== undefined && this.now() >= Math.min(deadline, this.lostAt + READ_WAIT_MS);
  }

  /**
   * Resolves once the primary has been lost for READ_WAIT_MS, or is lost past `deadline`,
   * and this wait has had READ_TRY_MS; stops watching, unresolved, once `until` settles (what
   * the read waited for came first).
   */
  givenUp(deadline: number, until: Promise<unknown>): Promise<'lost'> {
    const tried = this.now() + READ_TRY_MS;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        clearTimeout(timer);
        if (this.lostAt === undefined) return; // answering: the next loss calls again
        const at = Math.max(tried, Math.min(deadline, this.lostAt + READ_WAIT_MS));
        const left = at - this.now();
        if (left <= 0) resolve('lost');
        else timer = setTimeout(check, left);
      };
      this.listeners.add(check);
      check();
      const stop = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      until.then(stop, stop);
    });
  }

  /**
   * `work`, unless the primary is lost past `deadline` first: then rejected with
   * DatabaseUnreachable, and what `work` answers later is handed to `late` (a connection to
   * give back).
   */
  bounded<T>(work: Promise<T>, deadline: number, what: string, late?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      void this.givenUp(deadline, work).then(() => {
        if (settled) return;
        settled = true;
        reject(new DatabaseUnreachable(`${what}: the database cannot be reached`));
      });
      work.then(
        (value) => {
          if (settled) return late?.(value);
          settled = true;
          resolve(value);
        },
        // what a driver rejects with is an Error
        (error: Error) => {
          if (settled) return;
          settled = true;
          reject(error);
        },
      );
    });
  }
}
