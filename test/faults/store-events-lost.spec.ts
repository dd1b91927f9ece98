import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { verifyLedger } from '../../src/cli/ledger-verify.js';
import { eventually } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { allPages, keys, stockOf, type Supplier, uploadedOffer, withDb } from '../orders/fixtures.js';
import { expectUnavailable } from './support.js';

/**
 * The store loses its last events behind the instance's back while everything else in the
 * database stays (as when the events live in a store restored apart from the read models):
 * the read models, the stored answer of the order's Idempotency-Key and the instance's
 * memory are all ahead of it. The instance notices, rebuilds the read models from the events
 * the store has, and the key's retry runs the order again instead of replaying an order the
 * store does not hold.
 */
describe('events lost from the store under a running instance', () => {
  let svc: TestService;
  let supplier: Supplier;
  let offerId: string;
  const STOCK = 10;

  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier('Lost Keys');
    const productId = (await svc.newProduct({ name: 'Lost' })).id;
    ({ offerId } = await uploadedOffer(supplier, productId, { price: 1200, values: keys('LST', STOCK) }));
  });
  afterAll(() => svc?.stop());

  const readyz = () => request(svc.origin, 'GET', '/readyz');
  const order = (key: string) =>
    supplier.api.post(
      '/sandbox/orders',
      { offer_id: offerId, quantity: 1, buyer_country: 'DE' },
      { headers: { 'idempotency-key': key } },
    );
  const orderIdsRead = async () => (await allPages(supplier.api, '/orders')).items.map((o) => o.id as string).sort();
  const orderIdsStored = () =>
    withDb(svc, async (db) =>
      (
        await db.query<{ id: string }>(
          `select distinct substr(stream_id, 7) as id from es_events where stream_id like 'order-%' order by 1`,
        )
      ).rows.map((r) => r.id),
    );

  it('rebuilds the read models from the events left, and a lost order key runs again rather than replaying', async () => {
    const kept = await order('kept');
    expect(kept.status, kept.text).toBe(201);
    // ten minutes on (its sale settles), the store is found whole; then an order whose events
    // are about to go
    await svc.advance(600);
    await svc.rewindWatch.probe();
    const last = await svc.services.store.lastCommitted();
    const gone = await order('gone');
    expect(gone.status, gone.text).toBe(201);
    await svc.drain();
    expect(await orderIdsRead()).toEqual([kept.body.id, gone.body.id].sort());

    // a transaction of the test holds the idempotency keys, so the recovery stays under way
    // while the test looks at it; then every event after the kept order is deleted
    const holder = new pg.Client({ connectionString: svc.databaseUrl });
    await holder.connect();
    await holder.query('begin; lock table idempotency_keys in share mode');
    const deleted = await withDb(svc, (db) =>
      db.query(`delete from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint)`, [
        last.commit.toString(),
        last.prepare.toString(),
      ]),
    );
    const deletedAt = performance.now();
    expect(deleted.rowCount).toBeGreaterThan(0);

    await eventually('readyz says store_rewound', async () => (await readyz()).body?.status === 'store_rewound', {
      everyMs: 20,
    });
    expect(performance.now() - deletedAt).toBeLessThan(5000);
    expectUnavailable(await order('during-recovery'));
    const metrics = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(metrics.text).toMatch(/^svc_store_rewinds_total\{cause="witness_lost"\} 1$/m);
    expect(metrics.text).toMatch(/^svc_ready 0$/m);
    await holder.query('commit');
    await holder.end();
    await eventually('ready again', async () => (await readyz()).status === 200);

    // the read models are the store's again
    expect(await orderIdsStored()).toEqual([kept.body.id]);
    expect(await orderIdsRead()).toEqual([kept.body.id]);
    expect((await supplier.api.get(`/orders/${gone.body.id}`)).status).toBe(404);
    expect((await stockOf(supplier, offerId)).available).toBe(STOCK - 1);

    // the key answered before the store was last found whole still replays; the lost order's
    // key runs again under its recorded identity, and places that very order for real
    const replayed = await order('kept');
    expect([replayed.status, replayed.body.id, replayed.headers.get('idempotent-replay')]).toEqual([
      201,
      kept.body.id,
      'true',
    ]);
    const rerun = await order('gone');
    expect([rerun.status, rerun.body.id, rerun.headers.get('idempotent-replay')]).toEqual([201, gone.body.id, null]);
    await svc.drain();
    const both = [kept.body.id, gone.body.id].sort();
    expect(await orderIdsStored()).toEqual(both);
    expect(await orderIdsRead()).toEqual(both);
    expect((await stockOf(supplier, offerId)).available).toBe(STOCK - 2);

    // the kept order's sale and its settlement (pending to available: two entries), and the
    // sale of the order placed again
    const audit = await auditLedger(svc.services.store, svc.services.db, { supplierId: supplier.id });
    expect(audit).toMatchObject({ entries: 1 + 2 + 1, differences: [] });
    expect((await verifyLedger(svc.services.store, svc.services.ledger)).refused).toEqual([]);
    expect(svc.logs.filter((l) => Number(l.level) >= 50).map((l) => l.msg)).toEqual([
      'the event store went back in time: it no longer holds what this instance saw; refusing writes, dropping what it held and rebuilding the read models from the store',
    ]);
  }, 120_000);

  it('answers a write under way when the rewind is found with 503, and its retry runs it again', async () => {
    await svc.rewindWatch.probe();
    const before = await orderIdsStored();
    const last = await svc.services.store.lastCommitted();
    // the orders read model held up (a session of the test holds its projector's lock, as
    // another instance's batch would; no transaction of its own, so no reader elsewhere on
    // the server is held back): a storefront checkout appends its order and then waits for
    // the read models before it answers
    const holder = new pg.Client({ connectionString: svc.databaseUrl });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(hashtext('projection:orders'))`);
    const productId = (await supplier.api.get(`/offers/${offerId}`)).body.product_id as string;
    const checkout = () =>
      svc.operator.post(
        '/orders',
        { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' },
        { headers: { 'idempotency-key': 'under-way' } },
      );
    const underWay = checkout();
    const placed = await eventually('the checkout appended', async () => {
      const ids = await orderIdsStored();
      return ids.length > before.length && ids;
    });
    const underWayId = placed.find((id) => !before.includes(id));
    // its events go (as a restore would take them), while it still waits
    await withDb(svc, (db) =>
      db.query(`delete from es_events where (transaction_id, position) > ($1::text::xid8, $2::bigint)`, [
        last.commit.toString(),
        last.prepare.toString(),
      ]),
    );
    await eventually('readyz says store_rewound', async () => (await readyz()).body?.status === 'store_rewound', {
      everyMs: 20,
    });
    await holder.query(`select pg_advisory_unlock(hashtext('projection:orders'))`);
    await holder.end();
    const answered = await underWay;
    expectUnavailable(answered);
    await eventually('ready again', async () => (await readyz()).status === 200);
    const metrics = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(metrics.text).toMatch(/^svc_store_rewinds_total\{cause="witness_lost"\} 2$/m);

    // the retry with the same key places that order, and the store and the reads hold it
    const retried = await checkout();
    expect([retried.status, retried.body.id, retried.headers.get('idempotent-replay')]).toEqual([
      201,
      underWayId,
      null,
    ]);
    await svc.drain();
    expect(await orderIdsStored()).toEqual(placed);
    expect(await orderIdsRead()).toEqual(placed);
  }, 120_000);
});
