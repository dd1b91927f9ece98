import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitFault } from '../../src/sdk/kit/index.js';
import { calls, eur, secondsAfter, startWorld, type Seller, type World } from './support.js';

/**
 * GET /orders/{order_id}/items: polls at +0, +5, +15, +30 s, then every 60 s, inside the
 * 10-minute window from the first POST /orders. `ready` with exactly the ordered count of
 * well-formed items delivers; another count or malformed items is a failed poll; the first
 * good ready is what the buyer gets.
 */
describe('GET /orders/{order_id}/items', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, pollMs: 300, cancelMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  /** Health below 100, so bonuses show: two failed reservation attempts cost 5. */
  const lowerTo95 = async (s: Seller, product: string) => {
    s.kit.faults.set('POST /reservations', { kind: 'status', status: 500, times: 2 });
    expect((await w.checkout(product)).status).toBe(409);
    expect((await w.health(s)).score).toBe(95);
  };

  it('never ready: polls at exactly +0, +5, +15, +30, then every 60 s until the window closes at +600', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    const placed = await w.place(product);
    await w.pay(placed.id);
    const orderedAt = calls(s.kit, 'POST /orders')[0]!.at;
    // 5-second steps through the first minute, then 30-second ones: a poll off the schedule would show
    for (let t = 5; t <= 60; t += 5) await w.svc.advance(5);
    for (let t = 90; t <= 600; t += 30) await w.svc.advance(30);
    const polls = calls(s.kit, 'GET /orders/:id/items');
    expect(secondsAfter(orderedAt, polls)).toEqual([0, 5, 15, 30, 90, 150, 210, 270, 330, 390, 450, 510, 570, 600]);
    expect(
      polls.every(
        (r) => r.path === `/orders/${placed.items[0].id}/items` && r.status === 200 && (r as any).body === undefined,
      ),
    ).toBe(true);
    expect((await w.order(placed.id)).items[0].status).toBe('cancelled');
    await w.svc.advance(3600);
    expect(calls(s.kit, 'GET /orders/:id/items')).toHaveLength(14);
  });

  it('ready within 60 s of POST /orders earns +3, later in the window +1; the sale is posted and order.paid follows capture', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { manualAllocation: true });
    await lowerTo95(s, product);
    const fast = await w.place(product);
    await w.pay(fast.id);
    await w.svc.advance(5);
    await w.svc.advance(10);
    s.kit.markReady(fast.items[0].id);
    await w.svc.advance(15); // the +30 s poll
    expect((await w.order(fast.id)).status).toBe('completed');
    expect((await w.health(s)).score).toBe(98);

    const slow = await w.place(product);
    await w.pay(slow.id);
    for (const step of [5, 10, 15]) await w.svc.advance(step);
    s.kit.markReady(slow.items[0].id);
    await w.svc.advance(59);
    expect((await w.order(slow.id)).status).toBe('placed');
    await w.svc.advance(1); // the +90 s poll
    const done = await w.order(slow.id);
    expect(done.status).toBe('completed');
    expect(done.paid_at).toBe(w.svc.clock.now().toISOString());
    expect((await w.health(s)).score).toBe(99);
    const paid = await w.events(`order-${slow.id}`, 'OrderPaid');
    expect(paid).toHaveLength(1);
    expect(await w.entryTypes(slow.id)).toEqual(['sale']);
  });

  it('a ready answer with another count or malformed items is a failed poll; the first good ready is what the buyer gets, and later polls do not change it', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { stock: { '*': ['GOOD-1', 'GOOD-2', 'SPARE'] } });
    const placed = await w.place(product, { quantity: 2 });
    const id = placed.items[0].id;
    const bad: KitFault[] = [
      { kind: 'wrong_count', delta: 1 },
      { kind: 'wrong_count', delta: -1 },
      { kind: 'malformed' },
      {
        kind: 'status',
        status: 200,
        body: {
          order_id: id,
          status: 'ready',
          items: [
            { kind: 'text', value: '' },
            { kind: 'text', value: 'X' },
          ],
        },
      },
      {
        kind: 'status',
        status: 200,
        body: {
          order_id: id,
          status: 'ready',
          items: [
            { kind: 'file', file_name: 'a.exe', content_type: 'application/x-msdownload', content_base64: 'AA==' },
            { kind: 'text', value: 'X' },
          ],
        },
      },
      { kind: 'status', status: 200, body: { order_id: id, status: 'ready' } },
      { kind: 'status', status: 200, body: { order_id: id, status: 'delivered', items: [] } },
      { kind: 'status', status: 500 },
      { kind: 'hang' },
    ];
    s.kit.faults.set('GET /orders/:id/items', { ...bad[0]!, times: 1 });
    await w.pay(placed.id);
    const orderedAt = calls(s.kit, 'POST /orders')[0]!.at;
    for (const [n, fault] of bad.slice(1).entries()) {
      expect([n, (await w.order(placed.id)).items[0].status]).toEqual([n, 'reserved']);
      s.kit.faults.set('GET /orders/:id/items', { ...fault, times: 1 });
      await w.svc.advance(n < 3 ? [5, 10, 15][n]! : 60);
    }
    expect(s.kit.faults.get('GET /orders/:id/items')).toBeUndefined();
    expect((await w.order(placed.id)).items[0].status).toBe('reserved');
    await w.svc.advance(60);
    const polls = calls(s.kit, 'GET /orders/:id/items');
    expect(secondsAfter(orderedAt, polls)).toEqual([0, 5, 15, 30, 90, 150, 210, 270, 330, 390]);
    const done = await w.order(placed.id);
    expect([done.status, done.items[0].status]).toEqual(['completed', 'delivered']);
    const delivered = (await w.keys(placed.id))[0].keys.map((k: any) => k.value);
    expect(delivered).toEqual(['GOOD-1', 'GOOD-2']);
    expect((await w.health(s)).score).toBe(100);

    // what the buyer got stays: no more polls, whatever the supplier would answer now
    s.kit.state.orders[id]!.items = [
      { kind: 'text', value: 'CHANGED-1' },
      { kind: 'text', value: 'CHANGED-2' },
    ];
    await w.svc.advance(60);
    await w.svc.advance(600);
    expect(calls(s.kit, 'GET /orders/:id/items')).toHaveLength(polls.length);
    expect((await w.keys(placed.id))[0].keys.map((k: any) => k.value)).toEqual(delivered);
    const stored = await w.svc.services.db
      .selectFrom('inventory_values')
      .select('item_id')
      .where('offer_id', '=', s.offerId)
      .execute();
    expect(stored).toHaveLength(2);
  });

  it('file items are handed over as the supplier sent them', async () => {
    const product = await w.gameKey();
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const s = await w.seller(product, 1000, {
      stock: { '*': [{ kind: 'file', file_name: 'card.png', content_type: 'image/png', content_base64: png }] },
    });
    const placed = await w.place(product);
    await w.pay(placed.id);
    expect((await w.order(placed.id)).status).toBe('completed');
    const [key] = (await w.keys(placed.id))[0].keys;
    expect(key).toEqual({
      inventory_item_id: expect.any(String),
      kind: 'file',
      file_name: 'card.png',
      content_type: 'image/png',
      content_base64: png,
    });
    expect(calls(s.kit, 'GET /orders/:id/items')).toHaveLength(1);
  });

  it('two declared items of one supplier are two supplier orders; capture waits for both', async () => {
    const p1 = await w.gameKey();
    const p2 = await w.gameKey();
    const s1 = await w.seller(p1, 1000, { manualAllocation: true });
    // the same supplier systems (one kit) serve the supplier's second offer
    const supplier = s1.api;
    const second = await supplier.post('/offers', {
      product_id: p2,
      stock_mode: 'declared',
      price: eur(500),
      external_ref: 'SKU-B',
      fulfilment: { base_url: s1.kit.url },
      declared_stock: 5,
    });
    expect(second.status, second.text).toBe(201);
    s1.kit.setSecrets([s1.secret, second.body.fulfilment.secret]);
    expect((await supplier.post(`/offers/${second.body.id}/activate`)).status).toBe(200);
    const placed = await w.svc.operator.post('/orders', {
      items: [
        { product_id: p1, quantity: 1 },
        { product_id: p2, quantity: 1 },
      ],
      buyer_country: 'DE',
    });
    expect(placed.status, placed.text).toBe(201);
    const [a, b] = placed.body.items;
    await w.pay(placed.body.id);
    // both run side by side; compare them in item order
    const ordered = calls(s1.kit, 'POST /orders').map((r) => [
      (r.body as any).order_id,
      (r.body as any).marketplace_order_id,
      r.offerId,
      r.status,
    ]);
    expect(ordered.sort((x, y) => (x[0] === a.id ? -1 : y[0] === a.id ? 1 : 0))).toEqual([
      [a.id, placed.body.id, s1.offerId, 201],
      [b.id, placed.body.id, second.body.id, 201],
    ]);
    s1.kit.markReady(a.id);
    await w.svc.advance(5);
    let order = await w.order(placed.body.id);
    expect([order.status, order.items.map((i: any) => i.status)]).toEqual(['placed', ['delivered', 'reserved']]);
    s1.kit.markReady(b.id);
    await w.svc.advance(10);
    order = await w.order(placed.body.id);
    expect([order.status, order.items.map((i: any) => i.status)]).toEqual(['completed', ['delivered', 'delivered']]);
    expect(order.totals.gross).toEqual(eur(1500));
    expect(await w.events(`order-${placed.body.id}`, 'OrderPaid')).toHaveLength(1);
  });
});
