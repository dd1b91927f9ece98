import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { verifyLedger } from '../../src/cli/ledger-verify.js';
import { createTestDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { allPages, keys, stockOf, type Supplier, uploadedOffer, withDb } from '../orders/fixtures.js';
import { backupsOf } from './restore.js';
import { expectUnavailable, startDatabaseRelay } from './support.js';

/**
 * The database is restored from a backup while the instance runs: it reconnects to an earlier
 * moment of its store, whose last orders it has read, answered and cached are gone. It notices
 * within 5 s (`/readyz` 503 `store_rewound`, writes 503 with Retry-After, an error logged, the
 * rewind counted), drops what it held, rebuilds its read models from the events the restored
 * store has, and takes writes again: the lost orders are gone from every read, a lost key runs
 * anew, and the ledger matches its events.
 */
describe('the store restored from a backup under a running instance', () => {
  let directUrl: string;
  let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
  let svc: TestService;
  let supplier: Supplier;
  let offerId: string;
  const STOCK = 10;

  beforeAll(async () => {
    directUrl = await createTestDatabase();
    relay = await startDatabaseRelay(directUrl);
    svc = await startTestService({ databaseUrl: relay.url });
    supplier = await svc.newSupplier('Restored Keys');
    const productId = (await svc.newProduct({ name: 'Restored' })).id;
    ({ offerId } = await uploadedOffer(supplier, productId, { price: 1500, values: keys('RST', STOCK) }));
  });
  afterAll(async () => {
    await svc?.stop();
    await relay?.close();
  });

  const readyz = () => request(svc.origin, 'GET', '/readyz');
  const order = (key: string) =>
    supplier.api.post(
      '/sandbox/orders',
      { offer_id: offerId, quantity: 1, buyer_country: 'DE' },
      { headers: { 'idempotency-key': key } },
    );
  const placed = async (key: string) => {
    const res = await order(key);
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const orderIdsRead = async () => (await allPages(supplier.api, '/orders')).items.map((o) => o.id as string).sort();
  const orderIdsStored = () =>
    withDb(svc, async (db) =>
      (
        await db.query<{ id: string }>(
          `select distinct substr(stream_id, 7) as id from es_events where stream_id like 'order-%' order by 1`,
        )
      ).rows.map((r) => r.id),
    );

  it('notices within 5 s, refuses writes meanwhile, rebuilds its read models from the restored store and goes on', async () => {
    const before = [await placed('before-1'), await placed('before-2')];
    await svc.drain();
    // the backup, taken with the instance cut off from its database for the moment it takes
    const backups = backupsOf(directUrl);
    relay.cut();
    const backup = await backups.backup();
    relay.restore();
    await eventually('ready after the backup', async () => (await readyz()).status === 200);

    // ten minutes on, three more orders the backup does not have, answered and read
    await svc.advance(600);
    await svc.rewindWatch.probe();
    const lost = [await placed('lost-1'), await placed('lost-2'), await placed('lost-3')];
    await svc.drain();
    expect(await orderIdsRead()).toEqual([...before, ...lost].sort());

    // the restore, with the instance cut off while it runs; a transaction of the test holds
    // the idempotency keys for a moment, so the instance's recovery stays under way while the
    // test looks at it (as a long one would)
    relay.cut();
    await backups.restore(backup);
    const holder = new pg.Client({ connectionString: directUrl });
    await holder.connect();
    await holder.query('begin; lock table idempotency_keys in share mode');
    const restoredAt = performance.now();
    relay.restore();

    const rewound = await eventually(
      'readyz says store_rewound',
      async () => {
        const res = await readyz();
        return res.status === 503 && res.body.status === 'store_rewound' ? res : false;
      },
      { everyMs: 20 },
    );
    expect(performance.now() - restoredAt).toBeLessThan(5000);
    expect(Number(rewound.headers.get('retry-after'))).toBeGreaterThan(0);
    const refused = await order('during-recovery');
    expect(refused.status).toBe(503);
    expectUnavailable(refused);
    const metrics = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(metrics.text).toMatch(/^svc_store_rewinds_total\{cause="witness_lost"\} 1$/m);
    const errors = () => svc.logs.filter((l) => Number(l.level) >= 50).map((l) => l.msg);
    expect(errors()).toEqual([
      'the event store went back in time: it no longer holds what this instance saw; refusing writes, dropping what it held and rebuilding the read models from the store',
    ]);

    await holder.query('commit');
    await holder.end();
    await eventually('ready again', async () => (await readyz()).status === 200);

    // every read is the restored store's: the lost orders are gone, their keys back in stock
    expect(await orderIdsStored()).toEqual([...before].sort());
    expect(await orderIdsRead()).toEqual([...before].sort());
    for (const id of lost) expect((await supplier.api.get(`/orders/${id}`)).status).toBe(404);
    expect((await stockOf(supplier, offerId)).available).toBe(STOCK - 2);

    // a key taken before the backup replays its order; a lost one runs anew and is stored
    const again = await order('before-1');
    expect([again.status, again.body.id, again.headers.get('idempotent-replay')]).toEqual([201, before[0], 'true']);
    const rerun = await order('lost-1');
    expect(rerun.status, rerun.text).toBe(201);
    expect(rerun.headers.get('idempotent-replay')).toBe(null);
    const after = await placed('after-1');
    await svc.drain();
    const now = [...before, rerun.body.id as string, after].sort();
    expect(await orderIdsStored()).toEqual(now);
    expect(await orderIdsRead()).toEqual(now);
    expect((await stockOf(supplier, offerId)).available).toBe(STOCK - 4);

    const audit = await auditLedger(svc.services.store, svc.services.db, { supplierId: supplier.id });
    // each order's sale posts two entries: the supplier's net and the platform's commission
    expect(audit).toMatchObject({ entries: 2 * 4, differences: [] });
    expect((await verifyLedger(svc.services.store, svc.services.ledger)).refused).toEqual([]);
    expect(errors()).toHaveLength(1);
  }, 120_000);
});
