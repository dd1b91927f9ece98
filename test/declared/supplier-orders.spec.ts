import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, calls, eur, secondsAfter, startWorld, type World } from './support.js';

/**
 * POST /orders after payment authorization: 10 s per attempt (lowered here), 3 attempts
 * 5 s apart. 201 accepted; 409 duplicate is success; 410 reservation_expired gets one fresh
 * reservation plus order cycle, then failover; 202 pending_stock is accepted and the
 * 10-minute window still runs.
 */
describe('POST /orders', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, orderMs: 300, pollMs: 300, cancelMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  it('201 accepted: the order item is the supplier order; polling starts at once and the first ready answer completes the order', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1234, { stock: { '*': ['KEY-A', 'KEY-B'] } });
    const placed = await w.place(product, { quantity: 2 });
    const item = placed.items[0];
    const paidAt = w.svc.clock.now().getTime();
    await w.pay(placed.id);
    const [ordered] = calls(s.kit, 'POST /orders');
    expect([ordered!.status, ordered!.body]).toEqual([
      201,
      {
        order_id: item.id,
        reservation_id: item.fulfilment.reservation_id,
        offer_id: s.offerId,
        external_ref: s.externalRef,
        quantity: 2,
        unit_price: eur(1234),
        buyer_country: 'DE',
        marketplace_order_id: placed.id,
      },
    ]);
    expect(secondsAfter(paidAt, [ordered!, ...calls(s.kit, 'GET /orders/:id/items')])).toEqual([0, 0]);
    const done = await w.order(placed.id);
    expect(done.status).toBe('completed');
    expect(done.items.map((i: any) => [i.status, i.quantity])).toEqual([['delivered', 2]]);
    expect((await w.keys(placed.id))[0].keys.map((k: any) => k.value)).toEqual(['KEY-A', 'KEY-B']);
    const sales = await w.svc.services.db
      .selectFrom('balance_entries')
      .select(['type', 'order_item_id'])
      .where('order_id', '=', placed.id)
      .execute();
    expect(sales).toEqual([{ type: 'sale', order_item_id: item.id }]);
  });

  it('POST /sandbox/orders on a declared offer runs the same contract against the supplier systems', async () => {
    const s = await w.seller(await w.gameKey(), 800, { stock: { '*': ['SBX-1'] } });
    const res = await s.api.post('/sandbox/orders', { offer_id: s.offerId, quantity: 1, buyer_country: 'DE' });
    expect([res.status, res.body.status, res.body.items[0].fulfilment.source]).toEqual([201, 'placed', 'declared']);
    await w.svc.drain();
    expect((await s.api.get(`/orders/${res.body.id}`)).body.status).toBe('completed');
    expect(s.kit.received.filter((r) => r.route !== 'GET /healthcheck').map((r) => `${r.route} ${r.status}`)).toEqual([
      'POST /reservations 201',
      'POST /orders 201',
      'GET /orders/:id/items 200',
    ]);
    expect((await w.keys(res.body.id))[0].keys.map((k: any) => k.value)).toEqual(['SBX-1']);
  });

  it('three attempts 5 s apart (503, timeout, then 201); the allocation window counts from the first attempt', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    const placed = await w.place(product);
    s.kit.faults.set('POST /orders', { kind: 'status', status: 503, times: 1 });
    await w.pay(placed.id);
    s.kit.faults.set('POST /orders', { kind: 'hang', times: 1 });
    await w.svc.advance(5);
    await w.svc.advance(5);
    const attempts = calls(s.kit, 'POST /orders');
    const first = attempts[0]!.at;
    expect(attempts.map((r) => r.status)).toEqual([503, undefined, 201]);
    expect(secondsAfter(first, attempts)).toEqual([0, 5, 10]);
    expect(new Set(attempts.map((r) => bodyOf(r).order_id)).size).toBe(1);
    for (const step of [5, 15, 60]) await w.svc.advance(step);
    expect(secondsAfter(first, calls(s.kit, 'GET /orders/:id/items'))).toEqual([10, 15, 30, 90]);
    s.kit.markReady(placed.items[0].id);
    await w.svc.advance(60);
    expect((await w.order(placed.id)).status).toBe('completed');
    expect((await w.health(s)).score).toBe(100); // failed attempts that end in a sale cost nothing
  });

  it('all three attempts failing: -5, the item is cancelled, its possible sale is returned with DELETE, and the next offer takes it', async () => {
    const product = await w.gameKey();
    const broken = await w.seller(product, 1000);
    const backup = await w.seller(product, 1000); // same price, activated later: routed second
    const placed = await w.place(product);
    expect(placed.items[0].offer_id).toBe(broken.offerId);
    // the supplier records the sale but its answers never arrive
    broken.kit.faults.set('POST /orders', { kind: 'hang', process: true, times: 3 });
    await w.pay(placed.id);
    await w.svc.advance(5);
    await w.svc.advance(5);
    expect(calls(broken.kit, 'POST /orders').map((r) => r.status)).toEqual([undefined, undefined, undefined]);
    expect((await w.health(broken)).score).toBe(95);
    const order = await w.order(placed.id);
    expect(order.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [broken.offerId, 'cancelled'],
      [backup.offerId, 'delivered'],
    ]);
    expect(order.status).toBe('completed');
    expect(order.totals.gross).toEqual(eur(1000));
    expect(calls(broken.kit, 'DELETE /orders/:id/items').map((r) => [r.path, r.status])).toEqual([
      [`/orders/${placed.items[0].id}/items`, 200],
    ]);
    expect(broken.kit.state.orders[placed.items[0].id]!.status).toBe('returned');
    expect(calls(broken.kit, 'GET /orders/:id/items')).toEqual([]);
  });

  it('409 duplicate after a lost answer: the original body, taken as success; one sale', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    const placed = await w.place(product);
    s.kit.faults.set('POST /orders', { kind: 'hang', process: true, times: 1 });
    await w.pay(placed.id);
    await w.svc.advance(5);
    const attempts = calls(s.kit, 'POST /orders');
    expect(attempts.map((r) => r.status)).toEqual([undefined, 409]);
    expect(s.kit.state.orders[placed.items[0].id]!.response).toEqual({
      order_id: placed.items[0].id,
      status: 'accepted',
    });
    s.kit.markReady(placed.items[0].id);
    await w.svc.advance(10);
    expect((await w.order(placed.id)).status).toBe('completed');
    expect(Object.keys(s.kit.state.orders)).toEqual([placed.items[0].id]);
    expect(await w.entryTypes(placed.id)).toEqual(['sale']);
    // the window runs from the first (lost) attempt
    expect(secondsAfter(attempts[0]!.at, calls(s.kit, 'GET /orders/:id/items'))).toEqual([5, 15]);
  });

  it('410 reservation_expired: one fresh reservation plus order cycle', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    const placed = await w.place(product);
    s.kit.faults.set('POST /orders', { kind: 'reservation_expired', times: 1 });
    await w.pay(placed.id);
    const contract = s.kit.received.filter((r) => r.route === 'POST /reservations' || r.route === 'POST /orders');
    expect(contract.map((r) => `${r.route} ${r.status}`)).toEqual([
      'POST /reservations 201',
      'POST /orders 410',
      'POST /reservations 201',
      'POST /orders 201',
    ]);
    const [, , renewed, ordered] = contract;
    expect(bodyOf(renewed!).reservation_id).not.toBe(placed.items[0].fulfilment.reservation_id);
    expect(bodyOf(ordered!)).toMatchObject({
      order_id: placed.items[0].id,
      reservation_id: bodyOf(renewed!).reservation_id,
    });
    const order = await w.order(placed.id);
    expect(order.status).toBe('completed');
    expect(order.items[0].fulfilment.reservation_id).toBe(bodyOf(renewed!).reservation_id);
    expect((await w.health(s)).score).toBe(100);
  });

  it('410 again after the fresh reservation: failover to the next offer', async () => {
    const product = await w.gameKey();
    const expiring = await w.seller(product, 1000);
    const next = await w.seller(product, 1000);
    const placed = await w.place(product);
    expiring.kit.faults.set('POST /orders', { kind: 'reservation_expired', times: 2 });
    await w.pay(placed.id);
    expect(
      expiring.kit.received.filter((r) => r.route !== 'GET /healthcheck').map((r) => `${r.route} ${r.status}`),
    ).toEqual(['POST /reservations 201', 'POST /orders 410', 'POST /reservations 201', 'POST /orders 410']);
    expect(
      next.kit.received.filter((r) => r.route !== 'GET /healthcheck').map((r) => `${r.route} ${r.status}`),
    ).toEqual(['POST /reservations 201', 'POST /orders 201', 'GET /orders/:id/items 200']);
    const order = await w.order(placed.id);
    expect(order.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [expiring.offerId, 'cancelled'],
      [next.offerId, 'delivered'],
    ]);
    expect(order.status).toBe('completed');
    expect((await w.health(expiring)).score).toBe(95);
  });

  it('202 pending_stock is accepted: polling runs and a later ready delivers (+1 after the first minute)', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    // earn room below 100 so the bonus shows
    s.kit.faults.set('POST /reservations', { kind: 'status', status: 500, times: 2 });
    expect((await w.checkout(product)).status).toBe(409);
    expect((await w.health(s)).score).toBe(95);
    const placed = await w.place(product);
    s.kit.faults.set('POST /orders', { kind: 'pending_stock', times: 1 });
    await w.pay(placed.id);
    expect(calls(s.kit, 'POST /orders').map((r) => r.status)).toEqual([202]);
    expect(s.kit.state.orders[placed.items[0].id]!.response).toEqual({
      order_id: placed.items[0].id,
      status: 'pending_stock',
    });
    for (const step of [5, 10, 15, 60]) await w.svc.advance(step);
    expect((await w.order(placed.id)).status).toBe('placed');
    s.kit.markReady(placed.items[0].id);
    await w.svc.advance(60);
    expect((await w.order(placed.id)).status).toBe('completed');
    expect((await w.health(s)).score).toBe(96);
  });

  it('202 pending_stock never followed by items: the 10-minute window still closes, -30 and a cooldown', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    const placed = await w.place(product);
    s.kit.faults.set('POST /orders', { kind: 'pending_stock', times: 1 });
    await w.pay(placed.id);
    const orderedAt = calls(s.kit, 'POST /orders')[0]!.at;
    await w.svc.advance(599);
    expect((await w.order(placed.id)).items[0].status).toBe('reserved');
    await w.svc.advance(1);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].status]).toEqual(['cancelled', 'cancelled']);
    expect(secondsAfter(orderedAt, calls(s.kit, 'DELETE /orders/:id/items'))).toEqual([600]);
    expect(await w.health(s)).toEqual({
      score: 70,
      routing_eligible: false,
      cooldown_until: new Date(orderedAt + 600_000 + 2 * 3600_000).toISOString(),
    });
  });
});
