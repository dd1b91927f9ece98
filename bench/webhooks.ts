/**
 * Webhook delivery: BENCH_WEBHOOK_EVENTS events (default 1,000 x BENCH_SCALE) fanned out to
 * 10 loopback endpoints of one supplier, each delivery signed, logged and counted, by the
 * service's background timer loop. Reported: deliveries/s, and the time from an event's
 * append to its first attempt arriving (p50/p99), for the burst and for events appended
 * one by one at a steady rate the service keeps up with. Raw: the same number of signed POSTs
 * sent by a plain undici loop to the same receivers, at the same concurrency; and that loop
 * again with each attempt logged as the contract asks (one multi-row INSERT per 100).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { signatureHeader } from '../src/crypto/signature.js';
import { newId } from '../src/ids.js';
import { type Benchmark, fmt, type Measurement } from './harness.js';
import { raiseSupplierLimits, startBenchService } from './service.js';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const ENDPOINTS = 10;

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

/** CPU time this process spent since `from`, per delivery (µs). */
const cpuPer = (from: NodeJS.CpuUsage, units: number) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / units;
};

export const webhookBenchmarks: Benchmark[] = [
  {
    name: 'webhooks.delivery',
    description:
      'events fanned out to 10 loopback endpoints: deliveries/s and event-to-first-attempt p50/p99, beside a raw undici POST loop',
    // eslint-disable-next-line max-lines-per-function -- one benchmark: setup, measure, raw limit
    async run(ctx) {
      const events = Math.max(50, Math.round(Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000 * ctx.settings.scale)));
      const expected = events * ENDPOINTS;
      const appendedAt = new Map<string, number>();
      const firstSeen = new Map<string, number>();
      let hits = 0;
      let done: () => void = () => undefined;
      const finished = new Promise<void>((r) => (done = r));
      // the paced phase's events: each delivery's arrival after its event's append
      const pacedAt = new Map<string, number>();
      const pacedLatencies: number[] = [];
      const rx = await receivers((id) => {
        const paced = pacedAt.get(id);
        if (paced !== undefined) return void pacedLatencies.push(performance.now() - paced);
        hits++;
        if (!firstSeen.has(id)) firstSeen.set(id, performance.now());
        if (hits === expected) done();
      });
      const { db, service, origin, operatorToken } = await startBenchService(ctx, 'bench_webhooks');
      try {
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
        for (const url of rx.urls) await api(supplier.token, '/api/v1/webhooks', { url, events: ['offer.stock_low'] });
        await service.drain();

        // the events: stock-low signals of the offer, appended in batches of 100
        const started = performance.now();
        const cpu = process.cpuUsage();
        for (let i = 0; i < events; i += 100) {
          const batch = Array.from({ length: Math.min(100, events - i) }, () => ({
            id: newId(),
            type: 'OfferStockLow',
            data: { offerId: offer.id, available: 1, threshold: 2, at: new Date().toISOString() },
          }));
          await service.services.store.append(`bench-stock-${newId()}`, batch, 'no_stream', new Date());
          const now = performance.now();
          for (const e of batch) appendedAt.set(e.id, now);
        }
        await finished;
        const seconds = (performance.now() - started) / 1000;
        const serviceCpu = cpuPer(cpu, expected);

        // paced: events appended one by one at a steady rate well under what the service
        // sends (one each 20 ms, under 500 deliveries/s): the time to each first attempt is
        // then the pipeline's own (append, feed, fan-out, claim, send), not a queue's
        const pacedEvents = Math.max(20, Math.round(200 * ctx.settings.scale));
        const pacedStarted = performance.now();
        for (let i = 0; i < pacedEvents; i++) {
          const id = newId();
          const data = { offerId: offer.id, available: 1, threshold: 2, at: new Date().toISOString() };
          pacedAt.set(id, performance.now());
          await service.services.store.append(
            `bench-paced-${id}`,
            [{ id, type: 'OfferStockLow', data }],
            'no_stream',
            new Date(),
          );
          await new Promise((r) => setTimeout(r, 20));
        }
        const pacedRate = (pacedEvents * ENDPOINTS) / ((performance.now() - pacedStarted) / 1000);
        for (const until = performance.now() + 30_000; pacedLatencies.length < pacedEvents * ENDPOINTS;) {
          if (performance.now() > until)
            throw new Error(`paced deliveries: ${pacedLatencies.length} of ${pacedEvents * ENDPOINTS} arrived`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const pacedFigure = `at a steady ${fmt(pacedRate)} deliveries/s: first attempt p50 ${percentile(pacedLatencies, 50).toFixed(0)} ms, p99 ${percentile(pacedLatencies, 99).toFixed(0)} ms after the event`;
        const latencies = [...firstSeen].map(([id, at]) => at - (appendedAt.get(id) ?? at));
        const serviceFigure: Measurement = { perSecond: expected / seconds, units: expected, seconds };

        // raw: the same number of signed POSTs, 4 in flight per endpoint like the service
        const pools = rx.urls.map((u) => new Pool(new URL(u).origin, { connections: 4 }));
        const body = JSON.stringify({
          id: newId(),
          type: 'offer.stock_low',
          data: { offer_id: offer.id, available: 1, threshold: 2 },
        });
        const rawStarted = performance.now();
        const rawCpuFrom = process.cpuUsage();
        await Promise.all(
          pools.flatMap((pool) =>
            Array.from({ length: 4 }, async (_, lane) => {
              for (let i = lane; i < events; i += 4) {
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
              }
            }),
          ),
        );
        const rawSeconds = (performance.now() - rawStarted) / 1000;
        const rawCpu = cpuPer(rawCpuFrom, expected);

        // raw again, logging every attempt as the contract asks (its request headers and body,
        // the answer's status and body, its duration): one multi-row INSERT per 100 attempts
        // into a copy of webhook_attempts, written beside the sending as the service does
        await db.pool.query('create table bench_raw_attempts (like webhook_attempts including all)');
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
        const loggedStarted = performance.now();
        const loggedCpuFrom = process.cpuUsage();
        await Promise.all(
          pools.flatMap((pool) =>
            Array.from({ length: 4 }, async (_, lane) => {
              for (let i = lane; i < events; i += 4) {
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
              }
            }),
          ),
        );
        if (logged.length > 0) flush();
        await Promise.all(writes);
        const loggedSeconds = (performance.now() - loggedStarted) / 1000;
        const loggedCpu = cpuPer(loggedCpuFrom, expected);
        await Promise.all(pools.map((p) => p.close()));
        ctx.log(
          `  ${fmt(expected)} deliveries in ${seconds.toFixed(1)} s; event to first attempt p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
        );
        ctx.log(`  ${pacedFigure}`);
        // the receivers run in this process too, alike for all three
        ctx.log(
          `  this process's CPU per delivery: service ${fmt(serviceCpu)} µs, raw ${fmt(rawCpu)} µs, raw logging ${fmt(loggedCpu)} µs`,
        );
        return [
          {
            work: `${fmt(events)} events x ${ENDPOINTS} endpoints at once (event to first attempt p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; ${pacedFigure})`,
            unit: 'deliveries',
            service: serviceFigure.perSecond,
            raw: expected / rawSeconds,
          },
          {
            work: `${fmt(events)} events x ${ENDPOINTS} endpoints, beside a raw loop that also logs each attempt (one INSERT per 100)`,
            unit: 'deliveries',
            service: serviceFigure.perSecond,
            raw: expected / loggedSeconds,
          },
        ];
      } finally {
        await service.stop();
        await rx.close();
      }
    },
  },
];
