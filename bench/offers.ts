/**
 * Offers and inventory over HTTP.
 *
 * `offers.upload`: POST /api/v1/offers/{id}/inventory with 1,000 text keys per request
 * (validated, fingerprinted, sealed, stored and recorded as one event before the answer; the
 * read models apply it right after), one request at a time; p50/p99 latency and keys/s, the
 * time running until the read models applied the last upload. Raw: the same
 * 1,000 keys as one multi-row INSERT into a table shaped like inventory_values.
 *
 * `offers.read`: GET /api/v1/offers/{id} at 50 concurrent connections (auth, rate limit,
 * read model, serialisation) to the service in a process of its own, with p50/p99 latency,
 * beside a plain fastify route in another process of its own that reads the same row with
 * one primary-key SELECT through pg on the same database, and that route with the SELECT as
 * a named prepared statement, as the service sends its reads (bench/raw-routes.ts).
 *
 * Both start with the same untimed warm-up on each side (5 uploads; 2 s of reads).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newSecretKey } from '../src/crypto/secret-box.js';
import { newOperatorToken } from '../src/crypto/tokens.js';
import { newId } from '../src/ids.js';
import { type Benchmark, type BenchContext, compared, type Measurement, paired, type Result } from './harness.js';
import { startChild } from './processes.js';
import { raiseSupplierLimits, startBenchService } from './service.js';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** Untimed work before the rounds, the same for the service and its raw counterpart. */
const WARMUP_UPLOADS = 5;
const WARMUP_SECONDS = 2;

const serviceWithOffer = async (ctx: BenchContext) => {
  const { db, service, origin, operatorToken } = await startBenchService(ctx, 'bench_offers');
  const pool = new Pool(origin, { connections: 64 });
  const call = async (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  };
  const supplier = await call(operatorToken, 'POST', '/operator/v1/suppliers', { name: 'Bench' });
  await raiseSupplierLimits(origin, operatorToken, supplier.supplier.id);
  const product = await call(operatorToken, 'POST', '/operator/v1/products', {
    name: 'Bench',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'sellable',
  });
  const offer = await call(supplier.token, 'POST', '/api/v1/offers', {
    product_id: product.id,
    stock_mode: 'uploaded',
    price: { amount: 999, currency: 'EUR' },
    external_ref: 'B',
  });
  return { service, db, pool, origin, token: supplier.token as string, offerId: offer.id as string, call };
};

/** One 1,000-key upload through the service, and the same keys as one raw multi-row INSERT. */
const uploads = (env: Awaited<ReturnType<typeof serviceWithOffer>>) => {
  const batch = () => Array.from({ length: 1000 }, (_, i) => ({ kind: 'text', value: `KEY-${newId()}-${i}` }));
  const serviceUpload = async () => {
    const res = await env.call(env.token, 'POST', `/api/v1/offers/${env.offerId}/inventory`, { items: batch() });
    if (res.accepted !== 1000) throw new Error('upload not accepted whole');
  };
  const rawUpload = async () => {
    const rows = batch();
    const params: unknown[] = [];
    const values = rows.map((row, i) => {
      params.push(newId(), 'bench', 'text', row.value, new Date());
      return `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`;
    });
    await env.db.pool.query(
      `insert into bench_raw_values (item_id, offer_id, kind, sealed, created_at) values ${values.join(',')}`,
      params,
    );
  };
  return { serviceUpload, rawUpload };
};

