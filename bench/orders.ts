/**
 * Orders and the ledger.
 *
 * `orders.sandbox`: sandbox orders end to end over HTTP (POST /api/v1/sandbox/orders answers
 * once the order is placed, paid, its keys delivered and the sale entry posted, all stored;
 * the read models apply it right after, and the supplier's next read on the instance waits
 * for them), at concurrency 1 and 32, with p50 and p99 latency. The throughput's time runs
 * until the read models applied the last order, so it counts their work too. The raw
 * figure does, per order, one plain INSERT transaction per append the service commits for
 * one order, each with as many rows as that append's events, at the same concurrency: the
 * floor of durable writes the order needs.
 *
 * `orders.audit`: the ledger auditor (`npm run cli -- ledger audit`) over BENCH_EVENTS
 * ledger events (1,000,000 by default: SaleCredited and SaleSettled events written with
 * multi-row appends through the event store, the read models filled from the same
 * `ledgerEntries` the projection uses). The raw figure reads the same events and read-model
 * rows with plain keyset SELECTs, without replaying or comparing anything.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { type Dispatcher, Pool } from 'undici';
import { auditLedger } from '../src/cli/ledger-audit.js';
import { newSecretKey } from '../src/crypto/secret-box.js';
import { newOperatorToken } from '../src/crypto/tokens.js';
import type { BalanceEvent } from '../src/domain/balance.js';
import { commissionFor } from '../src/domain/money.js';
import { PostgresEventStore } from '../src/eventstore/postgres.js';
import { type NewEvent, type RecordedEvent, START } from '../src/eventstore/port.js';
import type { Db } from '../src/db/connect.js';
import { newId } from '../src/ids.js';
import { ledgerEntries, ledgerProjection } from '../src/projections/ledger.js';
import {
  type Benchmark,
  type BenchContext,
  compared,
  fmt,
  type Measurement,
  paired,
  type Result,
  throughput,
  timed,
} from './harness.js';
import { type Child, startChild } from './processes.js';
import { raiseSupplierLimits } from './service.js';

/** The event rows the raw route writes per order: what one sandbox order appends today. */
const ORDER_ROWS = Number(process.env.BENCH_ORDER_ROWS ?? 7);

const eur = (amount: number) => ({ amount, currency: 'EUR' });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

/** Like `throughput`, also keeping each timed operation's latency. */
const withLatencies = async (o: {
  warmup: number;
  operations: number;
  concurrency: number;
  op: (i: number) => Promise<void>;
}) => {
  const latencies: number[] = [];
  const measurement = await throughput({
    ...o,
    op: async (i) => {
      const started = performance.now();
      await o.op(i);
      if (i >= o.warmup) latencies.push(performance.now() - started);
    },
  });
  return { measurement, latencies };
};

/** An answer as the benchmark's client gives it. */
interface Answer {
  status: number;
  text: () => Promise<string>;
}

