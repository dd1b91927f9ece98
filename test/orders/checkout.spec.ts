import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { checkout, eur, keys, stockOf, type Supplier, uploadedOffer, troubles, withDb } from './fixtures.js';

/** Checkout: routing, reservations, splitting a line across offers, out of stock, the sandbox endpoint. */
describe('checkout', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    alpha = await svc.newSupplier('Alpha Keys');
    beta = await svc.newSupplier('Beta Keys');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  it('routes a line to the cheapest offer and reserves its first uploaded keys for 15 minutes', async () => {
    const product = await svc.newProduct({ name: 'Cheapest wins' });
    const pricey = await uploadedOffer(alpha, product.id, {
      price: 1500,
      values: keys('A1', 3),
      externalRef: 'ALPHA-1',
    });
    const cheap = await uploadedOffer(beta, product.id, { price: 1200, values: keys('B1', 3), externalRef: 'BETA-1' });
    const now = svc.clock.now();

    const order = await checkout(svc, [{ product_id: product.id, quantity: 2 }], 'FR');
    expect(order).toEqual({
      id: order.id,
      number: `SVC-${order.id}`,
      status: 'placed',
      buyer_country: 'FR',
      currency: 'EUR',
      created_at: now.toISOString(),
      paid_at: null,
      completed_at: null,
      expires_at: new Date(now.getTime() + 15 * 60_000).toISOString(),
      items: [
        {
          id: order.items[0].id,
          product_id: product.id,
          offer_id: cheap.offerId,
          external_ref: 'BETA-1',
          quantity: 2,
          unit_price: eur(1200),
          gross: eur(2400),
          commission: eur(204), // 2400 * 8.5% = 204 exactly
          net: eur(2196),
          status: 'reserved',
          fulfilment: { source: 'uploaded', reservation_id: null, inventory_item_ids: cheap.itemIds.slice(0, 2) },
          delivered_at: null,
          disputed_at: null,
        },
      ],
      totals: { gross: eur(2400), commission: eur(204), net: eur(2196) },
    });
    expect(await stockOf(beta, cheap.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 1,
      reserved: 2,
      delivered: 0,
    });
    expect(await stockOf(alpha, pricey.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 3,
      reserved: 0,
      delivered: 0,
    });
    // the supplier whose offer was not chosen has no part in the order
    expect((await alpha.api.get(`/orders/${order.id}`)).status).toBe(404);
    expect((await beta.api.get(`/orders/${order.id}`)).body.items.map((i: any) => i.offer_id)).toEqual([cheap.offerId]);
  });

  it('breaks a price tie on health: a reactivated offer (health 70) loses to one at 100 activated later', async () => {
    const product = await svc.newProduct({ name: 'Health decides' });
    const older = await uploadedOffer(alpha, product.id, { price: 1000, values: keys('A2', 2) });
    await svc.advance(1);
    expect((await alpha.api.post(`/offers/${older.offerId}/deactivate`)).status).toBe(200);
    const again = await alpha.api.post(`/offers/${older.offerId}/activate`);
    expect(again.body.health).toEqual({ score: 70, routing_eligible: true, cooldown_until: null });
    await svc.advance(1);
    const newer = await uploadedOffer(beta, product.id, { price: 1000, values: keys('B2', 2) });
    expect((await beta.api.get(`/offers/${newer.offerId}`)).body.health.score).toBe(100);

    const order = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    expect(order.items.map((i: any) => i.offer_id)).toEqual([newer.offerId]);
  });

  it('breaks a tie on price and health on activation: the earlier activated offer wins', async () => {
    const product = await svc.newProduct({ name: 'First come' });
    const later = await uploadedOffer(alpha, product.id, { price: 900, values: keys('A3', 2), activate: false });
    const earlier = await uploadedOffer(beta, product.id, { price: 900, values: keys('B3', 2) });
    await svc.advance(1);
    expect((await alpha.api.post(`/offers/${later.offerId}/activate`)).status).toBe(200);

    const first = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    expect(first.items.map((i: any) => i.offer_id)).toEqual([earlier.offerId]);
    // the earlier offer sold out (one key left, then none): the next goes to the other
    const second = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    expect(second.items.map((i: any) => i.offer_id)).toEqual([earlier.offerId]);
    const third = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
    expect(third.items.map((i: any) => i.offer_id)).toEqual([later.offerId]);
  });

  it("splits a quantity above the best offer's stock across offers in routing order, an order item per offer", async () => {
    const product = await svc.newProduct({ name: 'Split me' });
    const first = await uploadedOffer(alpha, product.id, { price: 700, values: keys('A4', 2), externalRef: 'A-SPLIT' });
    const second = await uploadedOffer(beta, product.id, { price: 750, values: keys('B4', 5), externalRef: 'B-SPLIT' });

    const order = await checkout(svc, [{ product_id: product.id, quantity: 5 }]);
    expect(
      order.items.map((i: any) => [
        i.offer_id,
        i.external_ref,
        i.quantity,
        i.unit_price.amount,
        i.gross.amount,
        i.commission.amount,
        i.net.amount,
        i.fulfilment.inventory_item_ids,
      ]),
    ).toEqual([
      [first.offerId, 'A-SPLIT', 2, 700, 1400, 119, 1281, first.itemIds],
      [second.offerId, 'B-SPLIT', 3, 750, 2250, 191, 2059, second.itemIds.slice(0, 3)], // 191.25 rounds down
    ]);
    expect(order.totals).toEqual({ gross: eur(3650), commission: eur(310), net: eur(3340) });
    expect(await stockOf(alpha, first.offerId)).toMatchObject({ available: 0, reserved: 2 });
    expect(await stockOf(beta, second.offerId)).toMatchObject({ available: 2, reserved: 3 });
    // from uploaded stock the whole checkout is one write: both reservations and the order
    const written = await withDb(svc, async (db) =>
      (
        await db.query(
          `select stream_id, type from es_events
            where transaction_id = (select transaction_id from es_events where stream_id = $1 and type = 'OrderPlaced')
            order by position`,
          [`order-${order.id}`],
        )
      ).rows.map((r) => [r.stream_id, r.type]),
    );
    expect(written).toEqual([
      [`inventory-${first.offerId}`, 'InventoryReserved'],
      [`inventory-${first.offerId}`, 'OfferStockLow'], // its last keys
      [`inventory-${second.offerId}`, 'InventoryReserved'],
      [`order-${order.id}`, 'OrderPlaced'],
      [`routing-${order.id}`, 'OrderRouted'], // the routing receipt, with the placement
    ]);

    // paying delivers both items; each supplier sees its own item and totals over it
    const paid = await svc.operator.post(`/orders/${order.id}/pay`);
    expect(paid.body.status).toBe('completed');
    expect(paid.body.items.map((i: any) => i.status)).toEqual(['delivered', 'delivered']);
    const forBeta = await beta.api.get(`/orders/${order.id}`);
    expect(forBeta.body.items.map((i: any) => i.offer_id)).toEqual([second.offerId]);
    expect(forBeta.body.totals).toEqual({ gross: eur(2250), commission: eur(191), net: eur(2059) });
  });

  it('fails with 409 out_of_stock when all offers together cannot cover a line, and keeps nothing reserved', async () => {
    const product = await svc.newProduct({ name: 'Not enough' });
    const a = await uploadedOffer(alpha, product.id, { price: 500, values: keys('A5', 2) });
    const b = await uploadedOffer(beta, product.id, { price: 600, values: keys('B5', 3) });
    const other = await svc.newProduct({ name: 'Plenty' });
    const c = await uploadedOffer(alpha, other.id, { price: 400, values: keys('A6', 4) });

    const res = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 6 }],
      buyer_country: 'DE',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, code: 'out_of_stock', title: 'Out of stock' });
    expect(res.body.detail).toBe(`not enough stock for product ${product.id}: 5 of 6 available`);
    // a first line that could be served is released too when a later one cannot
    const two = await svc.operator.post('/orders', {
      items: [
        { product_id: other.id, quantity: 3 },
        { product_id: product.id, quantity: 6 },
      ],
      buyer_country: 'DE',
    });
    expect(two.status).toBe(409);
    expect(two.body.code).toBe('out_of_stock');
    await svc.drain();
    // nothing was reserved on the way, not even for a moment
    const touched = await withDb(svc, async (db) =>
      (
        await db.query(`select type from es_events where stream_id = any($1) and type <> 'InventoryUploaded'`, [
          [a.offerId, b.offerId, c.offerId].map((id) => `inventory-${id}`),
        ])
      ).rows.map((r) => r.type),
    );
    expect(touched).toEqual([]);
    expect(await stockOf(alpha, a.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 2,
      reserved: 0,
      delivered: 0,
    });
    expect(await stockOf(beta, b.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 3,
      reserved: 0,
      delivered: 0,
    });
    expect(await stockOf(alpha, c.offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 4,
      reserved: 0,
      delivered: 0,
    });
    // and exactly what is there can still be bought
    const all = await checkout(svc, [{ product_id: product.id, quantity: 5 }]);
    expect(all.items.map((i: any) => i.quantity)).toEqual([2, 3]);
    const none = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('out_of_stock');
  });

  it('refuses unknown and unsellable products, and offers that are not routable', async () => {
    const unknown = await svc.operator.post('/orders', {
      items: [{ product_id: 'nope', quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'body.items.0.product_id', message: 'no product nope' }]);
    const retired = await svc.newProduct({ name: 'Retired', status: 'not_sellable' });
    const unsellable = await svc.operator.post('/orders', {
      items: [{ product_id: retired.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(unsellable.status).toBe(422);
    expect(unsellable.body.code).toBe('product_not_sellable');
    // a draft offer with keys is not routed
    const product = await svc.newProduct({ name: 'Only drafts' });
    await uploadedOffer(alpha, product.id, { price: 500, values: keys('A7', 2), activate: false });
    const draft = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(draft.status).toBe(409);
    expect(draft.body.code).toBe('out_of_stock');
    const badCountry = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'de',
    });
    expect(badCountry.status).toBe(422);
  });

  describe('POST /sandbox/orders', () => {
    it("runs the whole pipeline against the supplier's own offer, even when another one is cheaper", async () => {
      const product = await svc.newProduct({ name: 'Sandbox own offer' });
      const own = await uploadedOffer(alpha, product.id, { price: 2000, values: keys('A8', 3), externalRef: 'OWN' });
      await uploadedOffer(beta, product.id, { price: 100, values: keys('B8', 3) });
      const now = svc.clock.now().toISOString();

      const res = await alpha.api.post('/sandbox/orders', { offer_id: own.offerId, quantity: 2, buyer_country: 'NL' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        number: `SVC-${res.body.id}`,
        status: 'completed',
        buyer_country: 'NL',
        currency: 'EUR',
        created_at: now,
        paid_at: now,
        completed_at: now,
        expires_at: new Date(svc.clock.now().getTime() + 15 * 60_000).toISOString(),
        items: [
          {
            id: res.body.items[0].id,
            product_id: product.id,
            offer_id: own.offerId,
            external_ref: 'OWN',
            quantity: 2,
            unit_price: eur(2000),
            gross: eur(4000),
            commission: eur(340),
            net: eur(3660),
            status: 'delivered',
            fulfilment: { source: 'uploaded', reservation_id: null, inventory_item_ids: own.itemIds.slice(0, 2) },
            delivered_at: now,
            disputed_at: null,
          },
        ],
        totals: { gross: eur(4000), commission: eur(340), net: eur(3660) },
      });
      expect((await alpha.api.get(`/orders/${res.body.id}`)).body).toEqual(res.body);
      expect(await stockOf(alpha, own.offerId)).toEqual({
        mode: 'uploaded',
        declared: null,
        available: 1,
        reserved: 0,
        delivered: 2,
      });
    });

    it('answers 404 for an offer of another supplier, 409 for more than the offer holds, 422 for an unknown scenario', async () => {
      const product = await svc.newProduct({ name: 'Sandbox refusals' });
      const theirs = await uploadedOffer(beta, product.id, { price: 800, values: keys('B9', 1) });
      const notMine = await alpha.api.post('/sandbox/orders', {
        offer_id: theirs.offerId,
        quantity: 1,
        buyer_country: 'DE',
      });
      expect(notMine.status).toBe(404);
      expect(notMine.body.code).toBe('not_found');
      const tooMany = await beta.api.post('/sandbox/orders', {
        offer_id: theirs.offerId,
        quantity: 2,
        buyer_country: 'DE',
      });
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.code).toBe('out_of_stock');
      const scenario = await beta.api.post('/sandbox/orders', {
        offer_id: theirs.offerId,
        quantity: 1,
        buyer_country: 'DE',
        scenario: 'lost_in_mail',
      });
      expect(scenario.status).toBe(422);
      expect(scenario.body.code).toBe('validation_failed');
      expect(scenario.body.errors.map((e: any) => e.field)).toEqual(['body.scenario']);
      expect(await stockOf(beta, theirs.offerId)).toMatchObject({ available: 1, reserved: 0, delivered: 0 });
    });
  });
});

describe('POST /sandbox/orders in production', () => {
  let svc: TestService;
  afterAll(() => svc?.stop());

  it('does not exist: 404 not_found, and nothing is sold', async () => {
    svc = await startTestService({ extraConfig: { env: 'production' } });
    const supplier = await svc.newSupplier('Live Keys');
    expect(supplier.token).toMatch(/^svc_live_/);
    const product = await svc.newProduct();
    const offer = await uploadedOffer(supplier, product.id, { price: 1000, values: keys('L', 2) });
    const res = await supplier.api.post('/sandbox/orders', {
      offer_id: offer.offerId,
      quantity: 1,
      buyer_country: 'DE',
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not_found' });
    expect(await stockOf(supplier, offer.offerId)).toMatchObject({ available: 2, reserved: 0, delivered: 0 });
  });
});
