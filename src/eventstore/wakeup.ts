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
      const timer = setTimeout(done, timeoutMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.resolve = undefined;
        resolve();
      }
      this.resolve = done;
    });
  }
}
