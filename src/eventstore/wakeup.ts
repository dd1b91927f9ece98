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
 * at first (a dropped session usually comes back at once), doubling to at most 5 s, with
 * up to a quarter of jitter so many instances do not reconnect in step.
 */
export const reconnectPause = (attempt: number): number => {
  const base = Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
  return Math.round(base * (1 + Math.random() * 0.25));
};
