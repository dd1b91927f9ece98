/** A latch a notification can open: wait() returns at once if woken since the last reset. */
export class Wakeup {
  private woken = false;
  private resolve: (() => void) | undefined;

  reset(): void {
    this.woken = false;
  }

  wake(): void {
    this.woken = true;
    this.resolve?.();
  }

  wait(timeoutMs: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.resolve = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.resolve = done;
    });
  }
}

/**
 * The pause before the n-th consecutive attempt to reach a database that went away: short
 * at first (a dropped session usually comes back at once), doubling to at most 500 ms, with
 * up to a quarter of jitter so many instances do not reconnect in step. An attempt on a lost
 * server costs a refused connection; a longer pause is time after the new primary's
 * promotion in which the read models, and the reads and writes that wait for them, stand still.
 */
export const reconnectPause = (attempt: number): number => jittered(Math.min(500, 100 * 2 ** Math.min(attempt, 3)));

/**
 * The pause before trying again what failed for a reason other than a lost database (a
 * projector's error): doubling from 100 ms to at most 5 s, so a lasting fault is not logged
 * many times a second.
 */
export const retryPause = (attempt: number): number => jittered(Math.min(5_000, 100 * 2 ** Math.min(attempt, 6)));

const jittered = (ms: number) => Math.round(ms * (1 + Math.random() * 0.25));
