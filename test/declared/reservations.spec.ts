import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, calls, secondsAfter, startWorld, type World } from './support.js';

/**
 * POST /reservations at checkout: 10 s per attempt (lowered here), 2 attempts, the retry
 * after 2 s of the service's clock. 201/200 hold; 409 out_of_stock (-2) and region_blocked
 * (no penalty) go to the next offer at once; anything else after both attempts costs 5.
 */
describe('POST /reservations', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  it('201 holds the stock until expires_at (the reservation TTL, 15 minutes)', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { stock: { '*': ['K1', 'K2'] } });
    const t0 = w.svc.clock.now().getTime();
    const order = await w.place(product, { quantity: 2 });
    const [call] = calls(s.kit, 'POST /reservations');
    expect(call!.status).toBe(201);
    expect(bodyOf(call!)).toEqual({
      reservation_id: order.items[0].fulfilment.reservation_id,
      offer_id: s.offerId,
      external_ref: s.externalRef,
      product_id: product,
      quantity: 2,
      buyer_country: 'DE',
      expires_at: new Date(t0 + 15 * 60_000).toISOString(),
    });
    expect(order.items.map((i: any) => [i.offer_id, i.quantity, i.status, i.fulfilment.source])).toEqual([
      [s.offerId, 2, 'reserved', 'declared'],
    ]);
    expect(s.kit.state.stock['*']).toEqual([]);
    expect((await w.health(s)).score).toBe(100);
  });

  it('a 503 on the first attempt only: the second attempt 2 s later holds, no penalty', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    s.kit.faults.set('POST /reservations', { kind: 'status', status: 503, times: 1 });
    const t0 = w.svc.clock.now().getTime();
    const order = await w.place(product);
    const attempts = calls(s.kit, 'POST /reservations');
    expect(attempts.map((r) => r.status)).toEqual([503, 201]);
    expect(secondsAfter(t0, attempts)).toEqual([0, 2]);
    expect(bodyOf(attempts[1]!).reservation_id).toBe(bodyOf(attempts[0]!).reservation_id);
    expect(order.items[0].offer_id).toBe(s.offerId);
    expect((await w.health(s)).score).toBe(100);
  });

  it('a first attempt that never answers times out; the retry 2 s later holds, no penalty', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    s.kit.faults.set('POST /reservations', { kind: 'hang', times: 1 });
    const t0 = w.svc.clock.now().getTime();
    const started = performance.now();
    const order = await w.place(product);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290); // the (lowered) per-attempt timeout
    const attempts = calls(s.kit, 'POST /reservations');
    expect(attempts.map((r) => r.status)).toEqual([undefined, 201]);
    expect(secondsAfter(t0, attempts)).toEqual([0, 2]);
    expect(order.items[0].offer_id).toBe(s.offerId);
    expect((await w.health(s)).score).toBe(100);
  });

  it('200: the retry of a reservation whose answer was lost is an idempotent replay of the same reservation_id', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { stock: { '*': ['ONLY-KEY'] } });
    s.kit.faults.set('POST /reservations', { kind: 'hang', process: true, times: 1 });
    const order = await w.place(product);
    const attempts = calls(s.kit, 'POST /reservations');
    expect(attempts.map((r) => r.status)).toEqual([undefined, 200]);
    const id = order.items[0].fulfilment.reservation_id;
    expect(attempts.map((r) => bodyOf(r).reservation_id)).toEqual([id, id]);
    expect(Object.values(s.kit.state.reservations).map((r) => [r.reservation_id, r.status, r.items])).toEqual([
      [id, 'held', [{ kind: 'text', value: 'ONLY-KEY' }]],
    ]);
    expect((await w.health(s)).score).toBe(100);
    await w.pay(order.id);
    expect((await w.keys(order.id))[0].keys.map((k: any) => k.value)).toEqual(['ONLY-KEY']);
  });

  it('both attempts failing (timeout, 5xx, an unexpected 4xx) cost 5 points each time and the next offer is tried', async () => {
    const product = await w.gameKey();
    const first = await w.seller(product, 900);
    const second = await w.seller(product, 950);
    const cases = [
      { kind: 'hang' as const, statuses: [undefined, undefined] },
      { kind: 'status' as const, status: 500, statuses: [500, 500] },
      { kind: 'status' as const, status: 422, statuses: [422, 422] },
      { kind: 'status' as const, status: 409, body: { code: 'something_else' }, statuses: [409, 409] },
    ];
    let expected = 100;
    for (const { statuses, ...fault } of cases) {
      first.kit.faults.set('POST /reservations', { ...fault, times: 2 });
      const before = calls(first.kit, 'POST /reservations').length;
      const t0 = w.svc.clock.now().getTime();
      const order = await w.place(product);
      expect(order.items[0].offer_id).toBe(second.offerId);
      const attempts = calls(first.kit, 'POST /reservations').slice(before);
      expect([fault, attempts.map((r) => r.status)]).toEqual([fault, statuses]);
      expect(secondsAfter(t0, attempts)).toEqual([0, 2]);
      // the next offer is asked once the first gave up
      expect(secondsAfter(t0, calls(second.kit, 'POST /reservations').slice(-1))).toEqual([2]);
      expected -= 5;
      expect((await w.health(first)).score).toBe(expected);
    }
    expect((await w.health(second)).score).toBe(100);
    expect(
      Object.keys(first.kit.state.reservations).filter((id) => first.kit.state.reservations[id]!.status === 'held'),
    ).toEqual([]);
  });

  it('409 out_of_stock: -2 and the next offer at once; 409 region_blocked: the next offer, no penalty; neither is retried', async () => {
    const product = await w.gameKey();
    const empty = await w.seller(product, 800, { stock: { '*': [] } });
    const blocked = await w.seller(product, 850, { blockedCountries: ['DE'] });
    const holds = await w.seller(product, 900);
    const t0 = w.svc.clock.now().getTime();
    const order = await w.place(product);
    expect(order.items[0].offer_id).toBe(holds.offerId);
    expect(
      calls(empty.kit, 'POST /reservations').map((r) => [r.status, bodyOf(r).reservation_id === undefined]),
    ).toEqual([[409, false]]);
    expect(calls(blocked.kit, 'POST /reservations').map((r) => r.status)).toEqual([409]);
    expect(
      secondsAfter(t0, [
        ...calls(empty.kit, 'POST /reservations'),
        ...calls(blocked.kit, 'POST /reservations'),
        ...calls(holds.kit, 'POST /reservations'),
      ]),
    ).toEqual([0, 0, 0]);
    expect((await w.health(empty)).score).toBe(98);
    expect((await w.health(blocked)).score).toBe(100);
    // a buyer the blocking supplier serves reaches it
    const fr = await w.place(product, { country: 'FR' });
    expect(fr.items[0].offer_id).toBe(blocked.offerId);
  });

  it('failover across three declared offers: the first out of stock, the second 5xx twice, the third holds', async () => {
    const product = await w.gameKey();
    const a = await w.seller(product, 700, { stock: { '*': [] } });
    const b = await w.seller(product, 750);
    const c = await w.seller(product, 800);
    b.kit.faults.set('POST /reservations', { kind: 'status', status: 503, times: 2 });
    const t0 = w.svc.clock.now().getTime();
    const order = await w.place(product);
    expect(order.items.map((i: any) => [i.offer_id, i.status])).toEqual([[c.offerId, 'reserved']]);
    const timeline = [a, b, c]
      .flatMap((s, n) =>
        calls(s.kit, 'POST /reservations').map((r) => ({
          at: (r.at - t0) / 1000,
          who: 'abc'[n],
          status: r.status,
          seq: r.seq,
        })),
      )
      .sort((x, y) => x.at - y.at || 'abc'.indexOf(x.who!) - 'abc'.indexOf(y.who!));
    expect(timeline.map(({ at, who, status }) => [at, who, status])).toEqual([
      [0, 'a', 409],
      [0, 'b', 503],
      [2, 'b', 503],
      [2, 'c', 201],
    ]);
    expect([(await w.health(a)).score, (await w.health(b)).score, (await w.health(c)).score]).toEqual([98, 95, 100]);
    await w.pay(order.id);
    expect((await w.order(order.id)).status).toBe('completed');
    expect(calls(a.kit, 'POST /orders')).toEqual([]);
    expect(calls(b.kit, 'POST /orders')).toEqual([]);
  });

  it('no offer holds: 409 out_of_stock, and what was held for a split line is released with DELETE /reservations/{id}', async () => {
    const product = await w.gameKey();
    const one = await w.seller(product, 700, { stock: { '*': ['A'] }, declaredStock: 1 });
    const none = await w.seller(product, 800, { stock: { '*': [] } });
    const refused = await w.checkout(product, { quantity: 2 });
    expect([refused.status, refused.body.code]).toEqual([409, 'out_of_stock']);
    const held = calls(one.kit, 'POST /reservations');
    expect(held.map((r) => [r.status, bodyOf(r).quantity])).toEqual([[201, 1]]);
    const released = calls(one.kit, 'DELETE /reservations/:id');
    expect(released.map((r) => [r.path, r.status])).toEqual([
      [`/reservations/${bodyOf(held[0]!).reservation_id}`, 200],
    ]);
    expect(one.kit.state.stock['*']).toEqual([{ kind: 'text', value: 'A' }]);
    expect(calls(none.kit, 'POST /reservations').map((r) => [r.status, bodyOf(r).quantity])).toEqual([[409, 1]]);
  });

  it('an unpaid order expires after 15 minutes and its supplier reservation is released early', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000, { stock: { '*': ['A'] } });
    const order = await w.place(product);
    await w.svc.advance(15 * 60);
    expect((await w.order(order.id)).status).toBe('expired');
    expect(calls(s.kit, 'DELETE /reservations/:id').map((r) => [r.path, r.status])).toEqual([
      [`/reservations/${order.items[0].fulfilment.reservation_id}`, 200],
    ]);
    expect(s.kit.state.stock['*']).toEqual([{ kind: 'text', value: 'A' }]);
  });
});