const upload: Benchmark = {
  name: 'offers.upload',
  description: 'upload 1,000 text keys per request: p50/p99 latency and keys/s, beside one multi-row INSERT',
  async run(ctx) {
    const env = await serviceWithOffer(ctx);
    try {
      await env.db.pool.query('create table bench_raw_values (like inventory_values including all)');
      const requests = Math.max(5, Math.round(30 * ctx.settings.scale));
      const latencies: number[] = [];
      const { serviceUpload, rawUpload } = uploads(env);
      // the same untimed warm-up for both sides, so that a single round is not the JIT's first
      for (let r = 0; r < WARMUP_UPLOADS; r++) await serviceUpload();
      await env.service.services.projections.waitFor(await env.service.services.store.lastCommitted(), 60_000);
      for (let r = 0; r < WARMUP_UPLOADS; r++) await rawUpload();
      const service = async (): Promise<Measurement> => {
        const started = performance.now();
        for (let r = 0; r < requests; r++) {
          const t = performance.now();
          await serviceUpload();
          latencies.push(performance.now() - t);
        }
        // answers go out before the read models apply them: the time runs until they have
        await env.service.services.projections.waitFor(await env.service.services.store.lastCommitted(), 60_000);
        const seconds = (performance.now() - started) / 1000;
        return { perSecond: (requests * 1000) / seconds, units: requests * 1000, seconds };
      };
      const raw = async (): Promise<Measurement> => {
        const started = performance.now();
        for (let r = 0; r < requests; r++) await rawUpload();
        const seconds = (performance.now() - started) / 1000;
        return { perSecond: (requests * 1000) / seconds, units: requests * 1000, seconds };
      };
      const result = await paired(
        ctx,
        `upload 1,000 text keys per request, ${requests} requests`,
        'keys',
        service,
        raw,
      );
      ctx.log(
        `  upload latency per 1,000-key request: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
      );
      return [
        {
          ...result,
          work: `${result.work} (p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms)`,
        },
      ];
    } finally {
      await env.pool.close();
      await env.service.stop();
    }
  },
};

const loop = async (
  pool: Pool,
  path: string,
  headers: Record<string, string>,
  concurrency: number,
  seconds: number,
  latencies: number[] = [],
): Promise<Measurement> => {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const sent = performance.now();
        const res = await pool.request({ method: 'GET', path, headers });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode}`);
        latencies.push(performance.now() - sent);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: done / elapsed, units: done, seconds: elapsed };
};

/** The service in a process of its own with one supplier's offer, and the raw routes in another. */
const servicesApart = async (ctx: BenchContext) => {
  const db = await ctx.freshDatabase('bench_offers_read', 2);
  const databaseUrl = db.pool.options.connectionString!;
  const operatorToken = newOperatorToken();
  const service = await startChild('service-process', {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_OPERATOR_TOKEN: operatorToken,
    BENCH_SECRET_KEY: newSecretKey(),
  });
  const rawRoutes = await startChild('raw-routes', { BENCH_DATABASE_URL: databaseUrl });
  const pool = new Pool(service.origin, { connections: 64 });
  const call = async (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  };
  const supplier = await call(operatorToken, 'POST', '/operator/v1/suppliers', { name: 'Bench' });
  await raiseSupplierLimits(service.origin, operatorToken, supplier.supplier.id);
  const product = await call(operatorToken, 'POST', '/operator/v1/products', {
    name: 'Bench',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'sellable',
  });
  const offer = await call(supplier.token, 'POST', '/api/v1/offers', {
    product_id: product.id,
    stock_mode: 'uploaded',
    price: { amount: 999, currency: 'EUR' },
    external_ref: 'B',
  });
  await service.ask('drain');
  return { db, service, rawRoutes, pool, token: supplier.token as string, offerId: offer.id as string };
};

const read: Benchmark = {
  name: 'offers.read',
  description:
    'GET /offers/{id} at 50 concurrent connections, the service in its own process, beside a plain fastify route in its own process doing one primary-key SELECT through pg',

  async run(ctx): Promise<Result[]> {
    const env = await servicesApart(ctx);
    const rawPool = new Pool(env.rawRoutes.origin, { connections: 64 });
    try {
      const seconds = Math.max(2, 5 * ctx.settings.scale);
      const headers = { authorization: `Bearer ${env.token}` };
      const servicePath = `/api/v1/offers/${env.offerId}`;
      // the same untimed warm-up for both sides, so that a single round is not the JIT's first
      await loop(env.pool, servicePath, headers, 50, WARMUP_SECONDS);
      await loop(rawPool, `/offers/${env.offerId}`, headers, 50, WARMUP_SECONDS);
      await loop(rawPool, `/prepared/offers/${env.offerId}`, headers, 50, WARMUP_SECONDS);
      const latencies = { service: [] as number[], raw: [] as number[], prepared: [] as number[] };
      const [plain, prepared] = await compared(
        ctx,
        'GET /offers/{id}, 50 concurrent connections',
        'requests',
        { run: () => loop(env.pool, servicePath, headers, 50, seconds, latencies.service), cpu: env.service.cpu },
        [
          {
            label: 'a fastify route in its own process, one SELECT by primary key',
            run: () => loop(rawPool, `/offers/${env.offerId}`, headers, 50, seconds, latencies.raw),
            cpu: env.rawRoutes.cpu,
          },
          {
            label: 'the same route with its SELECT prepared',
            run: () => loop(rawPool, `/prepared/offers/${env.offerId}`, headers, 50, seconds, latencies.prepared),
            cpu: env.rawRoutes.cpu,
          },
        ],
      );
      if (process.env.BENCH_PROFILE_DIR) {
        // one more pass, untimed, with the service's CPU profile: where a read's CPU goes
        await env.service.ask('profile-start');
        const m = await loop(env.pool, servicePath, headers, 50, seconds);
        const name = `offers-read-n${m.units}`;
        await env.service.ask(`profile-stop:${name}`);
        ctx.log(`  profile of ${m.units} reads: ${name}.cpuprofile in BENCH_PROFILE_DIR`);
      }
      const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
      const pct = (values: number[]) => `p50 ${p(values, 50)} ms, p99 ${p(values, 99)} ms`;
      plain!.work = `${plain!.work} (${pct(latencies.service)}; raw ${pct(latencies.raw)})`;
      prepared!.work = `${prepared!.work} (raw ${pct(latencies.prepared)})`;
      prepared!.diagnostic = true;
      return [plain!, prepared!];
    } finally {
      await rawPool.close();
      await env.pool.close();
      await env.service.stop();
      await env.rawRoutes.stop();
    }
  },
};

export const offerBenchmarks: Benchmark[] = [upload, read];
