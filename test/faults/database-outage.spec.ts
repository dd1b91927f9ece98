import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { type Answer, request } from '../support/http.js';
import { keys, stockOf, type Supplier, uploadedOffer, withDb } from '../orders/fixtures.js';
import { eventually, expectUnavailable, startDatabaseRelay } from './support.js';

/**
 * The database goes away under load, twice: first every session of the service is ended
 * by the server (pg_terminate_backend, as a restart or failover does), then the network to
 * it is cut for a while. The process stays up (an unheard `error` would end this run), the
 * requests caught in it answer 503 service_unavailable with Retry-After (never 500),
 * /readyz says 503 while the database is away and 200 once it is back, and the read
 * models and processes resume by themselves: nothing lost, nothing applied twice.
 */
describe('database outage under load', () => {
  let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
  let directUrl: string;
  let svc: TestService;
  let supplier: Supplier;
  let productId: string;
  let offerId: string;
  const STOCK = 200;

  beforeAll(async () => {
    directUrl = await createTestDatabase();
    relay = await startDatabaseRelay(directUrl);
    svc = await startTestService({ databaseUrl: relay.url });
    supplier = await svc.newSupplier('Outage Keys');
    productId = (await svc.newProduct({ name: 'Outage' })).id;
    ({ offerId } = await uploadedOffer(supplier, productId, { price: 1000, values: keys('OUT', STOCK) }));
  });
  afterAll(async () => {
    await svc?.stop();
    await relay?.close();
  });

  const readyz = () => request(svc.origin, 'GET', '/readyz');

  it('fails only the requests caught in it, stays up, reports not ready, and recovers by itself', async () => {
    const stats = { unavailable: 0, inUse: 0, other: [] as string[] };
    /** A client that follows the contract: on 503 retry shortly, on 409 in use wait out Retry-After; same key. */
    const untilAnswered = async (send: () => Promise<Answer>): Promise<Answer> => {
      for (;;) {
        const res = await send();
        if (res.status === 503) {
          expectUnavailable(res);
          stats.unavailable++;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        if (res.status === 409 && res.body.code === 'idempotency_key_in_use') {
          stats.inUse++;
          // the holder died with the connection: its lease lapses after Retry-After (test clock)
          svc.clock.advance(Number(res.headers.get('retry-after')));
          continue;
        }
        return res;
      }
    };

    const answers = new Map<string, string>(); // checkout key -> order id
    let completed = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `outage-${w}-${i}`;
        const placed = await untilAnswered(() =>
          svc.operator.post(
            '/orders',
            { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' },
            { headers: { 'idempotency-key': key } },
          ),
        );
        if (placed.status !== 201) stats.other.push(`checkout ${placed.status} ${placed.text}`);
        answers.set(key, placed.body.id);
        const paid = await untilAnswered(() =>
          svc.operator.post(`/orders/${placed.body.id}/pay`, undefined, {
            headers: { 'idempotency-key': `pay-${key}` },
          }),
        );
        if (paid.status !== 200 || paid.body.status !== 'completed')
          stats.other.push(`pay ${paid.status} ${paid.text}`);
        completed++;
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    const reached = (n: number) =>
      eventually(`${n} orders completed`, async () => (completed >= n ? true : undefined), 30_000);

    // 1. the server ends every session of the service
    await reached(6);
    const admin = new pg.Client({ connectionString: directUrl });
    await admin.connect();
    const terminated = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(terminated.rowCount).toBeGreaterThan(0);

    // 2. the network to the database is cut: not ready while it lasts, ready again after
    await reached(completed + 6);
    relay.cut();
    const notReady = await eventually('/readyz 503', async () => {
      const res = await readyz();
      return res.status === 503 ? res : undefined;
    });
    expect(notReady.body).toEqual({ status: 'database_unreachable' });
    // a checkout made while it lasts is refused at once with the contract's 503 (the workers'
    // own requests may all be waiting for the read models then, and finish after it)
    const during = await svc.operator.post(
      '/orders',
      { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' },
      { headers: { 'idempotency-key': 'during-the-cut' } },
    );
    expectUnavailable(during);
    stats.unavailable++;
    await new Promise((r) => setTimeout(r, 1000));
    expect((await readyz()).status).toBe(503);
    relay.restore();
    const ready = await eventually('/readyz 200', async () => {
      const res = await readyz();
      return res.status === 200 ? res : undefined;
    });
    expect(ready.body).toEqual({ status: 'ready' });

    // 3. load goes on after the outage, then stops
    await reached(completed + 6);
    stop = true;
    await Promise.all(workers);
    await svc.drain();

    expect(stats.other).toEqual([]);
    expect(stats.unavailable).toBeGreaterThan(0);

    // every key answered with its own order, and no order twice
    const n = answers.size;
    const orderIds = [...answers.values()];
    expect(new Set(orderIds).size).toBe(n);
    const facts = await withDb(svc, async (db) => ({
      orderStreams: Number(
        (await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'order-%'`)).rows[0]
          .n,
      ),
      orders: (await db.query(`select status, count(*)::int as n from orders group by status`)).rows,
      items: Number((await db.query(`select count(*) as n from order_items`)).rows[0].n),
      delivered: Number(
        (await db.query(`select count(*) as n from inventory_items where status = 'delivered'`)).rows[0].n,
      ),
    }));
    expect(facts).toEqual({ orderStreams: n, orders: [{ status: 'completed', n }], items: n, delivered: n });
    expect((await stockOf(supplier, offerId)).available).toBe(STOCK - n);

    // the read models applied every event once: caught up, and the ledger matches its events
    expect(await svc.services.projections.caughtUp()).toBe(true);
    const report = await auditLedger(svc.services.store, svc.services.db, { supplierId: supplier.id });
    expect(report).toMatchObject({ entries: n, differences: [] });

    // each stored answer replays the order it named
    for (const [key, orderId] of answers) {
      // as the workers' client: a key whose answer was given just as the database went away
      // is still leased to the request that gave it, and is free again after Retry-After
      const again = await untilAnswered(() =>
        svc.operator.post(
          '/orders',
          { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' },
          { headers: { 'idempotency-key': key } },
        ),
      );
      // such an answer may not have been stored: the retry then re-runs under the key's
      // recorded operation and finds the same order (no replay header)
      expect([again.status, again.body.id]).toEqual([201, orderId]);
      expect(['true', null]).toContain(again.headers.get('idempotent-replay'));
    }
    // nothing went unexplained
    expect(svc.logs.filter((l) => Number(l.level) >= 50).map((l) => l.msg)).toEqual([]);
  }, 240_000);
});
