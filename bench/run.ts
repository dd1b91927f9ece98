/**
 * Runs the benchmarks on one embedded PostgreSQL server and prints a table of figures.
 *
 *   npm run bench                      every benchmark
 *   npm run bench -- eventstore        those whose name contains "eventstore"
 *   npm run bench -- append rebuild    several filters: a benchmark runs when any matches
 *   npm run bench -- --list            the names, without running anything
 *
 * Environment: BENCH_EVENTS (size of the store read and rebuilt, default 1000000),
 * BENCH_SCALE (multiplies the append counts, default 1), BENCH_ROUNDS (alternating
 * service/raw rounds per figure, default 3; the rebuild always runs one).
 *
 * To add benchmarks (HTTP, orders, webhooks), write a file under bench/ exporting
 * Benchmark objects (see harness.ts) and add them to `registry` below.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startEnvironment } from './environment.js';
import { declaredBenchmarks } from './declared.js';
import { eventStoreBenchmarks } from './eventstore.js';
import { type Benchmark, type Result, type Settings, table } from './harness.js';
import { importBenchmarks } from './imports.js';
import { ledgerSigningBenchmarks } from './ledger-signing.js';
import { offerBenchmarks } from './offers.js';
import { orderBenchmarks } from './orders.js';
import { projectionBenchmarks } from './projections.js';
import { tracingBenchmarks } from './tracing.js';
import { webhookBenchmarks } from './webhooks.js';

const registry: Benchmark[] = [
  ...eventStoreBenchmarks,
  ...projectionBenchmarks,
  ...offerBenchmarks,
  ...importBenchmarks,
  ...orderBenchmarks,
  ...ledgerSigningBenchmarks,
  ...tracingBenchmarks,
  ...declaredBenchmarks,
  ...webhookBenchmarks,
];

const positiveNumber = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value.replaceAll('_', ''));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${value}`);
  return n;
};

// eslint-disable-next-line max-lines-per-function -- every benchmark in one run, each beside its raw limit
const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  const filters = args.filter((a) => !a.startsWith('--')).map((a) => a.toLowerCase());
  const selected = registry.filter(
    (b) => filters.length === 0 || filters.some((f) => b.name.toLowerCase().includes(f)),
  );

  if (args.includes('--list')) {
    for (const b of selected) console.log(`${b.name.padEnd(24)} ${b.description}`);
    return 0;
  }
  if (selected.length === 0) {
    console.error(`no benchmark matches ${filters.join(', ')}; known: ${registry.map((b) => b.name).join(', ')}`);
    return 2;
  }

  const settings: Settings = {
    events: Math.round(positiveNumber('BENCH_EVENTS', 1_000_000)),
    scale: positiveNumber('BENCH_SCALE', 1),
    rounds: Math.round(positiveNumber('BENCH_ROUNDS', 3)),
  };
  const started = performance.now();
  const log = (line: string) =>
    console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);

  log(
    `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}`,
  );
  log(`settings: BENCH_EVENTS=${settings.events} BENCH_SCALE=${settings.scale} BENCH_ROUNDS=${settings.rounds}`);
  log(`benchmarks: ${selected.map((b) => b.name).join(', ')}`);

  const env = await startEnvironment(settings, log);
  let stopping = false;
  const interrupt = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the server and removing its directory`);
    void env.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  const results: Result[] = [];
  let failed = false;
  try {
    for (const line of await env.describeServer()) log(`server: ${line}`);
    for (const b of selected) {
      await env.settle();
      log(`${b.name}: ${b.description}`);
      try {
        results.push(...(await b.run(env.context)));
      } catch (error) {
        failed = true;
        log(`${b.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
  } finally {
    await env.close();
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }

  log('done; server stopped and its directory removed');
  console.log('');
  console.log('ratio = service / raw (1.00: the service is as fast as plain SQL doing the same work)');
  console.log('');
  console.log(table(results));
  return failed ? 1 : 0;
};

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
