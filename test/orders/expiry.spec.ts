import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../../src/commands/context.js';
import { inventoryDecider } from '../../src/domain/inventory.js';
import { startTestService, type TestService } from '../support/harness.js';
import {
  checkout,
  itemIdsWithStatus,
  keys,
  stockOf,
  type Supplier,
  uploadedOffer,
  withDb,
  troubles,
} from './fixtures.js';
import { inventoryStream } from '../../src/commands/streams.js';

/** The 15-minute reservation TTL: unpaid orders expire and their keys go back to stock. */
describe('reservation expiry', () => {
  let svc: TestService;
  let supplier: Supplier;

  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier('Expiry Keys');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  it('holds the keys for 15 minutes, then expires the order, releases its items and puts the same keys back', async () => {
    const product = await svc.newProduct({ name: 'Expiring' });
    const offer = await uploadedOffer(supplier, product.id, { price: 1000, values: keys('E1', 3) });
    const placed = await checkout(svc, [{ product_id: product.id, quantity: 2 }]);
    const held = offer.itemIds.slice(0, 2);
    expect(placed.items[0].fulfilment.inventory_item_ids).toEqual(held);
    expect((await itemIdsWithStatus(supplier.api, offer.offerId, 'reserved')).sort()).toEqual([...held].sort());

    await svc.advance(15 * 60 - 1);
    let order = await supplier.api.get(`/orders/${placed.id}`);
    expect(order.body.status).toBe('placed');
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 1, reserved: 2 });

    await svc.advance(1);
    order = await supplier.api.get(`/orders/${placed.id}`);
    expect(order.body.status).toBe('expired');
    expect(order.body.paid_at).toBeNull();
    expect(order.body.items.map((i: any) => i.status)).toEqual(['released']);
    expect(await stockOf(supplier, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 3,
      reserved: 0,
      delivered: 0,
    });
    expect((await itemIdsWithStatus(supplier.api, offer.offerId, 'available')).sort()).toEqual(
      [...offer.itemIds].sort(),
    );
    expect((await svc.operator.get(`/orders/${placed.id}`)).body.status).toBe('expired');

    // the expiry is recorded once, as the terminal event behind order.expired
    const types = await withDb(svc, async (db) =>
      (
        await db.query(`select type from es_events where stream_id = $1 order by stream_revision`, [
          `order-${placed.id}`,
        ])
      ).rows.map((r) => r.type),
    );
    expect(types).toEqual(['OrderPlaced', 'OrderExpired']);

    // the released keys are sold again, first uploaded first
    const next = await checkout(svc, [{ product_id: product.id, quantity: 3 }]);
    expect(next.items[0].fulfilment.inventory_item_ids).toEqual(offer.itemIds);
  });

  it('refuses a late payment with 409 invalid_state, even before the expiry has run', async () => {
    const product = await svc.newProduct({ name: 'Too late' });
    const offer = await uploadedOffer(supplier, product.id, { price: 1000, values: keys('E2', 2) });
    const placed = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    // move the clock without running due work: the TTL has passed, the expiry timer has not run
    svc.clock.advance(15 * 60);
    const late = await svc.operator.post(`/orders/${placed.id}/pay`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_state');
    await svc.drain();
    expect((await supplier.api.get(`/orders/${placed.id}`)).body.status).toBe('expired');
    const again = await svc.operator.post(`/orders/${placed.id}/pay`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 2, reserved: 0, delivered: 0 });
  });

  it('a payment one second before the TTL completes the order, and the expiry then changes nothing', async () => {
    const product = await svc.newProduct({ name: 'Just in time' });
    const offer = await uploadedOffer(supplier, product.id, { price: 1000, values: keys('E3', 2) });
    const placed = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    await svc.advance(15 * 60 - 1);
    const paid = await svc.operator.post(`/orders/${placed.id}/pay`);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe('completed');
    await svc.advance(120);
    const order = await supplier.api.get(`/orders/${placed.id}`);
    expect(order.body.status).toBe('completed');
    expect(order.body.items.map((i: any) => i.status)).toEqual(['delivered']);
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 1, reserved: 0, delivered: 1 });
  });
  it('releases keys a checkout reserved but never turned into an order (a crash in between) a minute after the TTL', async () => {
    const product = await svc.newProduct({ name: 'Orphaned' });
    const offer = await uploadedOffer(supplier, product.id, { price: 1000, values: keys('E4', 3) });
    // what a checkout that died after its reservation leaves: keys held for an order that never exists
    const expiresAt = new Date(svc.clock.now().getTime() + 15 * 60_000).toISOString();
    await execute(
      svc.services.commands,
      inventoryStream(offer.offerId),
      inventoryDecider,
      (now) => ({
        type: 'ReserveItems' as const,
        data: {
          offerId: offer.offerId,
          orderId: 'never-placed',
          orderItemId: 'never-placed-1',
          quantity: 2,
          expiresAt,
          lowStockThreshold: 0,
          now,
        },
      }),
      {},
    );
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 1, reserved: 2 });
    await svc.advance(15 * 60);
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 1, reserved: 2 });
    await svc.advance(59);
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 1, reserved: 2 });
    await svc.advance(1);
    expect(await stockOf(supplier, offer.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 3,
      reserved: 0,
      delivered: 0,
    });
    const order = await checkout(svc, [{ product_id: product.id, quantity: 3 }]);
    expect(order.items[0].fulfilment.inventory_item_ids).toEqual(offer.itemIds);
  });
});
