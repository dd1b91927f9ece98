import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { type FaultStep } from '../../src/faults.js';
import { createTestDatabase } from '../support/database.js';
import { spawnService } from '../faults/support.js';
import { client } from '../support/http.js';
import { eur, keys } from './fixtures.js';

/**
 * Crash anywhere: the service runs as a real process on a test database with the real
 * clock, is killed with SIGKILL between two pipeline steps (SVC_FAULT_KILL_AT, see
 * src/faults.ts), and restarted. The order must still finish: every key delivered exactly
 * once, exactly one sale entry per order item, no key allocated twice, the ledger audit clean.
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');

const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];

const startService = async (databaseUrl: string, dataDir: string, killAt?: FaultStep) => {
  const started = await spawnService({
    databaseUrl,
    dataDir,
    operatorToken: OPERATOR_TOKEN,
    secretKey: SECRET_KEY,
    testClock: false,
    ...(killAt && { env: { SVC_FAULT_KILL_AT: killAt } }),
  });
  children.push(started.child);
  return started;
};

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** One crash at `step` during payment of a two-item order (keys of two offers), then recovery. */
const crashAt = async (step: FaultStep, recovery: 'timers' | 'client retry') => {
  const databaseUrl = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-crash-'));
  await chmod(dataDir, 0o755);
  dirs.push(dataDir);

  // set up through the API of a service armed to die at `step`
  const first = await startService(databaseUrl, dataDir, step);
  const operator = client(`${first.origin}/operator/v1`, OPERATOR_TOKEN);
  const created = await operator.post('/suppliers', { name: `Crash ${step}` });
  expect(created.status, created.text).toBe(201);
  const supplierToken: string = created.body.token;
  const supplierId: string = created.body.supplier.id;
  const lines: { productId: string; offerId: string; values: string[]; itemIds: string[]; quantity: number }[] = [];
  for (const [i, quantity] of [2, 1].entries()) {
    const api = client(first.baseUrl, supplierToken);
    const product = await operator.post('/products', {
      name: `Crash ${i}`,
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
    });
    const offer = await api.post('/offers', {
      product_id: product.body.id,
      stock_mode: 'uploaded',
      price: eur(1000 + i * 500),
      external_ref: `CR-${i}`,
    });
    const values = keys(`CRASH-${step}-${i}`, 3);
    const up = await api.post(`/offers/${offer.body.id}/inventory`, {
      items: values.map((value) => ({ kind: 'text', value })),
    });
    expect(up.status, up.text).toBe(201);
    expect((await api.post(`/offers/${offer.body.id}/activate`)).status).toBe(200);
    lines.push({ productId: product.body.id, offerId: offer.body.id, values, itemIds: up.body.item_ids, quantity });
  }
  const placed = await operator.post('/orders', {
    items: lines.map((l) => ({ product_id: l.productId, quantity: l.quantity })),
    buyer_country: 'DE',
  });
  expect(placed.status, placed.text).toBe(201);
  const orderId: string = placed.body.id;

  // the payment never answers: the process dies on the way
  const paying = operator.post(`/orders/${orderId}/pay`).then(
    (res) => ({ answered: res.status }),
    () => ({ answered: null }),
  );
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(await paying).toEqual({ answered: null });

  // what the crash left behind
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const left = (
      await db.query(`select type from es_events where stream_id = $1 order by stream_revision`, [`order-${orderId}`])
    ).rows.map((r) => r.type);
    const expectedLeft: Record<FaultStep, string[]> = {
      'after-deliver-reservation': ['OrderPlaced', 'OrderPaymentAuthorized'],
      'after-record-delivery': ['OrderPlaced', 'OrderPaymentAuthorized', 'OrderItemDelivered'],
      // the last delivery and the capture are one write
      'before-capture': ['OrderPlaced', 'OrderPaymentAuthorized', 'OrderItemDelivered'],
      'after-sale-credited': [
        'OrderPlaced',
        'OrderPaymentAuthorized',
        'OrderItemDelivered',
        'OrderItemDelivered',
        'OrderPaid',
      ],
    };
    expect(left).toEqual(expectedLeft[step]);

    // restart, unarmed: the order finishes
    const second = await startService(databaseUrl, dataDir);
    const op2 = client(`${second.origin}/operator/v1`, OPERATOR_TOKEN);
    const api2 = client(second.baseUrl, supplierToken);
    if (recovery === 'client retry') {
      const retried = await op2.post(`/orders/${orderId}/pay`);
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body.status).toBe('completed');
    }
    const order = await waitFor('the order to complete', async () => {
      const res = await api2.get(`/orders/${orderId}`);
      return res.body.status === 'completed' ? res.body : undefined;
    });
    const entries = await waitFor('both sale entries', async () => {
      const res = await api2.get('/balance/entries');
      return res.body.data.length === 2 ? res.body.data : undefined;
    });

    // every key delivered exactly once, to the item that reserved it
    expect(order.items.map((i: any) => [i.offer_id, i.quantity, i.status, i.fulfilment.inventory_item_ids])).toEqual(
      lines.map((l) => [l.offerId, l.quantity, 'delivered', l.itemIds.slice(0, l.quantity)]),
    );
    const deliverables = await op2.get(`/orders/${orderId}/deliverables`);
    expect(deliverables.body.items.map((i: any) => i.keys.map((k: any) => k.value))).toEqual(
      lines.map((l) => l.values.slice(0, l.quantity)),
    );

    // exactly one sale entry per order item, and the balance they make
    const items = order.items.map((i: any) => i.id);
    expect(entries.map((e: any) => [e.type, e.account, e.amount.amount, e.order_item_id]).sort()).toEqual(
      [
        ['sale', 'pending', 1830, items[0]], // 2000: 170
        ['sale', 'pending', 1372, items[1]], // 1500: 127.5 -> 128
      ].sort(),
    );
    expect((await api2.get('/balance')).body).toMatchObject({ pending: eur(3202), available: eur(0) });

    const events = async (type: string) =>
      (await db.query(`select data from es_events where type = $1`, [type])).rows.map((r) => r.data);
    const count = (ids: string[]) =>
      Object.fromEntries(items.map((id: string) => [id, ids.filter((x) => x === id).length]));
    expect(count((await events('SaleCredited')).map((d) => d.orderItemId))).toEqual({ [items[0]]: 1, [items[1]]: 1 });
    expect(count((await events('OrderItemDelivered')).map((d) => d.orderItemId))).toEqual({
      [items[0]]: 1,
      [items[1]]: 1,
    });
    expect(count((await events('InventoryDelivered')).map((d) => d.orderItemId))).toEqual({
      [items[0]]: 1,
      [items[1]]: 1,
    });
    expect((await events('OrderPaid')).filter((d) => d.orderId === orderId)).toHaveLength(1);
    // no key allocated twice: every reserved key belongs to one order item only
    const reserved = (await events('InventoryReserved')).flatMap((d) => d.itemIds as string[]);
    expect(new Set(reserved).size).toBe(reserved.length);

    for (const [i, l] of lines.entries()) {
      const offer = await api2.get(`/offers/${l.offerId}`);
      expect([i, offer.body.stock]).toEqual([
        i,
        { mode: 'uploaded', declared: null, available: 3 - l.quantity, reserved: 0, delivered: l.quantity },
      ]);
    }

    // the ledger read models equal the replayed events
    const conn = connect(databaseUrl, 2);
    const store = new PostgresEventStore(conn.pool);
    try {
      const report = await auditLedger(store, conn.kysely, { supplierId });
      expect(report).toMatchObject({ ledgerEvents: 2, entries: 2, differences: [] });
    } finally {
      await store.close();
      await conn.close();
    }

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    // nothing went wrong on the way: no warning, no error (LOG_LEVEL=warn prints only those)
    expect(
      second
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{')),
    ).toEqual([]);
  } finally {
    await db.end();
  }
};

describe('crash recovery', () => {
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL'));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('finishes the order after a SIGKILL at any step between authorization and the ledger', async () => {
    // four independent crashes side by side, each on its own database
    await Promise.all([
      crashAt('after-deliver-reservation', 'timers'),
      crashAt('after-record-delivery', 'timers'),
      crashAt('before-capture', 'client retry'),
      crashAt('after-sale-credited', 'timers'),
    ]);
  }, 300_000);

  it('refuses the fault hook in production', () => {
    expect(() =>
      loadConfig({ SVC_ENV: 'production', SVC_SECRET_KEY: SECRET_KEY, SVC_FAULT_KILL_AT: 'before-capture' }),
    ).toThrow('SVC_FAULT_KILL_AT: fault injection is never enabled in production');
    expect(() => loadConfig({ SVC_FAULT_KILL_AT: 'somewhere' })).toThrow('SVC_FAULT_KILL_AT');
    expect(loadConfig({ SVC_FAULT_KILL_AT: 'before-capture' }).env).toBe('sandbox');
  });
});
