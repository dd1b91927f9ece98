import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { eur, keys, stockOf, type Supplier, uploadedOffer, withDb, troubles } from './fixtures.js';

/** The sandbox scenarios of POST /sandbox/orders: paid (default), abandoned, refunded, disputed. */
describe('sandbox scenarios', () => {
  let svc: TestService;
  let supplier: Supplier;
  let offerId: string;
  let itemIds: string[];

  // 1250 x 1 = 1250: 106.25 rounds to 106; net 1144
  const net = 1144;

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 100 } });
    supplier = await svc.newSupplier('Scenario Keys');
    const product = await svc.newProduct();
    ({ offerId, itemIds } = await uploadedOffer(supplier, product.id, { price: 1250, values: keys('S', 10) }));
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  const order = (scenario?: string) =>
    supplier.api.post('/sandbox/orders', {
      offer_id: offerId,
      quantity: 1,
      buyer_country: 'DE',
      ...(scenario && { scenario }),
    });
  const eventTypes = (orderId: string) =>
    withDb(svc, async (db) =>
      (
        await db.query(`select type from es_events where stream_id = $1 order by stream_revision`, [`order-${orderId}`])
      ).rows.map((r) => r.type),
    );
  const balance = async () => (await supplier.api.get('/balance')).body;
  const entries = async () =>
    (await supplier.api.get('/balance/entries')).body.data.map((e: any) => [
      e.type,
      e.account,
      e.amount.amount,
      e.order_id,
    ]);

  it('paid (the default): completed, the key delivered, a pending sale entry', async () => {
    const res = await order();
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('completed');
    expect(res.body.items.map((i: any) => [i.status, i.fulfilment.inventory_item_ids])).toEqual([
      ['delivered', [itemIds[0]]],
    ]);
    expect(await eventTypes(res.body.id)).toEqual([
      'OrderPlaced',
      'OrderPaymentAuthorized',
      'OrderItemDelivered',
      'OrderPaid',
    ]);
    expect(await balance()).toMatchObject({ pending: eur(net), available: eur(0) });
    expect(await entries()).toEqual([['sale', 'pending', net, res.body.id]]);
  });

  it('abandoned: placed, never paid, expired after 15 minutes with its key back in stock', async () => {
    const res = await order('abandoned');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('placed');
    expect(res.body.items.map((i: any) => [i.status, i.fulfilment.inventory_item_ids])).toEqual([
      ['reserved', [itemIds[1]]],
    ]);
    expect(await stockOf(supplier, offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 8,
      reserved: 1,
      delivered: 1,
    });
    await svc.advance(899);
    expect((await supplier.api.get(`/orders/${res.body.id}`)).body.status).toBe('placed');
    await svc.advance(1);
    const after = await supplier.api.get(`/orders/${res.body.id}`);
    expect(after.body.status).toBe('expired');
    expect(after.body.items.map((i: any) => i.status)).toEqual(['released']);
    expect(await stockOf(supplier, offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 9,
      reserved: 0,
      delivered: 1,
    });
    expect(await eventTypes(res.body.id)).toEqual(['OrderPlaced', 'OrderExpired']);
    // nothing reached the ledger
    expect((await entries()).filter((e: any[]) => e[3] === res.body.id)).toEqual([]);
  });

  it('refunded: paid, then fully refunded; the sale is reversed and the revealed key stays out of stock', async () => {
    const before = await balance();
    const res = await order('refunded');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('refunded');
    expect(res.body.items.map((i: any) => i.status)).toEqual(['refunded']);
    expect((await supplier.api.get(`/orders/${res.body.id}`)).body.status).toBe('refunded');
    expect(await eventTypes(res.body.id)).toEqual([
      'OrderPlaced',
      'OrderPaymentAuthorized',
      'OrderItemDelivered',
      'OrderPaid',
      'OrderRefunded',
    ]);
    expect(await balance()).toMatchObject({ pending: before.pending, available: before.available });
    expect((await entries()).filter((e: any[]) => e[3] === res.body.id)).toEqual([
      ['sale', 'pending', net, res.body.id],
      ['refund', 'pending', -net, res.body.id],
    ]);
    expect(await stockOf(supplier, offerId)).toMatchObject({ available: 8, reserved: 0, delivered: 2 });
  });

  it('disputed: paid, then disputed; informational, the order and the ledger are unchanged', async () => {
    const before = await balance();
    const res = await order('disputed');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('completed');
    expect(res.body.items.map((i: any) => i.status)).toEqual(['delivered']);
    // the item says when it was disputed, in the answer and in the reads after it
    expect(res.body.items[0].disputed_at).toBe(svc.clock.now().toISOString());
    const read = await supplier.api.get(`/orders/${res.body.id}`);
    expect(read.body.items[0].disputed_at).toBe(res.body.items[0].disputed_at);
    const listed = await supplier.api.get('/orders?limit=100');
    expect(listed.body.data.find((o: any) => o.id === res.body.id).items[0].disputed_at).toBe(
      res.body.items[0].disputed_at,
    );
    expect(await eventTypes(res.body.id)).toEqual([
      'OrderPlaced',
      'OrderPaymentAuthorized',
      'OrderItemDelivered',
      'OrderPaid',
      'OrderDisputed',
    ]);
    const disputed = await withDb(
      svc,
      async (db) =>
        (
          await db.query(`select data from es_events where stream_id = $1 and type = 'OrderDisputed'`, [
            `order-${res.body.id}`,
          ])
        ).rows[0].data,
    );
    expect(disputed).toMatchObject({
      orderId: res.body.id,
      orderItemIds: [res.body.items[0].id],
      reason: 'sandbox scenario',
    });
    expect(await balance()).toMatchObject({ pending: eur(before.pending.amount + net), available: before.available });
  });

  it('an unknown scenario is a 422 and sells nothing', async () => {
    const stock = await stockOf(supplier, offerId);
    const res = await order('chargeback');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['body.scenario']);
    expect(await stockOf(supplier, offerId)).toEqual(stock);
  });
  it('runs once per Idempotency-Key: a retry replays the answer and sells nothing more', async () => {
    const stock = await stockOf(supplier, offerId);
    const headers = { 'idempotency-key': 'sandbox-order-0001' };
    const body = { offer_id: offerId, quantity: 1, buyer_country: 'DE' };
    const first = await supplier.api.post('/sandbox/orders', body, { headers });
    expect(first.status, first.text).toBe(201);
    const again = await supplier.api.post('/sandbox/orders', body, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await supplier.api.post('/sandbox/orders', { ...body, quantity: 2 }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await stockOf(supplier, offerId)).toEqual({
      ...stock,
      available: stock.available - 1,
      delivered: stock.delivered + 1,
    });
  });
});
