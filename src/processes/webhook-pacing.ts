/**
 * An endpoint's `rate_limit` (deliveries per second). Attempts to a limited endpoint run
 * one at a time, each starting at least 1000 / rate ms after the previous one finished:
 * the receiver got the previous request before its answer came back, so consecutive
 * arrivals are at least that far apart whatever the network's jitter. Pacing is in real
 * time (it protects the receiver's real capacity); one instance at a time sends to a
 * rate-limited endpoint (webhook-pacing-leases.ts), so the rate holds across instances.
 * When the queue ahead is longer than `MAX_PACING_WAIT_MS`, the attempt is not queued: its
 * delivery is due again that much later (nothing is sent, nothing is dropped), so a long
 * queue does not hold claims in memory.
 */
export const MAX_PACING_WAIT_MS = 10_000;

export class EndpointPacer {
  private readonly next = new Map<string, number>();
  private readonly tails = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, number>();

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  async run<T>(
    endpointId: string,
    perSecond: number | null | undefined,
    work: () => Promise<T>,
  ): Promise<{ ran: T } | { deferMs: number }> {
    if (!perSecond) return { ran: await work() };
    const interval = 1000 / perSecond;
    const ahead = this.queued.get(endpointId) ?? 0;
    if (ahead * interval > MAX_PACING_WAIT_MS) return { deferMs: ahead * interval };
    this.queued.set(endpointId, ahead + 1);
    const before = this.tails.get(endpointId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(endpointId, tail);
    try {
      await before;
      // a timer may fire a fraction of a millisecond early (the event loop's cached clock):
      // wait again until the interval really passed
      const at = this.next.get(endpointId) ?? 0;
      for (let wait = at - this.nowMs(); wait > 0; wait = at - this.nowMs()) await pause(wait);
      try {
        return { ran: await work() };
      } finally {
        this.next.set(endpointId, this.nowMs() + interval);
      }
    } finally {
      const left = (this.queued.get(endpointId) ?? 1) - 1;
      if (left === 0) this.queued.delete(endpointId);
      else this.queued.set(endpointId, left);
      release();
      if (this.tails.get(endpointId) === tail) this.tails.delete(endpointId);
    }
  }
}

/** At most `size` attempts at once per endpoint; the rest wait their turn, in order. */
export class EndpointSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly size: number) {}

  async run<T>(endpointId: string, work: () => Promise<T>): Promise<T> {
    if ((this.busy.get(endpointId) ?? 0) >= this.size)
      await new Promise<void>((resolve) => {
        // added in place: a burst queues thousands behind one endpoint's four slots
        const queue = this.waiting.get(endpointId);
        if (queue) queue.push(resolve);
        else this.waiting.set(endpointId, [resolve]);
      });
    this.busy.set(endpointId, (this.busy.get(endpointId) ?? 0) + 1);
    try {
      return await work();
    } finally {
      this.busy.set(endpointId, (this.busy.get(endpointId) ?? 1) - 1);
      const queue = this.waiting.get(endpointId);
      const next = queue?.shift();
      if (queue?.length === 0) this.waiting.delete(endpointId);
      if (next) next();
      else if (this.busy.get(endpointId) === 0) this.busy.delete(endpointId);
    }
  }
}

export const pause = (ms: number) =>
  ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms));
