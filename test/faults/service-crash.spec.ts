import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { connect } from '../../src/db/connect.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { createTestDatabase } from '../support/database.js';
import { type Answer, client } from '../support/http.js';
import { eur, keys } from '../orders/fixtures.js';
import { eventually, spawnService } from './support.js';

/**
 * The client's contract across a crash: checkouts and payments run under load with
 * Idempotency-Keys, the service is killed with SIGKILL in the middle, restarted on the same
 * database, and every request is retried with its key. Every key gets its answer (a 409
 * only while a dead owner's lease runs, never after), no order is placed twice, every
 * order completes, and the ledger audit is clean. Then the database ends every session of
 * the restarted service under the same load, which it survives by itself.
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');
type Service = Awaited<ReturnType<typeof spawnService>>;
const services: Service[] = [];
const dirs: string[] = [];

describe('SIGKILL under load, then retries with the same keys', () => {
  afterAll(async () => {
    services.forEach((s) => s.child.exitCode === null && s.child.signalCode === null && s.child.kill('SIGKILL'));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('every key answered, no order twice, the ledger audit clean; the restarted service also survives its sessions ended', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-faults-'));
    await chmod(dataDir, 0o755);
    dirs.push(dataDir);
    const start = async () => {
      const s = await spawnService({ databaseUrl, dataDir, operatorToken: OPERATOR_TOKEN, secretKey: SECRET_KEY });
      services.push(s);
      return s;
    };

    let current = await start();
    const operator = () => client(`${current.origin}/operator/v1`, OPERATOR_TOKEN);
    const created = await operator().post('/suppliers', { name: 'Crash Load' });
    expect(created.status, created.text).toBe(201);
    const supplierId: string = created.body.supplier.id;
    const supplier = () => client(current.baseUrl, created.body.token);
    const product = await operator().post('/products', { name: 'Crash Load', type: 'game_key', platform: 'steam', region: 'EU', status: 'sellable' });
    const offer = await supplier().post('/offers', { product_id: product.body.id, stock_mode: 'uploaded', price: eur(1000), external_ref: 'CL-1' });
    const STOCK = 300;
    expect((await supplier().post(`/offers/${offer.body.id}/inventory`, { items: keys('CL', STOCK).map((value) => ({ kind: 'text', value })) })).status).toBe(201);
    expect((await supplier().post(`/offers/${offer.body.id}/activate`)).status).toBe(200);

    // the service may be down (killed, restarting): a client retries the same request, same key
    let back: Promise<void> = Promise.resolve();
    const stats = { refused: 0, inUse: 0, unavailable: 0, unexpected: [] as string[] };
    const untilAnswered = async (send: () => Promise<Answer>): Promise<Answer> => {
      for (;;) {
        let res: Answer;
        try {
          res = await send();
        } catch {
          stats.refused++;
          await back;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        if (res.status === 503) {
          stats.unavailable++;
          expect(res.body.code).toBe('service_unavailable');
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (res.status === 409 && res.body.code === 'idempotency_key_in_use') {
          stats.inUse++;
          // waits out the dead owner's lease (Retry-After) on the service's test clock
          const wait = Number(res.headers.get('retry-after'));
          expect(wait).toBeGreaterThan(0);
          await operator().post('/clock/advance', { seconds: wait });
          continue;
        }
        return res;
      }
    };

    const answers = new Map<string, { orderId: string; status: string }>();
    let completed = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `crash-${w}-${i}`;
        const body = { items: [{ product_id: product.body.id, quantity: 1 }], buyer_country: 'DE' };
        const placed = await untilAnswered(() => operator().post('/orders', body, { headers: { 'idempotency-key': key } }));
        if (placed.status !== 201) stats.unexpected.push(`checkout ${placed.status} ${placed.text}`);
        const paid = await untilAnswered(() => operator().post(`/orders/${placed.body.id}/pay`, undefined, { headers: { 'idempotency-key': `pay-${key}` } }));
        if (paid.status !== 200) stats.unexpected.push(`pay ${paid.status} ${paid.text}`);
        answers.set(key, { orderId: placed.body.id, status: paid.body.status });
        completed++;
      }
    };
    const reached = (n: number) => eventually(`${n} orders completed`, async () => (completed >= n ? true : undefined), 30_000);
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));

    // mid-load: SIGKILL, then a restart on the same database
    await reached(6);
    let restarted!: () => void;
    back = new Promise((resolve) => (restarted = resolve));
    current.child.kill('SIGKILL');
    expect(await current.exited).toEqual({ code: null, signal: 'SIGKILL' });
    current = await start();
    restarted();
    const afterRestart = completed;

    {
      // then the database ends every session of the restarted service, under the same load
      await reached(afterRestart + 4);
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);
    }
    await reached(completed + 4);
    stop = true;
    await Promise.all(workers);

    expect(stats.unexpected).toEqual([]);
    expect(stats.refused).toBeGreaterThan(0); // the kill did catch requests in flight
    expect(current.child.exitCode).toBeNull(); // alive, whatever the database did

    // every key: its own order, completed; a retry now replays the answer
    const n = answers.size;
    expect(new Set([...answers.values()].map((a) => a.orderId)).size).toBe(n);
    expect([...answers.values()].every((a) => a.status === 'completed')).toBe(true);
    for (const [key, { orderId }] of answers) {
      const again = await operator().post('/orders', { items: [{ product_id: product.body.id, quantity: 1 }], buyer_country: 'DE' }, { headers: { 'idempotency-key': key } });
      expect([key, again.status, again.body.id]).toEqual([key, 201, orderId]);
    }

    // no order placed twice, no key sold twice, stock and ledger agree with the events
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const orderStreams = Number((await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'order-%'`)).rows[0].n);
      expect(orderStreams).toBe(n);
      const delivered = (await db.query(`select data from es_events where type = 'InventoryDelivered'`)).rows.flatMap((r) => r.data.itemIds as string[]);
      expect(new Set(delivered).size).toBe(delivered.length);
      expect(delivered).toHaveLength(n);
    } finally {
      await db.end();
    }
    const stock = await eventually('the read models to catch up', async () => {
      const res = await supplier().get(`/offers/${offer.body.id}`);
      return res.body.stock.delivered === n && res.body.stock.reserved === 0 ? res.body.stock : undefined;
    });
    expect(stock).toMatchObject({ available: STOCK - n, reserved: 0, delivered: n });
    const conn = connect(databaseUrl, 2);
    const store = new PostgresEventStore(conn.pool);
    try {
      const report = await eventually('a clean ledger audit', async () => {
        const r = await auditLedger(store, conn.kysely, { supplierId });
        return r.entries === n && r.differences.length === 0 ? r : undefined;
      });
      expect(report).toMatchObject({ entries: n, differences: [] });
    } finally {
      await store.close();
      await conn.close();
    }

    current.child.kill('SIGTERM');
    expect((await current.exited).code).toBe(0);
    expect(stats.inUse).toBeGreaterThan(0); // keys held by the dead process were taken over
  }, 90_000);
});
