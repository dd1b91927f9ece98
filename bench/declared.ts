/**
 * Declared-stock sandbox orders end to end against the reference supplier kit on loopback,
 * at concurrency 32: POST /api/v1/sandbox/orders, then the order is followed until it is
 * completed (reservation at checkout, POST /orders, the first poll returns the items,
 * capture, sale). Beside it, as the "raw" column, the same number of uploaded-stock sandbox
 * orders on the same service: the ratio is what calling the supplier's systems costs.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newId } from '../src/ids.js';
import { startSupplierKit } from '../src/sdk/kit/index.js';
import { type Benchmark, type Measurement, paired } from './harness.js';
import { raiseSupplierLimits, startBenchService } from './service.js';

const CONCURRENCY = 32;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export const declaredBenchmarks: Benchmark[] = [
  {
    name: 'declared.sandbox',
    description:
      'declared-stock sandbox orders end to end against the supplier kit at concurrency 32, beside uploaded-stock ones',
    // eslint-disable-next-line max-lines-per-function -- one benchmark: setup, measure, raw limit
    async run(ctx) {
      const orders = Math.max(CONCURRENCY, Math.round(320 * ctx.settings.scale));
      const kit = await startSupplierKit({ secrets: ['svcsec_placeholder'] });
      const { service, origin, operatorToken } = await startBenchService(ctx, 'bench_declared');
      const pool = new Pool(origin, { connections: 64 });
      const call = async (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
        const res = await pool.request({
          method,
          path,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.body.text();
        if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
        return JSON.parse(text);
      };
      try {
        const secrets: string[] = [];
        const sellers: { token: string; declared: string; uploaded: string }[] = [];
        for (let s = 0; s < CONCURRENCY; s++) {
          const supplier = await call(operatorToken, 'POST', '/operator/v1/suppliers', { name: `Bench ${s}` });
          await raiseSupplierLimits(origin, operatorToken, supplier.supplier.id);
          const p1 = await call(operatorToken, 'POST', '/operator/v1/products', {
            name: `D${s}`,
            type: 'game_key',
            platform: 'steam',
            region: 'EU',
            status: 'sellable',
          });
          const p2 = await call(operatorToken, 'POST', '/operator/v1/products', {
            name: `U${s}`,
            type: 'game_key',
            platform: 'steam',
            region: 'EU',
            status: 'sellable',
          });
          const declared = await call(supplier.token, 'POST', '/api/v1/offers', {
            product_id: p1.id,
            stock_mode: 'declared',
            price: { amount: 1999, currency: 'EUR' },
            external_ref: `D${s}`,
            fulfilment: { base_url: kit.url },
            declared_stock: 100000,
          });
          secrets.push(declared.fulfilment.secret);
          kit.setSecrets(secrets);
          await call(supplier.token, 'POST', `/api/v1/offers/${declared.id}/activate`);
          const uploaded = await call(supplier.token, 'POST', '/api/v1/offers', {
            product_id: p2.id,
            stock_mode: 'uploaded',
            price: { amount: 1999, currency: 'EUR' },
            external_ref: `U${s}`,
          });
          const keys = Math.ceil((orders * ctx.settings.rounds * 2) / CONCURRENCY) + 10;
          for (let k = 0; k < keys; k += 1000)
            await call(supplier.token, 'POST', `/api/v1/offers/${uploaded.id}/inventory`, {
              items: Array.from({ length: Math.min(1000, keys - k) }, () => ({ kind: 'text', value: `K-${newId()}` })),
            });
          await call(supplier.token, 'POST', `/api/v1/offers/${uploaded.id}/activate`);
          sellers.push({ token: supplier.token, declared: declared.id, uploaded: uploaded.id });
        }
        const latencies: number[] = [];
        const run = (which: 'declared' | 'uploaded') => async (): Promise<Measurement> => {
          const started = performance.now();
          let next = 0;
          await Promise.all(
            sellers.map(async (seller) => {
              while (next < orders) {
                next++;
                const t = performance.now();
                let order = await call(seller.token, 'POST', '/api/v1/sandbox/orders', {
                  offer_id: seller[which],
                  quantity: 1,
                  buyer_country: 'DE',
                });
                while (order.status !== 'completed') {
                  await new Promise((r) => setTimeout(r, 5));
                  order = await call(seller.token, 'GET', `/api/v1/orders/${order.id}`);
                }
                if (which === 'declared') latencies.push(performance.now() - t);
              }
            }),
          );
          const seconds = (performance.now() - started) / 1000;
          return { perSecond: orders / seconds, units: orders, seconds };
        };
        const result = await paired(
          ctx,
          `sandbox orders end to end, concurrency ${CONCURRENCY}; raw = uploaded-stock orders`,
          'orders',
          run('declared'),
          run('uploaded'),
        );
        result.work = `declared-stock sandbox orders, concurrency ${CONCURRENCY} (p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms); raw = uploaded-stock orders`;
        return [result];
      } finally {
        await pool.close();
        await service.stop();
        await kit.close();
      }
    },
  },
];
