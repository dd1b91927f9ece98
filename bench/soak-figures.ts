/** One minute of a soak (bench/soak.ts), as printed. */
export interface Minute {
  minute: number;
  rssMb: number;
  /** The lowest heap used seen in the minute (sampled every 5 s): the heap after collection, near enough. */
  heapAfterGcMb: number;
  stateCacheMb: number;
  loopLagP99Ms: number;
  healthzP99Ms: number;
  orders: number;
  reads: number;
  deliveries: number;
  errors: number;
  behind: number;
  /** The machine's one-minute load average at the minute's end (the soak shares its cores). */
  machineLoad: number;
}

/**
 * What the memory budget is judged by (issue: 30 minutes at 100 orders a second): the last
 * ten minutes' throughput against the first ten's, /healthz's p99 at its worst minute, and
 * how far the heap after collection moved over the last twenty minutes. A shorter run
 * compares its first and last thirds, and judges the heap over its last two.
 */
export interface Totals {
  minutes: number;
  orders: number;
  reads: number;
  deliveries: number;
  errors: number;
  behind: number;
  /** Orders in the last window over orders in the first (at least 0.9). */
  throughputLastOverFirst: number;
  /** The worst minute's /healthz p99 (under 20 ms). */
  healthzP99WorstMs: number;
  /** (highest − lowest) / lowest heap after collection over the judged minutes (at most 0.1). */
  heapSpread: number;
  heapJudgedFromMinute: number;
  rssFirstMb: number;
  rssLastMb: number;
}

const sum = (ms: Minute[], f: (m: Minute) => number) => ms.reduce((s, m) => s + f(m), 0);

export const summary = (minutes: Minute[]): Totals => {
  const n = minutes.length;
  const window = n >= 30 ? 10 : Math.max(1, Math.floor(n / 3));
  const judged = minutes.slice(n >= 30 ? n - 20 : Math.floor(n / 3));
  const heaps = judged.map((m) => m.heapAfterGcMb).filter(Number.isFinite);
  return {
    minutes: n,
    orders: sum(minutes, (m) => m.orders),
    reads: sum(minutes, (m) => m.reads),
    deliveries: sum(minutes, (m) => m.deliveries),
    errors: sum(minutes, (m) => m.errors),
    behind: sum(minutes, (m) => m.behind),
    throughputLastOverFirst:
      sum(minutes.slice(n - window), (m) => m.orders) /
      Math.max(
        1,
        sum(minutes.slice(0, window), (m) => m.orders),
      ),
    healthzP99WorstMs: Math.max(...minutes.map((m) => m.healthzP99Ms)),
    heapSpread: heaps.length ? (Math.max(...heaps) - Math.min(...heaps)) / Math.min(...heaps) : Number.NaN,
    heapJudgedFromMinute: judged[0]?.minute ?? Number.NaN,
    rssFirstMb: minutes[0]?.rssMb ?? Number.NaN,
    rssLastMb: minutes.at(-1)?.rssMb ?? Number.NaN,
  };
};
