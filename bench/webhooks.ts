/**
 * Webhook delivery: bursts of BENCH_WEBHOOK_EVENTS events (default 1,000 x BENCH_SCALE)
 * fanned out to 10 loopback endpoints of one supplier, each delivery signed, logged and
 * counted, by the service's background timer loop. Reported: deliveries/s, and the time from
 * an event's append to its first attempt arriving (p50/p99), for the bursts and for events
 * appended one by one at a steady rate the service keeps up with. Raw: the same number of
 * signed POSTs sent by a plain undici loop to the same receivers, at the same concurrency;
 * and that loop again with each attempt logged as the contract asks (one multi-row INSERT
 * per 100). As every paired figure: an untimed warm-up on each side (a tenth of a burst),
 * then BENCH_ROUNDS alternating rounds (service, raw, raw logging), the median of each kept.
 */
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { signatureHeader } from '../src/crypto/signature.js';
import { newId } from '../src/ids.js';
import { type Benchmark, type BenchContext, type Cpu, fmt, median, type Measurement, withCpu } from './harness.js';
import { raiseSupplierLimits, startBenchService } from './service.js';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const ENDPOINTS = 10;
/** Attempts in flight per endpoint: the service's own limit, and the raw loops' lanes. */
const LANES = 4;

const receivers = async (onHit: (eventId: string) => void) => {
  const servers = await Promise.all(
    Array.from({ length: ENDPOINTS }, async () => {
      const server = http.createServer((req, res) => {
        const id = req.headers['x-svc-event-id'];
        req.resume();
        req.on('end', () => {
          if (typeof id === 'string') onHit(id);
          res.writeHead(200);
          res.end('ok');
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return server;
    }),
  );
  return {
    urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`),
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      ),
  };
};

/**
 * A measurement with the CPU time per delivery (µs) of this process (the service or the raw
 * loop, with the receivers) and of the database server.
 */
type Timed = Measurement & Cpu;

const timer = (ctx: BenchContext) => (units: number, run: () => Promise<void>) =>
  withCpu(ctx, async () => {
    const started = performance.now();
    await run();
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: units / seconds, units, seconds };
  });

/** The events of the bursts, and when each arrived at the receivers. */
class Arrivals {
  private appendedAt = new Map<string, number>();
  private pending = 0;
  private done: () => void = () => undefined;
  readonly latencies: number[] = [];
  /** The paced phase's events: each delivery's arrival after its event's append. */
  readonly pacedAt = new Map<string, number>();
  readonly pacedLatencies: number[] = [];

  hit(id: string): void {
    const paced = this.pacedAt.get(id);
    if (paced !== undefined) return void this.pacedLatencies.push(performance.now() - paced);
    const appended = this.appendedAt.get(id);
    if (appended === undefined) return;
    // the first of the event's deliveries to arrive: its first attempt
    if (appended >= 0) this.latencies.push(performance.now() - appended);
    this.appendedAt.set(id, -1);
    if (--this.pending === 0) this.done();
  }

  /** Expects `deliveries` arrivals of events appended from now on; resolves when all came. */
  expect(deliveries: number): { appended: (id: string) => void; all: Promise<void> } {
    this.appendedAt.clear();
    this.pending = deliveries;
    const all = new Promise<void>((r) => (this.done = r));
    return { appended: (id) => this.appendedAt.set(id, performance.now()), all };
  }
}

// eslint-disable-next-line max-lines-per-function -- the three sides of one measurement, sharing their setup
const webhookRuns = async (ctx: BenchContext, urls: string[], arrivals: Arrivals) => {
  const { db, service, origin, operatorToken } = await startBenchService(ctx, 'bench_webhooks');
  const timedRun = timer(ctx);
  const api = async (token: string, path: string, body: unknown) => {
    const res = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const supplier = await api(operatorToken, '/operator/v1/suppliers', { name: 'Bench' });
  await raiseSupplierLimits(origin, operatorToken, supplier.supplier.id);
  const product = await api(operatorToken, '/operator/v1/products', {
    name: 'Bench',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'sellable',
  });
  const offer = await api(supplier.token, '/api/v1/offers', {
    product_id: product.id,
    stock_mode: 'uploaded',
    price: { amount: 100, currency: 'EUR' },
    external_ref: 'B',
  });
  for (const url of urls) await api(supplier.token, '/api/v1/webhooks', { url, events: ['offer.stock_low'] });
  await service.drain();
  const stockLow = () => ({ offerId: offer.id, available: 1, threshold: 2, at: new Date().toISOString() });

  /** The service: `events` stock-low signals of the offer appended in batches of 100, until every delivery arrived. */
  const serviceBurst = (events: number) =>
    timedRun(events * ENDPOINTS, async () => {
      const { appended, all } = arrivals.expect(events * ENDPOINTS);
      for (let i = 0; i < events; i += 100) {
        const batch = Array.from({ length: Math.min(100, events - i) }, () => ({
          id: newId(),
          type: 'OfferStockLow',
          data: stockLow(),
        }));
        await service.services.store.append(`bench-stock-${newId()}`, batch, 'no_stream', new Date());
        for (const e of batch) appended(e.id);
      }
      await all;
    });

  const pools = urls.map((u) => new Pool(new URL(u).origin, { connections: LANES }));
  const body = JSON.stringify({
    id: newId(),
    type: 'offer.stock_low',
    data: { offer_id: offer.id, available: 1, threshold: 2 },
  });
  /** `events` signed POSTs to each endpoint, LANES in flight per endpoint like the service. */
  const lanes = (events: number, send: (pool: Pool) => Promise<void>) =>
    Promise.all(
      pools.flatMap((pool) =>
        Array.from({ length: LANES }, async (_, lane) => {
          for (let i = lane; i < events; i += LANES) await send(pool);
        }),
      ),
    );

  /** Raw: the POSTs alone. */
  const rawBurst = (events: number) =>
    timedRun(events * ENDPOINTS, async () => {
      await lanes(events, async (pool) => {
        const ts = String(Date.now());
        const res = await pool.request({
          method: 'POST',
          path: '/hooks',
          headers: {
            'content-type': 'application/json',
            'x-svc-timestamp': ts,
            'x-svc-signature': signatureHeader(['whsec_bench'], ts, body),
          },
          body,
        });
        await res.body.dump();
      });
    });

  // raw again, logging every attempt as the contract asks (its request headers and body,
  // the answer's status and body, its duration): one multi-row INSERT per 100 attempts
  // into a copy of webhook_attempts, written beside the sending as the service does
  await db.pool.query('create table bench_raw_attempts (like webhook_attempts including all)');
  const loggedBurst = (events: number) =>
    timedRun(events * ENDPOINTS, async () => {
      const logged: unknown[][] = [];
      const writes: Promise<unknown>[] = [];
      const flush = () => {
        const rows = logged.splice(0);
        const column = (i: number) => rows.map((r) => r[i]);
        writes.push(
          db.pool.query(
            `insert into bench_raw_attempts (id, delivery_id, supplier_id, attempt, request_headers, request_body,
               response_status, response_body, duration_ms, error, succeeded, created_at)
             select * from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::jsonb[], $6::text[], $7::int[],
               $8::text[], $9::int[], $10::text[], $11::boolean[], $12::timestamptz[])`,
            Array.from({ length: 12 }, (_, i) => column(i)),
          ),
        );
      };
      await lanes(events, async (pool) => {
        const ts = String(Date.now());
        const headers = {
          'content-type': 'application/json',
          'x-svc-event-id': newId(),
          'x-svc-timestamp': ts,
          'x-svc-signature': signatureHeader(['whsec_bench'], ts, body),
        };
        const sent = performance.now();
        const res = await pool.request({ method: 'POST', path: '/hooks', headers, body });
        const answer = await res.body.text();
        logged.push([
          newId(),
          newId(),
          supplier.supplier.id,
          1,
          JSON.stringify(headers),
          body,
          res.statusCode,
          answer,
          Math.round(performance.now() - sent),
          null,
          true,
          new Date(),
        ]);
        if (logged.length >= 100) flush();
      });
      if (logged.length > 0) flush();
      await Promise.all(writes);
    });

  /**
   * Events appended one by one at a steady rate well under what the service sends (one
   * each 20 ms, under 500 deliveries/s): the time to each first attempt is then the
   * pipeline's own (append, feed, fan-out, claim, send), not a queue's.
   */
  const paced = async (events: number) => {
    const started = performance.now();
    for (let i = 0; i < events; i++) {
      const id = newId();
      arrivals.pacedAt.set(id, performance.now());
      await service.services.store.append(
        `bench-paced-${id}`,
        [{ id, type: 'OfferStockLow', data: stockLow() }],
        'no_stream',
        new Date(),
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    const rate = (events * ENDPOINTS) / ((performance.now() - started) / 1000);
    for (const until = performance.now() + 30_000; arrivals.pacedLatencies.length < events * ENDPOINTS;) {
      if (performance.now() > until)
        throw new Error(`paced deliveries: ${arrivals.pacedLatencies.length} of ${events * ENDPOINTS} arrived`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const l = arrivals.pacedLatencies;
    return `at a steady ${fmt(rate)} deliveries/s: first attempt p50 ${percentile(l, 50).toFixed(0)} ms, p99 ${percentile(l, 99).toFixed(0)} ms after the event`;
  };

  const stop = async () => {
    await Promise.all(pools.map((p) => p.close()));
    await service.stop();
  };
  return { serviceBurst, rawBurst, loggedBurst, paced, stop };
};

type Sides = { service: Timed[]; raw: Timed[]; logged: Timed[] };

/**
 * A CPU profile of this process while `run` runs, written as `<dir>/<name>.cpuprofile`
 * (`bench/profile-summary.ts` reads it). The service sends from this process, so the
 * profile is its sender's; the receivers answer in it too, under this file's frames and
 * Node's HTTP server.
 */
const profiled = async (dir: string, name: string, run: () => Promise<unknown>) => {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await run();
    const { profile } = await session.post('Profiler.stop');
    await writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  } finally {
    session.disconnect();
  }
};

/**
 * CPU per delivery of each side: this process's (the receivers run in it too, alike for
 * all three), the database server's, and both together, with the rate the service's work
 * allows on this machine's cores at most.
 */
const logCpu = (ctx: BenchContext, sides: Sides) => {
  const per = (side: Timed[], of: (m: Timed) => number) => median(side.map(of));
  const line = (of: (m: Timed) => number) =>
    `service ${fmt(per(sides.service, of))} µs, raw ${fmt(per(sides.raw, of))} µs, raw logging ${fmt(per(sides.logged, of))} µs`;
  ctx.log(`  this process's CPU per delivery: ${line((m) => m.cpuPerUnit)}`);
  if (!ctx.serverCpu) return;
  ctx.log(`  the database server's CPU per delivery: ${line((m) => m.serverCpuPerUnit)}`);
  // the bound of the whole machine: its cores' time over the work a delivery takes on it
  const cores = os.availableParallelism();
  const ceiling = (cores * 1e6) / per(sides.service, (m) => m.cpuPerUnit + m.serverCpuPerUnit);
  const rawRate = per(sides.raw, (m) => m.perSecond);
  ctx.log(
    `  both together: ${line((m) => m.cpuPerUnit + m.serverCpuPerUnit)}; with all ${cores} cores busy the service's work allows at most ${fmt(ceiling)} deliveries/s, ${(ceiling / rawRate).toFixed(2)} of the raw loop's rate`,
  );
};

export const webhookBenchmarks: Benchmark[] = [
  {
    name: 'webhooks.delivery',
    description:
      'events fanned out to 10 loopback endpoints: deliveries/s and event-to-first-attempt p50/p99, beside a raw undici POST loop',
    async run(ctx) {
      const events = Math.max(50, Math.round(Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000 * ctx.settings.scale)));
      const arrivals = new Arrivals();
      const rx = await receivers((id) => arrivals.hit(id));
      const runs = await webhookRuns(ctx, rx.urls, arrivals);
      try {
        // the same untimed warm-up for each side, so that no round is the JIT's first
        const warmup = Math.max(10, Math.round(events / 10));
        await runs.serviceBurst(warmup);
        await runs.rawBurst(warmup);
        await runs.loggedBurst(warmup);
        arrivals.latencies.length = 0;

        const sides: Sides = { service: [], raw: [], logged: [] };
        for (let round = 0; round < ctx.settings.rounds; round++) {
          sides.service.push(await runs.serviceBurst(events));
          sides.raw.push(await runs.rawBurst(events));
          sides.logged.push(await runs.loggedBurst(events));
          const [s, r, l] = [sides.service, sides.raw, sides.logged].map((side) => side.at(-1)!);
          ctx.log(
            `  ${fmt(events * ENDPOINTS)} deliveries, round ${round + 1}/${ctx.settings.rounds}: service ${fmt(s!.perSecond)}/s (${s!.seconds.toFixed(1)} s), raw ${fmt(r!.perSecond)}/s (${r!.seconds.toFixed(1)} s), raw logging ${fmt(l!.perSecond)}/s (${l!.seconds.toFixed(1)} s)`,
          );
        }
        const latencies = [...arrivals.latencies];
        const pacedFigure = await runs.paced(Math.max(20, Math.round(200 * ctx.settings.scale)));
        const rate = (side: Timed[]) => median(side.map((m) => m.perSecond));
        const burstFigure = `event to first attempt p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`;
        ctx.log(`  bursts: ${burstFigure}`);
        ctx.log(`  ${pacedFigure}`);
        logCpu(ctx, sides);
        if (process.env.BENCH_PROFILE_DIR) {
          // one more burst of the service, untimed and profiled, as the other figures do
          const name = `webhooks-burst-n${events * ENDPOINTS}`;
          await profiled(process.env.BENCH_PROFILE_DIR, name, () => runs.serviceBurst(events));
          ctx.log(`  profile of ${fmt(events * ENDPOINTS)} deliveries: ${name}.cpuprofile in BENCH_PROFILE_DIR`);
        }
        return [
          {
            work: `${fmt(events)} events x ${ENDPOINTS} endpoints at once (${burstFigure}; ${pacedFigure})`,
            unit: 'deliveries',
            service: rate(sides.service),
            raw: rate(sides.raw),
          },
          {
            work: `${fmt(events)} events x ${ENDPOINTS} endpoints, beside a raw loop that also logs each attempt (one INSERT per 100)`,
            unit: 'deliveries',
            service: rate(sides.service),
            raw: rate(sides.logged),
          },
        ];
      } finally {
        await runs.stop();
        await rx.close();
      }
    },
  },
];