const json = async (res: Answer, expected: number, what: string) => {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${text}`);
  return JSON.parse(text);
};

/**
 * One sandbox service in a process of its own on a fresh database, with suppliers whose
 * offers hold enough keys, and the raw routes in another process on the same database.
 */
// eslint-disable-next-line max-lines-per-function -- the benchmark's service, suppliers and offers, each set up once
export const sandboxService = async (
  ctx: BenchContext,
  suppliers: number,
  keysEach: number,
  /** Further settings of the service's process (tracing's, for `orders.tracing`). */
  extraEnv: Record<string, string> = {},
) => {
  const db = await ctx.freshDatabase('bench_orders', 2);
  const databaseUrl = db.pool.options.connectionString!;
  const operatorToken = newOperatorToken();
  // what another instance of the same service is started with (bench/ledger-signing.ts)
  const serviceEnv = {
    ...extraEnv,
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_OPERATOR_TOKEN: operatorToken,
    BENCH_SECRET_KEY: newSecretKey(),
  };
  const service = await startChild('service-process', serviceEnv);
  const rawRoutes = await startChild('raw-routes', { BENCH_DATABASE_URL: databaseUrl });
  const origin = service.origin;
  const client = new Pool(origin, { connections: 64 });
  const rawClient = new Pool(rawRoutes.origin, { connections: 64 });
  const call =
    (token: string) =>
    async (method: string, path: string, body?: unknown): Promise<Answer> => {
      const res = await client.request({
        method: method as Dispatcher.HttpMethod,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, text: async () => text };
    };
  const operator = call(operatorToken);
  const product = await json(
    await operator('POST', '/operator/v1/products', {
      name: 'Bench Odyssey',
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
    }),
    201,
    'product',
  );
  const sellers: { api: ReturnType<typeof call>; offerId: string }[] = [];
  for (let s = 0; s < suppliers; s++) {
    const created = await json(
      await operator('POST', '/operator/v1/suppliers', { name: `Bench Supplier ${s}` }),
      201,
      'supplier',
    );
    await raiseSupplierLimits(origin, operatorToken, created.supplier.id);
    const api = call(created.token);
    // one offer per product and supplier: each supplier sells its own copy of the product
    const own =
      s === 0
        ? product
        : await json(
            await operator('POST', '/operator/v1/products', {
              name: `Bench ${s}`,
              type: 'game_key',
              platform: 'steam',
              region: 'EU',
              status: 'sellable',
            }),
            201,
            'product',
          );
    const offer = await json(
      await api('POST', '/api/v1/offers', {
        product_id: own.id,
        stock_mode: 'uploaded',
        price: eur(1999),
        external_ref: `BENCH-${s}`,
      }),
      201,
      'offer',
    );
    for (let k = 0; k < keysEach; k += 1000) {
      const items = Array.from({ length: Math.min(1000, keysEach - k) }, (_, j) => ({
        kind: 'text',
        value: `BENCH-${s}-${k + j}-${newId()}`,
      }));
      await json(await api('POST', `/api/v1/offers/${offer.id}/inventory`, { items }), 201, 'upload');
    }
    await json(await api('POST', `/api/v1/offers/${offer.id}/activate`), 200, 'activate');
    sellers.push({ api, offerId: offer.id });
  }
  await service.ask('drain');
  return { service, serviceEnv, rawRoutes, db, sellers, client, rawClient, operatorToken };
};

export type Seller = { api: (method: string, path: string, body?: unknown) => Promise<Answer>; offerId: string };

/** One sandbox order, checked: the answer comes once it is completed with its key delivered. */
export const sandboxOrder = async (seller: Seller) => {
  const order = await json(
    await seller.api('POST', '/api/v1/sandbox/orders', { offer_id: seller.offerId, quantity: 1, buyer_country: 'DE' }),
    201,
    'sandbox order',
  );
  if (order.status !== 'completed' || order.items[0].fulfilment.inventory_item_ids.length !== 1)
    throw new Error(`order not completed: ${JSON.stringify(order)}`);
};

/**
 * The statements one sandbox order costs the database, counted by pg_stat_statements over
 * `orders` orders one at a time until the read models applied them (the background loops'
 * polls in those seconds included): the total per order and the shapes above a tenth.
 */
const statementsPerOrder = async (
  ctx: BenchContext,
  db: Db,
  service: Child,
  seller: Seller,
  orders: number,
): Promise<string> => {
  await service.ask('settled');
  await ctx.statements.reset();
  for (let i = 0; i < orders; i++) await sandboxOrder(seller);
  await service.ask('settled');
  const rows = await ctx.statements.of(db);
  const total = rows.reduce((sum, r) => sum + r.calls, 0);
  const shapes = rows
    .filter((r) => r.calls / orders >= 0.1)
    .map((r) => `    ${(r.calls / orders).toFixed(2).padStart(6)}  ${r.query.replace(/\s+/g, ' ').slice(0, 100)}`);
  return [
    `statements per order: ${(total / orders).toFixed(2)} (pg_stat_statements, ${orders} orders one at a time)`,
    ...shapes,
  ].join('\n');
};

// eslint-disable-next-line max-lines-per-function -- one benchmark: setup, measure, both raw limits
const sandboxOrders = async (ctx: BenchContext): Promise<Result[]> => {
  const results: Result[] = [];
  const rounds = ctx.settings.rounds;
  const counted = 50;
  for (const concurrency of [1, 32]) {
    const warmup = concurrency === 1 ? 20 : 64;
    const operations = Math.max(concurrency, Math.round((concurrency === 1 ? 300 : 1500) * ctx.settings.scale));
    // the measured rounds, the profiled pass when asked for, the counted orders, the first order
    const passes = rounds + (process.env.BENCH_PROFILE_DIR ? 1 : 0);
    const perSeller =
      Math.ceil(((warmup + operations) * passes + (concurrency === 1 ? counted : 0)) / concurrency) + 10;
    ctx.log(`  concurrency ${concurrency}: ${concurrency} supplier(s), ${fmt(perSeller)} keys each`);
    const { service, rawRoutes, db, sellers, client, rawClient } = await sandboxService(ctx, concurrency, perSeller);
    try {
      // the appends one sandbox order commits, as the number of events in each, in order
      const before = (await db.pool.query('select coalesce(max(position), 0) as p from es_events')).rows[0].p;
      await sandboxOrder(sellers[0]!);
      await service.ask('drain');
      const appends: number[] = (
        await db.pool.query(
          'select count(*)::int as n from es_events where position > $1 group by transaction_id order by min(position)',
          [before],
        )
      ).rows.map((r) => r.n);
      const events = appends.reduce((a, b) => a + b, 0);
      ctx.log(`  one sandbox order commits ${events} events in ${appends.length} appends (${appends.join(', ')})`);
      if (appends.length !== 1 || events !== ORDER_ROWS)
        ctx.log(`  (the raw route writes ${ORDER_ROWS} rows in one transaction: set BENCH_ORDER_ROWS to match)`);
      if (concurrency === 1)
        for (const line of (await statementsPerOrder(ctx, db, service, sellers[0]!, counted)).split('\n'))
          ctx.log(`  ${line}`);
      const raw = await ctx.freshDatabase('bench_orders_raw', concurrency);
      await raw.pool.query('create table bench_raw_events (like es_events including all)');

      const latencies = { service: [] as number[], route: [] as number[], loop: [] as number[] };
      let seq = 0;
      const service1 = async (): Promise<Measurement> => {
        const run = await withLatencies({
          warmup,
          operations,
          concurrency,
          op: (i) => sandboxOrder(sellers[i % concurrency]!),
        });
        latencies.service.push(...run.latencies);
        // answers go out before the read models apply them: the time runs until they have
        const started = performance.now();
        await service.ask('settled');
        const seconds = run.measurement.seconds + (performance.now() - started) / 1000;
        return { ...run.measurement, seconds, perSecond: run.measurement.units / seconds };
      };
      const route = async (): Promise<Measurement> => {
        const run = await withLatencies({
          warmup,
          operations,
          concurrency,
          op: async (i) => {
            const res = await rawClient.request({
              method: 'POST',
              path: '/orders',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ offer_id: sellers[i % concurrency]!.offerId, quantity: 1, buyer_country: 'DE' }),
            });
            await json({ status: res.statusCode, text: () => res.body.text() }, 201, 'raw order');
          },
        });
        latencies.route.push(...run.latencies);
        return run.measurement;
      };
      const loop = async (): Promise<Measurement> => {
        const run = await withLatencies({
          warmup,
          operations,
          concurrency,
          op: async (i) => {
            // one INSERT transaction per append of the service, with as many rows
            for (const [a, rows] of appends.entries()) {
              const stream = `order-${i}-${seq++}`;
              const params = Array.from({ length: rows }, (_, e) => [
                stream,
                e,
                newId(),
                'BenchOrderStep',
                JSON.stringify({ orderId: `o-${i}`, step: a, amount: 1999 }),
                '{"mode":"test"}',
                new Date(),
              ]);
              await raw.pool.query(
                `insert into bench_raw_events (stream_id, stream_revision, event_id, type, data, metadata, created_at) values ${params
                  .map((_, r) => `(${Array.from({ length: 7 }, (_, c) => `$${r * 7 + c + 1}`).join(', ')})`)
                  .join(', ')}`,
                params.flat(),
              );
            }
          },
        });
        latencies.loop.push(...run.latencies);
        return run.measurement;
      };
      const pct = (v: number[]) => `p50 ${ms(percentile(v, 50))}, p99 ${ms(percentile(v, 99))}`;
      const [againstRoute, againstLoop] = await compared(
        ctx,
        `sandbox orders end to end, concurrency ${concurrency}`,
        'orders',
        { run: service1, cpu: service.cpu },
        [
          { label: 'the raw route', run: route, cpu: rawRoutes.cpu },
          { label: 'the raw loop', run: loop },
        ],
        { rounds },
      );
      againstRoute!.work = `sandbox orders end to end, concurrency ${concurrency} (${pct(latencies.service)}; raw: a fastify route in its own process writing ${ORDER_ROWS} event rows in one transaction, ${pct(latencies.route)})`;
      againstLoop!.work = `the same orders; raw: ${appends.length} INSERT transaction(s) of ${events} rows per order from a loop in the benchmark's process, ${pct(latencies.loop)}`;
      againstLoop!.diagnostic = true;
      for (const r of [againstRoute!, againstLoop!]) ctx.log(`  ${r.work}`);
      results.push(againstRoute!, againstLoop!);
      if (process.env.BENCH_PROFILE_DIR) {
        // one more pass, untimed, with the service's CPU profile: where an order's CPU goes
        await service.ask('profile-start');
        await throughput({ warmup: 0, operations, concurrency, op: (i) => sandboxOrder(sellers[i % concurrency]!) });
        await service.ask('settled');
        const name = `sandbox-orders-c${concurrency}-n${operations}`;
        await service.ask(`profile-stop:${name}`);
        ctx.log(`  profile of ${operations} orders: ${name}.cpuprofile in BENCH_PROFILE_DIR`);
      }
    } finally {
      await client.close();
      await rawClient.close();
      await service.stop();
      await rawRoutes.stop();
    }
  }
  return results;
};

