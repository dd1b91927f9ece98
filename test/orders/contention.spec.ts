import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { buy, itemIdsWithStatus, keys, stockOf, type Supplier, uploadedOffer, withDb, troubles } from './fixtures.js';

/** 50 concurrent checkouts for the last 10 keys: exactly 10 get one, nobody gets a key twice. */
describe('contention', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;

  beforeAll(async () => {
    svc = await startTestService();
    alpha = await svc.newSupplier('Last Keys');
    beta = await svc.newSupplier('Backup Keys');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  const rush = (productId: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        svc.operator.post('/orders', { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' }),
      ),
    );

  const keysOf = (orders: any[]) =>
    orders.flatMap((o) => o.items.flatMap((i: any) => i.fulfilment.inventory_item_ids as string[]));

  it('sells the last 10 keys of an offer to exactly 10 of 50 concurrent checkouts; the other 40 get 409 out_of_stock', async () => {
    const product = await svc.newProduct({ name: 'Last ten' });
    const offer = await uploadedOffer(alpha, product.id, { price: 1000, values: keys('C1', 12) });
    await buy(svc, [{ product_id: product.id, quantity: 2 }]);
    const lastTen = offer.itemIds.slice(2);
    expect(await stockOf(alpha, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 10,
      reserved: 0,
      delivered: 2,
    });

    const answers = await rush(product.id, 50);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.text)).toEqual([]);
    const won = answers.filter((a) => a.status === 201).map((a) => a.body);
    const lost = answers.filter((a) => a.status === 409);
    expect(won).toHaveLength(10);
    expect(lost).toHaveLength(40);
    expect(new Set(lost.map((a) => a.body.code))).toEqual(new Set(['out_of_stock']));

    const held = keysOf(won);
    expect(held).toHaveLength(10);
    expect(new Set(held).size).toBe(10);
    expect([...held].sort()).toEqual([...lastTen].sort());
    expect(await stockOf(alpha, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 0,
      reserved: 10,
      delivered: 2,
    });

    // all ten pay at once: every one completes with its own keys
    const paid = await Promise.all(won.map((o) => svc.operator.post(`/orders/${o.id}/pay`)));
    expect(paid.map((p) => [p.status, p.body.status])).toEqual(won.map(() => [200, 'completed']));
    expect(paid.map((p) => p.body.items[0].fulfilment.inventory_item_ids)).toEqual(
      won.map((o) => o.items[0].fulfilment.inventory_item_ids),
    );
    await svc.drain();
    expect(await stockOf(alpha, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 0,
      reserved: 0,
      delivered: 12,
    });
    expect((await itemIdsWithStatus(alpha.api, offer.offerId, 'delivered')).sort()).toEqual([...offer.itemIds].sort());

    // exactly one sale entry per order item; no key handed over twice in the events
    const { sales, delivered } = await withDb(svc, async (db) => ({
      sales: (
        await db.query(
          `select data->>'orderItemId' as item from es_events where type = 'SaleCredited' and data->>'supplierId' = $1`,
          [alpha.id],
        )
      ).rows.map((r) => r.item),
      delivered: (
        await db.query(
          `select data->'itemIds' as ids from es_events where type = 'InventoryDelivered' and data->>'offerId' = $1`,
          [offer.offerId],
        )
      ).rows.flatMap((r) => r.ids),
    }));
    expect(sales).toHaveLength(11);
    expect(new Set(sales).size).toBe(11);
    expect(delivered).toHaveLength(12);
    expect(new Set(delivered).size).toBe(12);
  });

  it('routes the checkouts the cheaper offer cannot serve to the next offer, never over-allocating either', async () => {
    const product = await svc.newProduct({ name: 'Overflow' });
    const cheap = await uploadedOffer(alpha, product.id, { price: 900, values: keys('C2', 10) });
    const backup = await uploadedOffer(beta, product.id, { price: 950, values: keys('C3', 45) });

    const answers = await rush(product.id, 50);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const orders = answers.map((a) => a.body);
    const toCheap = orders.filter((o) => o.items[0].offer_id === cheap.offerId);
    const toBackup = orders.filter((o) => o.items[0].offer_id === backup.offerId);
    expect([toCheap.length, toBackup.length]).toEqual([10, 40]);
    expect(orders.every((o) => o.items.length === 1)).toBe(true);

    const held = keysOf(orders);
    expect(new Set(held).size).toBe(50);
    expect([...keysOf(toCheap)].sort()).toEqual([...cheap.itemIds].sort());
    expect(keysOf(toBackup).every((k) => backup.itemIds.includes(k))).toBe(true);
    expect(await stockOf(alpha, cheap.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 0,
      reserved: 10,
      delivered: 0,
    });
    expect(await stockOf(beta, backup.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 5,
      reserved: 40,
      delivered: 0,
    });
  });
  it('holds across two instances on one database: 50 checkouts split between them, 10 keys, 10 winners', async () => {
    const second = await startTestService({ databaseUrl: svc.databaseUrl });
    try {
      const product = await svc.newProduct({ name: 'Two instances' });
      const offer = await uploadedOffer(alpha, product.id, { price: 800, values: keys('C4', 10) });
      await second.drain();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? second : svc).operator.post('/orders', {
            items: [{ product_id: product.id, quantity: 1 }],
            buyer_country: 'DE',
          }),
        ),
      );
      expect(answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.text)).toEqual([]);
      const won = answers.filter((a) => a.status === 201).map((a) => a.body);
      expect(won).toHaveLength(10);
      expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(40).fill('out_of_stock'));
      expect([...keysOf(won)].sort()).toEqual([...offer.itemIds].sort());
      await second.drain();
      await svc.drain();
      expect(await stockOf(alpha, offer.offerId)).toEqual({
        mode: 'uploaded',
        declared: null,
        available: 0,
        reserved: 10,
        delivered: 0,
      });
    } finally {
      await second.stop();
    }
  });
  it('delivers once when the same order is paid twice at the same time', async () => {
    const product = await svc.newProduct({ name: 'Double pay' });
    const offer = await uploadedOffer(alpha, product.id, { price: 1200, values: keys('C5', 3) });
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 2 }],
      buyer_country: 'DE',
    });
    const [a, b] = await Promise.all([
      svc.operator.post(`/orders/${placed.body.id}/pay`),
      svc.operator.post(`/orders/${placed.body.id}/pay`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.status, b.body.status]).toEqual(['completed', 'completed']);
    expect(a.body.items[0].fulfilment.inventory_item_ids).toEqual(offer.itemIds.slice(0, 2));
    expect(b.body.items).toEqual(a.body.items);
    await svc.drain();
    expect(await stockOf(alpha, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 1,
      reserved: 0,
      delivered: 2,
    });
    const events = await withDb(svc, async (db) =>
      (
        await db.query(`select type from es_events where stream_id = $1 order by stream_revision`, [
          `order-${placed.body.id}`,
        ])
      ).rows.map((r) => r.type),
    );
    expect(events).toEqual(['OrderPlaced', 'OrderPaymentAuthorized', 'OrderItemDelivered', 'OrderPaid']);
    const sales = await withDb(
      svc,
      async (db) =>
        (
          await db.query(
            `select count(*)::int as n from es_events where type = 'SaleCredited' and data->>'orderId' = $1`,
            [placed.body.id],
          )
        ).rows[0].n,
    );
    expect(sales).toBe(1);
    expect((await svc.operator.post('/orders/01NOSUCHORDER/pay')).status).toBe(404);
  });
});
