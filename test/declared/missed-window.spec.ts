import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, eur, secondsAfter, startWorld, type World } from './support.js';

/**
 * A missed 10-minute allocation window: DELETE /orders/{order_id}/items (10 s per attempt,
 * lowered here; 3 attempts over an hour; 405 accepted), the item is cancelled and rerouted
 * to the next eligible offer of another supplier at no more than the buyer's price, or left
 * cancelled and not charged; the offer takes -30 and a 2-hour cooldown. A refund of declared
 * keys sends the DELETE too.
 */
describe('the allocation window and DELETE /orders/{order_id}/items', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, orderMs: 300, pollMs: 300, cancelMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const uploadedSeller = async (productId: string, price: number, keys: string[]) => {
    const supplier = await w.svc.newSupplier('Uploads');
    const offer = await supplier.api.post('/offers', {
      product_id: productId,
      stock_mode: 'uploaded',
      price: eur(price),
      external_ref: 'UP-1',
    });
    expect(offer.status, offer.text).toBe(201);
    const upload = await supplier.api.post(`/offers/${offer.body.id}/inventory`, {
      items: keys.map((value) => ({ kind: 'text', value })),
    });
    expect(upload.status, upload.text).toBe(201);
    expect((await supplier.api.post(`/offers/${offer.body.id}/activate`)).status).toBe(200);
    return { api: supplier.api, offerId: offer.body.id as string };
  };

  it('missed: DELETE sent (405 accepted, not retried), -30 and a 2-hour cooldown, the item rerouted to the next declared offer', async () => {
    const product = await w.gameKey();
    const slow = await w.seller(product, 700, { manualAllocation: true, supportsItemReturn: false });
    const pricier = await w.seller(product, 800);
    const backup = await w.seller(product, 700, { manualAllocation: true }); // same price, activated later
    const placed = await w.place(product);
    expect(placed.items[0].offer_id).toBe(slow.offerId);
    await w.pay(placed.id);
    const orderedAt = calls(slow.kit, 'POST /orders')[0]!.at;
    await w.svc.advance(600);
    const closedAt = orderedAt + 600_000;
    expect(await w.health(slow)).toEqual({
      score: 70,
      routing_eligible: false,
      cooldown_until: new Date(closedAt + 2 * 3600_000).toISOString(),
    });
    const cooled = await w.events(`offer-${slow.offerId}`, 'OfferCooldownStarted');
    expect(cooled.map((e) => [e.data.reason, e.data.until])).toEqual([
      ['missed_window', new Date(closedAt + 2 * 3600_000).toISOString()],
    ]);
    const deletes = calls(slow.kit, 'DELETE /orders/:id/items');
    expect(deletes.map((r) => [r.path, r.status, r.signature])).toEqual([
      [`/orders/${placed.items[0].id}/items`, 405, 'ok'],
    ]);
    const rerouted = await w.order(placed.id);
    expect(rerouted.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [slow.offerId, 'cancelled'],
      [backup.offerId, 'reserved'],
    ]);
    expect(calls(pricier.kit, 'POST /reservations')).toEqual([]);
    // the new item has its own contract cycle and window
    const newItem = rerouted.items[1];
    expect(calls(backup.kit, 'POST /reservations').map((r) => [r.status, (r.body as any).quantity])).toEqual([
      [201, 1],
    ]);
    expect(calls(backup.kit, 'POST /orders').map((r) => [(r.body as any).order_id, r.status])).toEqual([
      [newItem.id, 201],
    ]);
    backup.kit.markReady(newItem.id);
    await w.svc.advance(5);
    const done = await w.order(placed.id);
    expect(done.status).toBe('completed');
    expect(done.totals.gross).toEqual(eur(700));
    await w.svc.advance(3600);
    expect(calls(slow.kit, 'DELETE /orders/:id/items')).toHaveLength(1);
    // in cooldown the offer gets no orders
    const next = await w.place(product);
    expect(next.items[0].offer_id).toBe(backup.offerId);
  });

  it('rerouted to an uploaded offer of another supplier: its keys are handed over at once', async () => {
    const product = await w.gameKey();
    const slow = await w.seller(product, 500, { manualAllocation: true });
    const uploads = await uploadedSeller(product, 500, ['UP-KEY-1']);
    const placed = await w.place(product);
    expect(placed.items[0].offer_id).toBe(slow.offerId);
    await w.pay(placed.id);
    await w.svc.advance(600);
    const done = await w.order(placed.id);
    expect([done.status, done.items.map((i: any) => [i.offer_id, i.status])]).toEqual([
      'completed',
      [
        [slow.offerId, 'cancelled'],
        [uploads.offerId, 'delivered'],
      ],
    ]);
    expect((await w.keys(placed.id)).map((i: any) => i.keys.map((k: any) => k.value))).toEqual([['UP-KEY-1']]);
    expect(calls(slow.kit, 'DELETE /orders/:id/items').map((r) => r.status)).toEqual([200]);
    expect(slow.kit.state.orders[placed.items[0].id]!.status).toBe('returned');
  });

  it("rerouted after the order's own 15 minutes ran out: the new reservation is held past the reroute, the keys handed over", async () => {
    const product = await w.gameKey();
    const slow = await w.seller(product, 500, { manualAllocation: true });
    const uploads = await uploadedSeller(product, 500, ['LATE-KEY-1']);
    const placed = await w.place(product);
    expect(placed.items[0].offer_id).toBe(slow.offerId);
    await w.svc.advance(14 * 60);
    await w.pay(placed.id);
    await w.svc.advance(600); // the window closes at 24 minutes: the reroute comes after the order's expiry
    const done = await w.order(placed.id);
    expect([done.status, done.items.map((i: any) => [i.offer_id, i.status])]).toEqual([
      'completed',
      [
        [slow.offerId, 'cancelled'],
        [uploads.offerId, 'delivered'],
      ],
    ]);
    expect((await w.keys(placed.id)).map((i: any) => i.keys.map((k: any) => k.value))).toEqual([['LATE-KEY-1']]);
    // the reservation was not already over when it was made (its expiry would release it under the reroute)
    const [reserved] = await w.events(`inventory-${uploads.offerId}`, 'InventoryReserved');
    expect(reserved).toBeDefined();
    const { expiresAt, at } = reserved!.data as { expiresAt: string; at: string };
    expect(Date.parse(expiresAt) - Date.parse(at)).toBe(15 * 60_000);
  });

  it('nobody else can take it (dearer offers only): the item stays cancelled, the buyer is not charged, the supplier withholds the keys', async () => {
    const product = await w.gameKey();
    const alone = await w.seller(product, 500, { manualAllocation: true, stock: { '*': ['K-1'] } });
    const dearer = await w.seller(product, 501);
    const placed = await w.place(product);
    await w.pay(placed.id);
    await w.svc.advance(600);
    const order = await w.order(placed.id);
    expect([order.status, order.items.map((i: any) => i.status), order.paid_at, order.totals.gross]).toEqual([
      'cancelled',
      ['cancelled'],
      null,
      eur(0),
    ]);
    expect(await w.events(`order-${placed.id}`, 'OrderPaid')).toEqual([]);
    expect(await w.events(`order-${placed.id}`, 'OrderCancelled')).toHaveLength(1);
    expect(calls(dearer.kit, 'POST /reservations')).toEqual([]);
    expect(calls(alone.kit, 'DELETE /orders/:id/items').map((r) => r.status)).toEqual([200]);
    expect(alone.kit.state.stock['*']).toEqual([{ kind: 'text', value: 'K-1' }]);
    expect(await w.entryTypes(placed.id)).toEqual([]);
    // the supplier marks it ready too late: it must not be delivered
    expect(() => alone.kit.markReady(placed.items[0].id)).toThrow(/withheld/);
  });

  it('an uploaded item of the same order is still captured; only the cancelled declared item is left out', async () => {
    const declaredProduct = await w.gameKey();
    const uploadedProduct = await w.gameKey();
    const slow = await w.seller(declaredProduct, 900, { manualAllocation: true });
    await uploadedSeller(uploadedProduct, 300, ['U-1']);
    const placed = await w.svc.operator.post('/orders', {
      items: [
        { product_id: declaredProduct, quantity: 1 },
        { product_id: uploadedProduct, quantity: 1 },
      ],
      buyer_country: 'DE',
    });
    expect(placed.status, placed.text).toBe(201);
    await w.pay(placed.body.id);
    expect((await w.order(placed.body.id)).status).toBe('placed'); // capture waits for the declared item
    await w.svc.advance(600);
    const order = await w.order(placed.body.id);
    expect([order.status, order.items.map((i: any) => i.status), order.totals.gross]).toEqual([
      'completed',
      ['cancelled', 'delivered'],
      eur(300),
    ]);
    expect((await w.health(slow)).score).toBe(70);
  });

  it('DELETE failing: 3 attempts over an hour (at +0, +30, +60 minutes), then given up', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 600, { manualAllocation: true });
    s.kit.faults.set('DELETE /orders/:id/items', { kind: 'status', status: 500, times: 1 });
    const placed = await w.place(product);
    await w.pay(placed.id);
    await w.svc.advance(600);
    s.kit.faults.set('DELETE /orders/:id/items', { kind: 'hang', times: 1 });
    for (let i = 0; i < 3; i++) await w.svc.advance(10 * 60);
    s.kit.faults.set('DELETE /orders/:id/items', { kind: 'status', status: 503 });
    for (let i = 0; i < 12; i++) await w.svc.advance(10 * 60);
    s.kit.faults.clear('DELETE /orders/:id/items');
    const deletes = calls(s.kit, 'DELETE /orders/:id/items');
    expect(deletes.map((r) => r.status)).toEqual([500, undefined, 503]);
    expect(secondsAfter(deletes[0]!.at, deletes).map((x) => x / 60)).toEqual([0, 30, 60]);
    expect(deletes.every((r) => r.path === `/orders/${placed.items[0].id}/items`)).toBe(true);
    // the order itself did not wait for the supplier
    expect((await w.order(placed.id)).status).toBe('cancelled');
  });

  it('a refund of delivered declared keys sends the DELETE; the supplier withholds them from then on', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 600, { stock: { '*': ['R-1', 'R-2'] } });
    const placed = await w.place(product);
    await w.pay(placed.id);
    expect((await w.order(placed.id)).status).toBe('completed');
    const refunded = await w.svc.operator.post(`/orders/${placed.id}/refund`, {});
    expect([refunded.status, refunded.body.status]).toEqual([200, 'refunded']);
    await w.svc.drain();
    expect(calls(s.kit, 'DELETE /orders/:id/items').map((r) => [r.path, r.status])).toEqual([
      [`/orders/${placed.items[0].id}/items`, 200],
    ]);
    expect(s.kit.state.orders[placed.items[0].id]!.returned).toBe(1);
    expect(s.kit.state.stock['*']!.map((k: any) => k.value).sort()).toEqual(['R-1', 'R-2']);
    expect(await w.entryTypes(placed.id)).toEqual(['refund', 'sale']);
  });
});