const SUPPLIERS = 1000;
const APPEND = 1000; // events per multi-row append
const BASE = Date.parse('2026-01-05T10:00:00.000Z');

/** The ledger events of one supplier's chunk: each sale credited, then settled 10 minutes later. */
const ledgerChunk = (supplierId: string, firstSale: number, sales: number): NewEvent[] =>
  Array.from({ length: sales }, (_, k) => {
    const n = firstSale + k;
    const orderItemId = `${supplierId}-i${n}`;
    const at = new Date(BASE + n * 1000).toISOString();
    const availableAt = new Date(BASE + n * 1000 + 600_000).toISOString();
    const gross = 500 + (n % 5000);
    const commission = commissionFor(gross);
    const net = gross - commission;
    const ref = { supplierId, orderId: `${supplierId}-o${n}`, orderItemId };
    const credited: BalanceEvent = {
      type: 'SaleCredited',
      data: {
        ...ref,
        entryId: `sale-${orderItemId}`,
        gross,
        commission,
        net,
        availableAt,
        postings: [
          { account: 'buyer_funds', amount: -gross },
          { account: 'supplier_pending', amount: net },
          { account: 'platform_commission', amount: commission },
        ],
        at,
      },
    };
    const settled: BalanceEvent = {
      type: 'SaleSettled',
      data: {
        ...ref,
        entryId: `settlement-${orderItemId}`,
        net,
        postings: [
          { account: 'supplier_pending', amount: -net },
          { account: 'supplier_available', amount: net },
        ],
        at: availableAt,
      },
    };
    return [credited, settled];
  })
    .flat()
    .map((e) => ({ type: e.type, data: e.data, metadata: { supplier_id: supplierId, mode: 'test' as const } }));

