/**
 * `inventory.import`: a file of 100,000 text keys imported through the service
 * (POST /api/v1/offers/{id}/inventory/imports: read, judged, sealed and stored as 100 value
 * sets, then recorded on the offer a thousand keys at a time by the import's timer), the time
 * running from the request until the import is completed and the read models applied it.
 * Raw: the same 100,000 keys as 100 multi-row INSERTs of 1,000 rows into a table shaped like
 * inventory_values, in this process (their text and parameters built before the clock starts),
 * as `offers.upload` measures its raw side.
 */
import { performance } from 'node:perf_hooks';
import { newId } from '../src/ids.js';
import { type Benchmark, type Measurement, paired } from './harness.js';
import { raiseSupplierLimits, startBenchService } from './service.js';

const KEYS = 100_000;
const ROWS_PER_INSERT = 1000;

type Call = (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => Promise<any>;

const caller =
  (origin: string): Call =>
  async (token, method, path, body) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };

/** A supplier with raised limits and an uploaded offer: its token and the offer's id. */
const supplierWithOffer = async (call: Call, origin: string, operatorToken: string) => {
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
  return { token: supplier.token as string, offerId: offer.id as string };
};

const keys = () => Array.from({ length: KEYS }, (_, i) => `KEY-${newId()}-${i}`);

const importBenchmark: Benchmark = {
  name: 'inventory.import',
  description: 'import a file of 100,000 keys until stored and applied, beside 100 multi-row INSERTs of the same rows',
  async run(ctx) {
    const { db, service, origin, operatorToken } = await startBenchService(ctx, 'bench_imports');
    const call = caller(origin);
    try {
      await db.pool.query('create table bench_raw_import_values (like inventory_values including all)');
      const imported = async (): Promise<Measurement> => {
        // an offer of its own each round, made before the clock starts: every round imports
        // the same file into an empty offer, as the raw side's rounds insert the same rows
        const { token, offerId } = await supplierWithOffer(call, origin, operatorToken);
        const content = keys().join('\n');
        const started = performance.now();
        const job = await call(token, 'POST', `/api/v1/offers/${offerId}/inventory/imports`, { content });
        for (;;) {
          const now = await call(token, 'GET', `/api/v1/offers/${offerId}/inventory/imports/${job.id}`);
          if (now.status === 'completed') {
            if (now.added !== KEYS) throw new Error(`import added ${now.added} of ${KEYS}`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await service.services.projections.waitFor(await service.services.store.lastCommitted(), 120_000);
        const seconds = (performance.now() - started) / 1000;
        return { perSecond: KEYS / seconds, units: KEYS, seconds };
      };
      const raw = async (): Promise<Measurement> => {
        // the rows' ids made and the statements' text and parameters built before the clock
        // starts, the columns every row shares sent once per statement: the raw side is the
        // INSERTs alone
        const all = keys();
        const statements = Array.from({ length: Math.ceil(KEYS / ROWS_PER_INSERT) }, (_, n) => {
          const rows = all.slice(n * ROWS_PER_INSERT, (n + 1) * ROWS_PER_INSERT);
          const params: unknown[] = ['bench', 'text', new Date()];
          const values = rows.map((value, i) => {
            params.push(newId(), value);
            return `($${i * 2 + 4}, $1, $2, $${i * 2 + 5}, $3)`;
          });
          const text = `insert into bench_raw_import_values (item_id, offer_id, kind, sealed, created_at) values ${values.join(',')}`;
          return { text, params };
        });
        const started = performance.now();
        for (const { text, params } of statements) await db.pool.query(text, params);
        const seconds = (performance.now() - started) / 1000;
        return { perSecond: KEYS / seconds, units: KEYS, seconds };
      };
      return [await paired(ctx, 'import a file of 100,000 text keys until stored', 'keys', imported, raw)];
    } finally {
      await service.stop();
    }
  },
};

export const importBenchmarks: Benchmark[] = [importBenchmark];
