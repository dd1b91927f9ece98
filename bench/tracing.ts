/**
 * `orders.tracing`: what tracing costs a sandbox order, in the service's CPU.
 *
 * Three services, each in a process of its own on a fresh database with the same suppliers and
 * offers: two with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set, exporting over OTLP/HTTP to a
 * collector in a process of its own that keeps nothing), one keeping every trace and one
 * keeping one in ten as a production collector would be fed; one with tracing off.
 * Sandbox orders run end to end over HTTP against each in alternating rounds, at concurrency 1
 * and 32, each round timed until the read models applied its orders (the projections,
 * timers and webhook fan-out it caused are traced work too). The figure is orders per CPU
 * second of the service process; the raw side is the same service with tracing off, so the
 * ratio is the share of an order's CPU left once tracing is taken out (1 / 1.10 = 0.91 is
 * the bound: at most 10 % more CPU per order).
 */
import { compared, type Benchmark, type BenchContext, type Result, throughput } from './harness.js';
import { sandboxOrder, sandboxService } from './orders.js';
import { startChild } from './processes.js';

const WARMUP = 30;
const ORDERS = Math.max(50, Math.round(200 * Number(process.env.BENCH_SCALE ?? 1)));

/** Orders per round at `concurrency`, a service's warm-up, and a side of the comparison. */
const ordersAt = (concurrency: number) => (concurrency === 1 ? ORDERS : ORDERS * 4);
type Service = Awaited<ReturnType<typeof sandboxService>>;
const place = (s: Service, concurrency: number, operations: number) =>
  throughput({ warmup: 0, operations, concurrency, op: (i) => sandboxOrder(s.sellers[i % concurrency]!) });
const side = (s: Service, concurrency: number) => ({
  cpu: s.service.cpu,
  run: async () => {
    const m = await place(s, concurrency, ordersAt(concurrency));
    await s.service.ask('settled');
    return m;
  },
});

const tracingOn = (sink: string, sampler: Record<string, string>) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: sink,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  ...sampler,
  // every span kept: a queue that overflowed would drop spans and flatter the figure
  OTEL_BSP_MAX_QUEUE_SIZE: '100000',
  OTEL_BSP_SCHEDULE_DELAY: '500',
});

/** The three services at `concurrency` (every trace kept, one in ten, tracing off), measured in alternating rounds. */
const atConcurrency = async (ctx: BenchContext, sink: string, concurrency: number): Promise<Result[]> => {
  const perSeller = Math.ceil((WARMUP + 2 * ctx.settings.rounds * ordersAt(concurrency)) / concurrency) + 10;
  const every = await sandboxService(
    ctx,
    concurrency,
    perSeller,
    tracingOn(sink, { OTEL_TRACES_SAMPLER: 'always_on' }),
  );
  const tenth = await sandboxService(
    ctx,
    concurrency,
    perSeller,
    tracingOn(sink, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  );
  const plain = await sandboxService(ctx, concurrency, perSeller, { OTEL_EXPORTER_OTLP_ENDPOINT: '' });
  const off = { ...side(plain, concurrency), label: 'the same service with tracing off' };
  try {
    for (const s of [every, tenth, plain]) await place(s, concurrency, WARMUP);
    const work = (what: string) => `sandbox orders, concurrency ${concurrency}, tracing on, ${what}`;
    return [
      ...(await compared(
        ctx,
        work('every trace kept and exported over OTLP/HTTP'),
        'orders',
        side(every, concurrency),
        [off],
      )),
      ...(await compared(
        ctx,
        work('one trace in ten kept (parentbased_traceidratio 0.1)'),
        'orders',
        side(tenth, concurrency),
        [off],
      )),
    ];
  } finally {
    for (const s of [every, tenth, plain]) {
      await s.client.close();
      await s.rawClient.close();
      await s.service.stop();
      await s.rawRoutes.stop();
    }
  }
};

const tracingCost = async (ctx: BenchContext): Promise<Result[]> => {
  const sink = await startChild('otlp-sink', {});
  const results: Result[] = [];
  try {
    for (const concurrency of [1, 32]) results.push(...(await atConcurrency(ctx, sink.origin, concurrency)));
  } finally {
    await sink.stop();
  }
  // the figure that matters is CPU per order, not the rate: the ratio of orders per CPU second
  return results.map((r) => ({
    ...r,
    work: `${r.work}, in orders per CPU second of the service process`,
    service: 1e6 / (r.cpu?.service ?? Infinity),
    raw: 1e6 / (r.cpu?.raw ?? Infinity),
  }));
};

export const tracingBenchmarks: Benchmark[] = [
  {
    name: 'orders.tracing',
    description: "tracing on: a sandbox order's CPU in the service beside the same service with tracing off",
    run: tracingCost,
  },
];
