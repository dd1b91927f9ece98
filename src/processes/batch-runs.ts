/**
 * The batches a worker of the timer loop has under way: a drain awaits each at once; the
 * background loop leaves it running (a slow batch never holds back the next claim) and is
 * woken when it ends, as its end may have freed room or made more work due.
 */
export class BatchRuns {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly wake: () => void) {}

  get size(): number {
    return this.running.size;
  }

  async start(work: Promise<unknown>, wait: boolean): Promise<void> {
    if (wait) {
      await work;
      return;
    }
    this.running.add(work);
    void work.finally(() => {
      this.running.delete(work);
      this.wake();
    });
  }

  /** Resolves once every batch under way ended; answers whether there was any. */
  async settle(): Promise<boolean> {
    if (this.running.size === 0) return false;
    await Promise.all(this.running);
    return true;
  }
}