// eslint-disable-next-line max-lines-per-function -- one benchmark: setup, measure, raw limit
const ledgerAuditBench = async (ctx: BenchContext): Promise<Result[]> => {
  const total = Math.max(SUPPLIERS * 2, ctx.settings.events - (ctx.settings.events % (SUPPLIERS * 2)));
  const db = await ctx.freshDatabase('bench_ledger', 8);
  await db.pool.query(ledgerProjection.ddl('public')); // the projection runner makes these tables at start
  const store = new PostgresEventStore(db.pool);
  const perSupplier = total / SUPPLIERS;
  const appendsPerSupplier = Math.ceil(perSupplier / APPEND);
  ctx.log(
    `  writing ${fmt(total)} ledger events: ${fmt(SUPPLIERS)} balance streams, appends of up to ${APPEND} events`,
  );
  const write = await throughput({
    warmup: 0,
    operations: SUPPLIERS * appendsPerSupplier,
    concurrency: 2,
    op: async (a) => {
      const supplierId = `sup-${String(a % SUPPLIERS).padStart(4, '0')}`;
      const chunk = Math.floor(a / SUPPLIERS);
      const sales = Math.min(APPEND, perSupplier - chunk * APPEND) / 2;
      await store.append(
        `balance-${supplierId}`,
        ledgerChunk(supplierId, (chunk * APPEND) / 2, sales),
        'any',
        new Date(BASE),
      );
      return sales * 2;
    },
  });
  ctx.log(`  written in ${write.seconds.toFixed(1)} s (${fmt(write.perSecond)} events/s)`);

  // the read models the projection would have made, from the same function
  const fill = await timed(async () => {
    const balances = new Map<string, { pending: number; available: number; at: string }>();
    let events = 0;
    for (let after = START; ;) {
      const page = await store.readAll(after, 5000);
      if (page.length === 0) break;
      after = page[page.length - 1]!.position;
      events += page.length;
      const rows = page.flatMap((e) => ledgerEntries(e as RecordedEvent<BalanceEvent['data']>));
      for (const r of rows) {
        const b = balances.get(r.supplier_id) ?? { pending: 0, available: 0, at: r.created_at };
        b[r.account] += r.amount;
        b.at = r.created_at > b.at ? r.created_at : b.at;
        balances.set(r.supplier_id, b);
      }
      const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
      await sql`insert into balance_entries (id, seq, supplier_id, type, account, amount, order_id, order_item_id, created_at, available_at)
        select * from unnest(${col('id')}::text[], ${col('seq')}::bigint[], ${col('supplier_id')}::text[], ${col('type')}::text[], ${col('account')}::text[],
          ${col('amount')}::bigint[], ${col('order_id')}::text[], ${col('order_item_id')}::text[], ${col('created_at')}::timestamptz[], ${col('available_at')}::timestamptz[])`.execute(
        db.kysely,
      );
    }
    for (const [supplierId, b] of balances)
      await db.kysely
        .insertInto('balances')
        .values({ supplier_id: supplierId, pending: b.pending, available: b.available, updated_at: b.at })
        .execute();
    return events;
  });
  ctx.log(`  read models filled in ${fill.seconds.toFixed(1)} s; vacuum analyze`);
  await db.pool.query('vacuum (analyze) es_events, balance_entries, balances');
  await db.pool.query('checkpoint');

  const service = async (): Promise<Measurement> => {
    let report: Awaited<ReturnType<typeof auditLedger>> | undefined;
    const m = await timed(async () => {
      report = await auditLedger(store, db.kysely);
      return report.ledgerEvents;
    });
    if (!report || report.differences.length > 0 || report.ledgerEvents !== total)
      throw new Error(
        `the audit of a clean ledger failed: ${report?.ledgerEvents} events, ${report?.differences.slice(0, 3).join('; ')}`,
      );
    return m;
  };
  const raw = () =>
    timed(async () => {
      let events = 0;
      let after = { commit: '0', prepare: '0' };
      for (;;) {
        const { rows } = await db.pool.query<{ commit: string; position: string }>(
          `select transaction_id::text as commit, position, stream_id, stream_revision, event_id, type, data, metadata, created_at
             from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint) order by transaction_id, position limit 5000`,
          [after.commit, after.prepare],
        );
        if (rows.length === 0) break;
        events += rows.length;
        after = { commit: rows[rows.length - 1]!.commit, prepare: String(rows[rows.length - 1]!.position) };
      }
      await db.pool.query('select * from balance_entries');
      await db.pool.query('select * from balances');
      return events;
    });
  return [
    await paired(
      ctx,
      `ledger audit over ${fmt(total)} ledger events (raw: the same rows read, nothing compared)`,
      'events',
      service,
      raw,
      { rounds: 1 },
    ),
  ];
};

export const orderBenchmarks: Benchmark[] = [
  {
    name: 'orders.sandbox',
    description:
      'sandbox orders/s over HTTP, placed to completed with the ledger posted (timed until the read models applied the last), concurrency 1 and 32',
    run: sandboxOrders,
  },
  {
    name: 'orders.audit',
    description: 'ledger audit events/s over BENCH_EVENTS SaleCredited/SaleSettled events',
    run: ledgerAuditBench,
  },
];
