import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import {
  buy,
  checkout,
  eur,
  itemIdsWithStatus,
  keys,
  stockOf,
  type Supplier,
  uploadedOffer,
  withDb,
  troubles,
} from './fixtures.js';

/** Refunds (full and partial) with their reversing ledger entries, disputes, staff invalidation. */
describe('refunds, disputes and invalidation', () => {
  let svc: TestService;
  let supplier: Supplier;

  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier('Refund Keys');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  const entriesOf = async (orderId: string) =>
    (await supplier.api.get('/balance/entries?limit=200')).body.data
      .filter((e: any) => e.order_id === orderId)
      .map((e: any) => [e.type, e.account, e.amount.amount, e.order_item_id]);

  it('refunds some items (item_ids) from pending, settles the rest, then refunds those from available', async () => {
    const p1 = await svc.newProduct({ name: 'Refund one' });
    const p2 = await svc.newProduct({ name: 'Refund two' });
    const o1 = await uploadedOffer(supplier, p1.id, { price: 3000, values: keys('R1', 3) });
    const o2 = await uploadedOffer(supplier, p2.id, { price: 999, values: keys('R2', 3) });
    const start = (await supplier.api.get('/balance')).body;
    const order = await buy(svc, [
      { product_id: p1.id, quantity: 2 }, // 6000: commission 510, net 5490
      { product_id: p2.id, quantity: 1 }, // 999: 84.915 rounds to 85, net 914
    ]);
    const [first, second] = order.items.map((i: any) => i.id);
    expect(await entriesOf(order.id)).toEqual([
      ['sale', 'pending', 5490, first],
      ['sale', 'pending', 914, second],
    ]);

    const partial = await svc.operator.post(`/orders/${order.id}/refund`, { item_ids: [second] });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.status).toBe('partially_refunded');
    expect(partial.body.items.map((i: any) => [i.id, i.status])).toEqual([
      [first, 'delivered'],
      [second, 'refunded'],
    ]);
    const mine = await supplier.api.get(`/orders/${order.id}`);
    expect(mine.body.status).toBe('partially_refunded');
    expect(mine.body.items.map((i: any) => i.status)).toEqual(['delivered', 'refunded']);
    expect(await entriesOf(order.id)).toEqual([
      ['sale', 'pending', 5490, first],
      ['sale', 'pending', 914, second],
      ['refund', 'pending', -914, second],
    ]);
    expect((await supplier.api.get('/balance')).body).toMatchObject({
      pending: eur(start.pending.amount + 5490),
      available: start.available,
    });

    // the holding period passes: only the item still sold settles
    await svc.advance(600);
    expect(await entriesOf(order.id)).toEqual([
      ['sale', 'pending', 5490, first],
      ['sale', 'pending', 914, second],
      ['refund', 'pending', -914, second],
      ['settlement', 'pending', -5490, first],
      ['settlement', 'available', 5490, first],
    ]);
    expect((await supplier.api.get('/balance')).body).toMatchObject({
      pending: start.pending,
      available: eur(start.available.amount + 5490),
    });

    // refunding the already refunded item again changes nothing
    const again = await svc.operator.post(`/orders/${order.id}/refund`, { item_ids: [second] });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('partially_refunded');

    // the rest of the order, after settlement: the reversal debits available
    const rest = await svc.operator.post(`/orders/${order.id}/refund`, {});
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.status).toBe('refunded');
    expect(rest.body.items.map((i: any) => i.status)).toEqual(['refunded', 'refunded']);
    expect((await supplier.api.get(`/orders/${order.id}`)).body.status).toBe('refunded');
    expect(await entriesOf(order.id)).toEqual([
      ['sale', 'pending', 5490, first],
      ['sale', 'pending', 914, second],
      ['refund', 'pending', -914, second],
      ['settlement', 'pending', -5490, first],
      ['settlement', 'available', 5490, first],
      ['refund', 'available', -5490, first],
    ]);
    expect((await supplier.api.get('/balance')).body).toMatchObject({
      pending: start.pending,
      available: start.available,
    });
    await svc.drain();
    expect(await entriesOf(order.id)).toHaveLength(6);

    // the buyer saw the keys: none goes back to stock
    expect(await stockOf(supplier, o1.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 1,
      reserved: 0,
      delivered: 2,
    });
    expect(await stockOf(supplier, o2.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 2,
      reserved: 0,
      delivered: 1,
    });
    expect((await itemIdsWithStatus(supplier.api, o1.offerId, 'delivered')).sort()).toEqual(
      o1.itemIds.slice(0, 2).sort(),
    );
    const next = await checkout(svc, [{ product_id: p1.id, quantity: 1 }]);
    expect(next.items[0].fulfilment.inventory_item_ids).toEqual([o1.itemIds[2]]);
  });

  it('refuses refunds of unpaid orders (409) and of items not in the order (422), and 404 for unknown orders', async () => {
    const product = await svc.newProduct({ name: 'Refund refusals' });
    await uploadedOffer(supplier, product.id, { price: 500, values: keys('R3', 3) });
    const placed = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    const unpaid = await svc.operator.post(`/orders/${placed.id}/refund`, {});
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe('invalid_state');
    const paid = await buy(svc, [{ product_id: product.id, quantity: 1 }]);
    const wrong = await svc.operator.post(`/orders/${paid.id}/refund`, { item_ids: [placed.items[0].id] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      { field: 'body.item_ids', message: `no item ${placed.items[0].id} in this order` },
    ]);
    const unknown = await svc.operator.post('/orders/01NOSUCHORDER/refund', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await supplier.api.get(`/orders/${paid.id}`)).body.status).toBe('completed');
    expect(await entriesOf(paid.id)).toEqual([['sale', 'pending', 457, paid.items[0].id]]); // 500: 42.5 rounds up to 43, net 457
  });

  it('records a dispute as information only: the item carries its date, the order status and the ledger stay as they are', async () => {
    const product = await svc.newProduct({ name: 'Disputed' });
    await uploadedOffer(supplier, product.id, { price: 2500, values: keys('R4', 2) });
    const order = await buy(svc, [{ product_id: product.id, quantity: 1 }]);
    const before = {
      order: (await supplier.api.get(`/orders/${order.id}`)).body,
      balance: (await supplier.api.get('/balance')).body,
    };

    const res = await svc.operator.post(`/orders/${order.id}/dispute`, {
      item_ids: [order.items[0].id],
      reason: 'key already redeemed',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('completed');
    await svc.drain();
    // the item says when it was disputed; nothing else of the order moves
    expect((await supplier.api.get(`/orders/${order.id}`)).body).toEqual({
      ...before.order,
      items: before.order.items.map((i: any, k: number) =>
        k === 0 ? { ...i, disputed_at: svc.clock.now().toISOString() } : i,
      ),
    });
    expect((await supplier.api.get('/balance')).body).toEqual(before.balance);
    const data = await withDb(svc, async (db) =>
      (
        await db.query(`select data from es_events where stream_id = $1 and type = 'OrderDisputed'`, [
          `order-${order.id}`,
        ])
      ).rows.map((r) => r.data),
    );
    expect(data).toEqual([
      {
        orderId: order.id,
        orderItemIds: [order.items[0].id],
        reason: 'key already redeemed',
        supplierIds: [supplier.id],
        at: svc.clock.now().toISOString(),
      },
    ]);

    const placed = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    const early = await svc.operator.post(`/orders/${placed.id}/dispute`, {});
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('invalid_state');
  });

  it('staff invalidation takes an available key out of stock for good; a reserved key cannot be invalidated', async () => {
    const product = await svc.newProduct({ name: 'Leaked keys' });
    const offer = await uploadedOffer(supplier, product.id, { price: 1500, values: keys('R5', 3) });
    const [k1, k2, k3] = offer.itemIds;

    const res = await svc.operator.post(`/inventory/${k1}/invalidate`, { reason: 'leaked' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      item_id: k1,
      offer_id: offer.offerId,
      status: 'invalidated',
      previous_status: 'available',
    });
    expect(await stockOf(supplier, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 2,
      reserved: 0,
      delivered: 0,
    });
    expect(await itemIdsWithStatus(supplier.api, offer.offerId, 'invalidated')).toEqual([k1]);
    const event = await withDb(svc, async (db) =>
      (await db.query(`select data from es_events where type = 'InventoryItemInvalidated'`)).rows.map((r) => r.data),
    );
    expect(event).toEqual([
      {
        offerId: offer.offerId,
        supplierId: supplier.id,
        itemId: k1,
        previousStatus: 'available',
        reason: 'leaked',
        at: svc.clock.now().toISOString(),
      },
    ]);

    // checkout skips it: the next two keys are sold, then there is none left
    const order = await checkout(svc, [{ product_id: product.id, quantity: 2 }]);
    expect(order.items[0].fulfilment.inventory_item_ids).toEqual([k2, k3]);
    const reserved = await svc.operator.post(`/inventory/${k2}/invalidate`, {});
    expect(reserved.status).toBe(409);
    expect(reserved.body.code).toBe('invalid_state');
    const none = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('out_of_stock');

    // an expired checkout returns its keys, never the invalidated one
    await svc.advance(900);
    expect(await stockOf(supplier, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 2,
      reserved: 0,
      delivered: 0,
    });
    expect((await svc.operator.post('/inventory/no-such-item/invalidate', {})).status).toBe(404);
  });
});
