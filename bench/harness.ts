/**
 * The pieces every benchmark file shares: what a benchmark is, what it is given, how a
 * throughput is measured and how a result is reported.
 *
 * A benchmark compares the service's figure for some work with the figure of plain SQL
 * doing the same work on the same server, so the ratio says what the service's layers
 * cost rather than how fast this particular machine is.
 */
import { performance } from 'node:perf_hooks';
import type { Db } from '../src/db/connect.js';

export interface Result {
  /** What was measured, with the parameters that matter (concurrency, batch size, count). */
  work: string;
  unit: string;
  service: number;
  raw: number;
  /** Set on rows that explain another row rather than measure a feature of the service. */
  diagnostic?: boolean;
}

export interface Settings {
  /** Size of the event store the read and rebuild benchmarks work on (BENCH_EVENTS). */
  events: number;
  /** Multiplies the operation counts of the append benchmarks (BENCH_SCALE). */
  scale: number;
  /** Measured rounds per figure; service and raw alternate and the median is kept (BENCH_ROUNDS). */
  rounds: number;
}

export interface BenchContext {
  settings: Settings;
  /** A fresh, migrated database on the run's server, closed at the end of the run. */
  freshDatabase(prefix: string, poolSize: number): Promise<Db>;
  /** Built once per run on first request and shared by every benchmark that asks for the same key. */
  fixture<T>(key: string, build: () => Promise<T>): Promise<T>;
  log(line: string): void;
  /** The database server's CPU time so far (µs), where /proc can tell (Linux); absent elsewhere. */
  serverCpu?: () => number;
}

export interface Benchmark {
  /** Dotted name the command-line filter matches, e.g. `eventstore.append`. */
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<Result[]>;
}

export interface Measurement {
  /** Units of work per second (events, rows, requests). */
  perSecond: number;
  units: number;
  seconds: number;
}

export interface ThroughputOptions {
  /** Operations run before the clock starts; their results are discarded. */
  warmup: number;
  /** Operations timed; the measurement always ends after exactly this many. */
  operations: number;
  concurrency: number;
  /**
   * One operation. `i` is unique across warm-up and measurement within this call (workers
   * use it to name streams); the result is the number of units it did (1 when omitted).
   */
  op(i: number): Promise<number | void>;
}

const runWorkers = async (count: number, concurrency: number, first: number, op: ThroughputOptions['op']) => {
  let next = 0;
  let units = 0;
  const worker = async () => {
    while (next < count) {
      const i = first + next++;
      const done = await op(i); // not `units += await ...`: that would read `units` before the await
      units += done ?? 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return units;
};

/** Runs `op` with `concurrency` workers taking operations from one shared counter. */
export const throughput = async (o: ThroughputOptions): Promise<Measurement> => {
  await runWorkers(o.warmup, o.concurrency, 0, o.op);
  const started = performance.now();
  const units = await runWorkers(o.operations, o.concurrency, o.warmup, o.op);
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: units / seconds, units, seconds };
};

/** Times one piece of work that reports how many units it did. */
export const timed = async (work: () => Promise<number>): Promise<Measurement> => {
  const started = performance.now();
  const units = await work();
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: units / seconds, units, seconds };
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Measures the service and the raw figure in alternating rounds (service, raw, service,
 * raw, ...) so that drift on the machine (checkpoints, cache warming, a growing table)
 * falls on both alike, and keeps the median of each. `round` is passed to the runs so they
 * can keep their writes apart.
 */
export const paired = async (
  ctx: BenchContext,
  work: string,
  unit: string,
  service: (round: number) => Promise<Measurement>,
  raw: (round: number) => Promise<Measurement>,
  options: { rounds?: number; diagnostic?: boolean } = {},
): Promise<Result> => {
  const rounds = options.rounds ?? ctx.settings.rounds;
  const s: number[] = [];
  const r: number[] = [];
  const cpu = { service: [] as Cpu[], raw: [] as Cpu[] };
  for (let round = 0; round < rounds; round++) {
    const a = await withCpu(ctx, () => service(round));
    const b = await withCpu(ctx, () => raw(round));
    s.push(a.perSecond);
    r.push(b.perSecond);
    cpu.service.push(a);
    cpu.raw.push(b);
    ctx.log(
      `  ${work}, round ${round + 1}/${rounds}: service ${fmt(a.perSecond)} ${unit}/s (${a.seconds.toFixed(1)} s), raw ${fmt(b.perSecond)} ${unit}/s (${b.seconds.toFixed(1)} s)`,
    );
  }
  // steadier than the rates on a shared machine: what this process (the service or the raw
  // loop, with the benchmark's client) spent per unit, and the database server beside it
  const per = (side: Cpu[], of: (c: Cpu) => number) => fmt(median(side.map(of)));
  const server = ctx.serverCpu
    ? `; the database server's: service ${per(cpu.service, (c) => c.serverCpuPerUnit)} µs, raw ${per(cpu.raw, (c) => c.serverCpuPerUnit)} µs`
    : '';
  ctx.log(
    `  ${work}: this process's CPU per ${unit.replace(/s$/, '')}: service ${per(cpu.service, (c) => c.cpuPerUnit)} µs, raw ${per(cpu.raw, (c) => c.cpuPerUnit)} µs${server}`,
  );
  return { work, unit, service: median(s), raw: median(r), ...(options.diagnostic ? { diagnostic: true } : {}) };
};

/** CPU time per unit counted (µs): this process's, and the database server's (0 where it cannot be read). */
export interface Cpu {
  cpuPerUnit: number;
  serverCpuPerUnit: number;
}

/** A run and the CPU time spent on it, per unit counted. */
export const withCpu = async (ctx: BenchContext, run: () => Promise<Measurement>): Promise<Measurement & Cpu> => {
  const before = process.cpuUsage();
  const serverBefore = ctx.serverCpu?.() ?? 0;
  const m = await run();
  const used = process.cpuUsage(before);
  const units = Math.max(1, m.units);
  return {
    ...m,
    cpuPerUnit: (used.user + used.system) / units,
    serverCpuPerUnit: ((ctx.serverCpu?.() ?? 0) - serverBefore) / units,
  };
};

export const fmt = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toLocaleString('en-US', { maximumSignificantDigits: 3 });

export const ratio = (r: Result): string => (r.service / r.raw).toFixed(2);

/** A Markdown table (readable as plain text too): work | service | raw | ratio. */
export const table = (results: Result[]): string => {
  const rows = [
    ['work', 'service', 'raw Postgres', 'ratio'],
    ...results.map((r) => [
      r.diagnostic ? `(diagnostic) ${r.work}` : r.work,
      `${fmt(r.service)} ${r.unit}/s`,
      `${fmt(r.raw)} ${r.unit}/s`,
      ratio(r),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
};
