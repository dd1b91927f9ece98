import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });
type Api = Awaited<ReturnType<TestService['newSupplier']>>['api'];

describe('declared stock against the reference supplier kit', () => {
  let svc: TestService;
  const kits: SupplierKit[] = [];
  beforeAll(async () => {
    svc = await startTestService({ supplierTimeouts: { reservationMs: 300, orderMs: 300, pollMs: 300, cancelMs: 300, healthcheckMs: 300 }, limits: { test: 1000 } });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all(kits.map((k) => k.close()));
  });

  /** A supplier with a declared offer on `productId`, served by its own kit. */
  const declaredSeller = async (name: string, productId: string, price: number, options: Partial<Parameters<typeof startSupplierKit>[0]> = {}) => {
    const kit = await startSupplierKit({ secrets: ['svcsec_placeholder'], now: () => svc.clock.now().getTime(), manualAllocation: true, ...options });
    kits.push(kit);
    const seller = await svc.newSupplier(name);
    const offer = await seller.api.post('/offers', { product_id: productId, stock_mode: 'declared', price: eur(price), external_ref: `${name}-SKU`, fulfilment: { base_url: kit.url }, declared_stock: 10 });
    expect(offer.status, offer.text).toBe(201);
    kit.setSecrets([offer.body.fulfilment.secret]);
    expect((await seller.api.post(`/offers/${offer.body.id}/activate`)).status).toBe(200);
    return { kit, api: seller.api as Api, offerId: offer.body.id as string, secret: offer.body.fulfilment.secret as string };
  };
  const health = async (api: Api, offerId: string) => (await api.get(`/offers/${offerId}`)).body.health;
  const place = async (productId: string) => {
    const placed = await svc.operator.post('/orders', { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' });
    expect(placed.status, placed.text).toBe(201);
    return placed.body;
  };
  const routes = (kit: SupplierKit) => kit.received.map((r) => `${r.method} ${r.route}`);

  it('runs the whole contract, every call signed and accepted by the kit, polls at +0, +5, +15, +30 s then every 60 s', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Exact', product, 1000);
    const order = await place(product);
    const item = order.items[0];
    expect(item.fulfilment.reservation_id).toEqual(expect.any(String));
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    const orderedAt = s.kit.received.find((r) => r.route === 'POST /orders')!.at;
    for (const step of [5, 10, 15, 60, 60]) await svc.advance(step);
    s.kit.markReady(item.id);
    await svc.advance(60);
    const polls = s.kit.received.filter((r) => r.route === 'GET /orders/:id/items').map((r) => (r.at - orderedAt) / 1000);
    expect(polls).toEqual([0, 5, 15, 30, 90, 150, 210]);
    expect(s.kit.received.every((r) => r.route === 'GET /healthcheck' || r.signature === 'ok')).toBe(true);
    expect(new Set(s.kit.received.map((r) => r.userAgent))).toEqual(new Set(['service-fulfilment/1.0']));
    expect(s.kit.received.every((r) => r.offerId === s.offerId)).toBe(true);
    const done = await svc.operator.get(`/orders/${order.id}`);
    expect(done.body.status).toBe('completed');
    expect((await svc.operator.get(`/orders/${order.id}/deliverables`)).body.items[0].keys).toHaveLength(1);
    expect((await health(s.api, s.offerId)).score).toBe(100); // +1, capped
  });

  it('retries POST /reservations once after 2 s; two failures cost 5 points and the next offer is tried', async () => {
    const product = (await svc.newProduct()).id;
    const first = await declaredSeller('FirstRes', product, 900);
    const second = await declaredSeller('SecondRes', product, 950);
    first.kit.faults.set('POST /reservations', { kind: 'status', status: 503, times: 1 });
    const t0 = svc.clock.now().getTime();
    const order = await place(product);
    expect(order.items[0].offer_id).toBe(first.offerId);
    const attempts = first.kit.received.filter((r) => r.route === 'POST /reservations');
    expect(attempts.map((r) => r.at - t0)).toEqual([0, 2000]);
    first.kit.faults.set('POST /reservations', { kind: 'hang', times: 2 });
    const next = await place(product);
    expect(next.items[0].offer_id).toBe(second.offerId);
    expect((await health(first.api, first.offerId)).score).toBe(95);
  });

  it('409 out_of_stock costs 2 points and fails over; region_blocked costs nothing; three offers fail over in turn', async () => {
    const product = (await svc.newProduct()).id;
    const a = await declaredSeller('A', product, 800, { stock: { '*': [] } });
    const b = await declaredSeller('B', product, 850, { blockedCountries: ['DE'] });
    const c = await declaredSeller('C', product, 900);
    const order = await place(product);
    expect(order.items[0].offer_id).toBe(c.offerId);
    expect(a.kit.received.filter((r) => r.route === 'POST /reservations').map((r) => r.status)).toEqual([409]);
    expect((await health(a.api, a.offerId)).score).toBe(98);
    expect((await health(b.api, b.offerId)).score).toBe(100);
  });

  it('POST /orders: 3 attempts 5 s apart; a 410 gets one fresh reservation; 202 pending_stock still delivers', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Orders', product, 1000);
    s.kit.faults.set('POST /orders', { kind: 'status', status: 500, times: 2 });
    const order = await place(product);
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    await svc.advance(5);
    await svc.advance(5);
    const calls = s.kit.received.filter((r) => r.route === 'POST /orders');
    expect(calls.map((r) => r.status)).toEqual([500, 500, 201]);
    expect(calls[2]!.at - calls[0]!.at).toBe(10_000);
    s.kit.markReady(order.items[0].id);
    await svc.advance(60);
    expect((await svc.operator.get(`/orders/${order.id}`)).body.status).toBe('completed');

    s.kit.faults.set('POST /orders', { kind: 'reservation_expired', times: 1 });
    const renewed = await place(product);
    await svc.operator.post(`/orders/${renewed.id}/pay`);
    await svc.drain();
    const after = s.kit.received.filter((r) => r.route === 'POST /reservations' || r.route === 'POST /orders').slice(-3);
    expect(after.map((r) => `${r.route} ${r.status}`)).toEqual(['POST /orders 410', 'POST /reservations 201', 'POST /orders 201']);

    s.kit.faults.set('POST /orders', { kind: 'pending_stock', times: 1 });
    const pending = await place(product);
    await svc.operator.post(`/orders/${pending.id}/pay`);
    await svc.drain();
    s.kit.markReady(pending.items[0].id);
    await svc.advance(5);
    expect((await svc.operator.get(`/orders/${pending.id}`)).body.status).toBe('completed');
  });

  it('a ready answer with another count is a failure; the first good one is what the buyer gets', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Count', product, 1000);
    const order = await place(product);
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    s.kit.markReady(order.items[0].id);
    s.kit.faults.set('GET /orders/:id/items', { kind: 'wrong_count', delta: 1, times: 1 });
    await svc.advance(5);
    expect((await svc.operator.get(`/orders/${order.id}`)).body.status).toBe('placed');
    await svc.advance(10);
    const keys = (await svc.operator.get(`/orders/${order.id}/deliverables`)).body.items[0].keys;
    expect(keys).toHaveLength(1);
    expect(keys[0].value).toBe((s.kit.state.orders[order.items[0].id]!.items[0] as { value: string }).value);
  });

  it('a missed 10-minute window: DELETE sent (405 accepted, 3 attempts over an hour), -30 and a cooldown, the item rerouted', async () => {
    const product = (await svc.newProduct()).id;
    const slow = await declaredSeller('Slow', product, 700, { supportsItemReturn: false });
    // same price, activated later: routing prefers the slow one; rerouting takes no more than the buyer's price
    const backup = await declaredSeller('Backup', product, 700);
    const order = await place(product);
    expect(order.items[0].offer_id).toBe(slow.offerId);
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    await svc.advance(600);
    const h = await health(slow.api, slow.offerId);
    expect(h.score).toBe(70);
    expect(h.cooldown_until).toBe(new Date(svc.clock.now().getTime() + 2 * 3600_000).toISOString());
    expect(h.routing_eligible).toBe(false);
    expect(slow.kit.received.filter((r) => r.route === 'DELETE /orders/:id/items').map((r) => r.status)).toEqual([405]);
    const rerouted = (await svc.operator.get(`/orders/${order.id}`)).body;
    expect(rerouted.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [slow.offerId, 'cancelled'],
      [backup.offerId, 'reserved'],
    ]);
    backup.kit.markReady(rerouted.items[1].id);
    await svc.advance(5);
    const done = (await svc.operator.get(`/orders/${order.id}`)).body;
    expect(done.status).toBe('completed');
    expect(done.totals.gross).toEqual(eur(700));
    // with nobody else to take it, a missed window leaves the item cancelled and uncharged
    const lone = (await svc.newProduct()).id;
    const alone = await declaredSeller('Alone', lone, 500);
    const orphan = await place(lone);
    await svc.operator.post(`/orders/${orphan.id}/pay`);
    await svc.drain();
    await svc.advance(600);
    const cancelled = (await svc.operator.get(`/orders/${orphan.id}`)).body;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.items.map((i: any) => i.status)).toEqual(['cancelled']);
    expect(alone.kit.received.filter((r) => r.route === 'DELETE /orders/:id/items').map((r) => r.status)).toEqual([200]);
  });

  it('healthchecks every 5 minutes; exhaustion, cooldown, restoration to 70, and deactivation after 24 hours of cooldown', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Sick', product, 1000);
    const checks = () => s.kit.received.filter((r) => r.route === 'GET /healthcheck').map((r) => r.at);
    const before = checks().length;
    await svc.advance(300);
    await svc.advance(300);
    expect(checks().length).toBe(before + 2);
    s.kit.faults.set('GET /healthcheck', { kind: 'status', status: 503 });
    for (let i = 0; i < 6; i++) await svc.advance(300); // -10 each: 100 -> 40, exhausted
    let h = await health(s.api, s.offerId);
    expect(h.score).toBe(40);
    expect(h.cooldown_until).not.toBeNull();
    const cooldownChecks = checks().length;
    await svc.advance(600);
    expect(checks().length).toBe(cooldownChecks + 1); // every 10 minutes in cooldown
    s.kit.faults.clear('GET /healthcheck');
    await svc.advance(2 * 3600);
    h = await health(s.api, s.offerId);
    expect(h).toMatchObject({ score: 70, cooldown_until: null, routing_eligible: true });
    s.kit.faults.set('GET /healthcheck', { kind: 'status', status: 503 });
    for (let i = 0; i < 3; i++) await svc.advance(300); // 70 -> 40: a new cooldown
    for (let hour = 0; hour < 25; hour++) await svc.advance(3600);
    const offer = (await s.api.get(`/offers/${s.offerId}`)).body;
    expect(offer.status).toBe('inactive');
    const deactivated = await svc.services.db.selectFrom('es_events' as any).select(['data'] as any).where('type' as any, '=', 'OfferDeactivated').where('stream_id' as any, '=', `offer-${s.offerId}`).execute();
    expect(deactivated.map((e: any) => e.data.reason)).toEqual(['health_exhausted']);
  });

  it('DELETE /orders/{id}/items: 3 attempts over an hour when the supplier fails; a refund sends it too', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Returns', product, 600);
    const order = await place(product);
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    s.kit.faults.set('DELETE /orders/:id/items', { kind: 'status', status: 500, times: 3 });
    await svc.advance(600); // the window closes: cancel, return
    for (let i = 0; i < 4; i++) await svc.advance(30 * 60);
    const deletes = s.kit.received.filter((r) => r.route === 'DELETE /orders/:id/items');
    expect(deletes.map((r) => r.status)).toEqual([500, 500, 500]);
    expect(deletes.map((r) => (r.at - deletes[0]!.at) / 60_000)).toEqual([0, 30, 60]);

    const refunded = await place(product);
    await svc.operator.post(`/orders/${refunded.id}/pay`);
    await svc.drain();
    s.kit.markReady(refunded.items[0].id);
    await svc.advance(5);
    expect((await svc.operator.get(`/orders/${refunded.id}`)).body.status).toBe('completed');
    await svc.operator.post(`/orders/${refunded.id}/refund`, {});
    await svc.drain();
    const last = s.kit.received.filter((r) => r.route === 'DELETE /orders/:id/items').at(-1)!;
    expect([last.path, last.status]).toEqual([`/orders/${refunded.items[0].id}/items`, 200]);
  });

  it('a lost POST /orders answer: the retry gets 409 with the original body, taken as success, one sale', async () => {
    const product = (await svc.newProduct()).id;
    const s = await declaredSeller('Dup', product, 1000);
    s.kit.faults.set('POST /orders', { kind: 'hang', process: true, times: 1 });
    const order = await place(product);
    await svc.operator.post(`/orders/${order.id}/pay`);
    await svc.drain();
    await svc.advance(5);
    expect(s.kit.received.filter((r) => r.route === 'POST /orders').map((r) => r.status)).toEqual([undefined, 409]);
    s.kit.markReady(order.items[0].id);
    await svc.advance(15);
    expect((await svc.operator.get(`/orders/${order.id}`)).body.status).toBe('completed');
    expect(Object.keys(s.kit.state.orders)).toEqual([order.items[0].id]);
    const sales = await svc.services.db.selectFrom('balance_entries').select('type').where('order_id', '=', order.id).execute();
    expect(sales.map((e) => e.type)).toEqual(['sale']);
  });
});
