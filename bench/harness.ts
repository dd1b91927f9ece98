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
  /** Median CPU per unit (µs) of the process serving each side, and of the database server. */
  cpu?: { service: number; raw: number; serviceServer: number; rawServer: number };
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
  /** pg_stat_statements: forget the counts so far, or read those of one database's statements. */
  statements: {
    reset(): Promise<void>;
    of(db: Db): Promise<{ query: string; calls: number }[]>;
  };
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

/** One side of a comparison: how to run a round, and whose CPU time it spends. */
export interface Side {
  /** What the raw side is, added to the result's work (absent for the service and a lone raw side). */
  label?: string;
  run(round: number): Promise<Measurement>;
  /** CPU time so far (µs) of the process doing this side's work; this process's when absent. */
  cpu?: () => number;
}

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
): Promise<Result> => (await compared(ctx, work, unit, { run: service }, [{ run: raw }], options))[0]!;

/**
 * The service beside several raw sides (a raw route in its own process, a raw loop in this
 * one), all in the same alternating rounds: one result per raw side, each with the service's
 * median. Each side's CPU per unit is printed, read from the process that did its work.
 */
export const compared = async (
  ctx: BenchContext,
  work: string,
  unit: string,
  service: Side,
  raws: Side[],
  options: { rounds?: number; diagnostic?: boolean } = {},
): Promise<Result[]> => {
  const rounds = options.rounds ?? ctx.settings.rounds;
  const sides = [service, ...raws];
  const rates = sides.map(() => [] as number[]);
  const cpus = sides.map(() => [] as Cpu[]);
  const name = (i: number) => (i === 0 ? 'service' : (sides[i]!.label ?? 'raw'));
  for (let round = 0; round < rounds; round++) {
    const line: string[] = [];
    for (const [i, side] of sides.entries()) {
      const m = await withCpu(ctx, () => side.run(round), side.cpu);
      rates[i]!.push(m.perSecond);
      cpus[i]!.push(m);
      line.push(`${name(i)} ${fmt(m.perSecond)} ${unit}/s (${m.seconds.toFixed(1)} s)`);
    }
    ctx.log(`  ${work}, round ${round + 1}/${rounds}: ${line.join(', ')}`);
  }
  // steadier than the rates on a shared machine: what the process doing each side's work
  // spent per unit, and the database server beside it
  const per = (i: number, of: (c: Cpu) => number) => fmt(median(cpus[i]!.map(of)));
  const each = (of: (c: Cpu) => number) => sides.map((_, i) => `${name(i)} ${per(i, of)} µs`).join(', ');
  const singular = unit.replace(/s$/, '');
  ctx.log(`  ${work}: CPU per ${singular} of the process serving it: ${each((c) => c.cpuPerUnit)}`);
  if (ctx.serverCpu)
    ctx.log(`  ${work}: the database server's CPU per ${singular}: ${each((c) => c.serverCpuPerUnit)}`);
  return raws.map((raw, r) => ({
    work: raw.label ? `${work}; raw: ${raw.label}` : work,
    unit,
    service: median(rates[0]!),
    raw: median(rates[r + 1]!),
    cpu: {
      service: median(cpus[0]!.map((c) => c.cpuPerUnit)),
      raw: median(cpus[r + 1]!.map((c) => c.cpuPerUnit)),
      serviceServer: median(cpus[0]!.map((c) => c.serverCpuPerUnit)),
      rawServer: median(cpus[r + 1]!.map((c) => c.serverCpuPerUnit)),
    },
    ...(options.diagnostic ? { diagnostic: true } : {}),
  }));
};

/** CPU time per unit counted (µs): this process's, and the database server's (0 where it cannot be read). */
export interface Cpu {
  cpuPerUnit: number;
  serverCpuPerUnit: number;
}

/** A run and the CPU time spent on it, per unit counted, by `cpu`'s process (this one by default). */
export const withCpu = async (
  ctx: BenchContext,
  run: () => Promise<Measurement>,
  cpu?: () => number,
): Promise<Measurement & Cpu> => {
  const own = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const read = cpu ?? own;
  const before = read();
  const serverBefore = ctx.serverCpu?.() ?? 0;
  const m = await run();
  const used = read() - before;
  const units = Math.max(1, m.units);
  return {
    ...m,
    cpuPerUnit: used / units,
    serverCpuPerUnit: ((ctx.serverCpu?.() ?? 0) - serverBefore) / units,
  };
};

export const fmt = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toLocaleString('en-US', { maximumSignificantDigits: 3 });

export const ratio = (r: Result): string => (r.service / r.raw).toFixed(2);

/**
 * A Markdown table (readable as plain text too): work | service | raw | ratio | CPU per unit
 * (µs) of the process serving each side and of the database server, where measured.
 */
export const table = (results: Result[]): string => {
  const cpu = (r: Result) =>
    r.cpu
      ? `${fmt(r.cpu.service)} / ${fmt(r.cpu.raw)}; server ${fmt(r.cpu.serviceServer)} / ${fmt(r.cpu.rawServer)}`
      : '';
  const rows = [
    ['work', 'service', 'raw Postgres', 'ratio', 'CPU µs per unit, service / raw'],
    ...results.map((r) => [
      r.diagnostic ? `(diagnostic) ${r.work}` : r.work,
      `${fmt(r.service)} ${r.unit}/s`,
      `${fmt(r.raw)} ${r.unit}/s`,
      ratio(r),
      cpu(r),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
};
