import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { allPages, buy, checkout, eur, keys, type Supplier, uploadedOffer, withDb, troubles } from './fixtures.js';

/** Supplier-scoped order reads, GET /orders pagination and filters, and where the keys go (only to the operator). */
describe('order reads', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;
  let outsider: Supplier;

  beforeAll(async () => {
    svc = await startTestService();
    alpha = await svc.newSupplier('Alpha Reads');
    beta = await svc.newSupplier('Beta Reads');
    outsider = await svc.newSupplier('Outsider');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  describe('GET /orders/{order_id}', () => {
    it('shows each supplier only its own items, totals over them, and its own status', async () => {
      const pa = await svc.newProduct({ name: 'Alpha game' });
      const pb = await svc.newProduct({ name: 'Beta game' });
      const oa = await uploadedOffer(alpha, pa.id, { price: 1999, values: keys('RA', 3), externalRef: 'A-SKU' });
      const ob = await uploadedOffer(beta, pb.id, { price: 4999, values: keys('RB', 3), externalRef: 'B-SKU' });
      const order = await buy(svc, [
        { product_id: pa.id, quantity: 2 }, // 3998: 340, 3658
        { product_id: pb.id, quantity: 1 }, // 4999: 424.915 -> 425, 4574
      ]);
      const [itemA, itemB] = order.items;
      expect(order.totals).toEqual({ gross: eur(8997), commission: eur(765), net: eur(8232) });

      const forAlpha = (await alpha.api.get(`/orders/${order.id}`)).body;
      expect(forAlpha).toEqual({
        ...order,
        items: [itemA],
        totals: { gross: eur(3998), commission: eur(340), net: eur(3658) },
      });
      expect(itemA.offer_id).toBe(oa.offerId);
      const forBeta = (await beta.api.get(`/orders/${order.id}`)).body;
      expect(forBeta).toEqual({
        ...order,
        items: [itemB],
        totals: { gross: eur(4999), commission: eur(425), net: eur(4574) },
      });
      expect(itemB.offer_id).toBe(ob.offerId);

      const stranger = await outsider.api.get(`/orders/${order.id}`);
      expect(stranger.status).toBe(404);
      expect(stranger.body.code).toBe('not_found');
      expect((await alpha.api.get('/orders/01UNKNOWNORDER')).status).toBe(404);

      // a refund of alpha's item is alpha's refund only
      const refund = await svc.operator.post(`/orders/${order.id}/refund`, { item_ids: [itemA.id] });
      expect(refund.body.status).toBe('partially_refunded');
      expect((await alpha.api.get(`/orders/${order.id}`)).body.status).toBe('refunded');
      expect((await beta.api.get(`/orders/${order.id}`)).body.status).toBe('completed');
      const ids = async (s: Supplier, status: string) =>
        (await allPages(s.api, `/orders?status=${status}`)).items.map((o) => o.id);
      expect(await ids(alpha, 'refunded')).toContain(order.id);
      expect(await ids(alpha, 'completed')).not.toContain(order.id);
      expect(await ids(beta, 'completed')).toContain(order.id);
      expect(await ids(beta, 'refunded')).not.toContain(order.id);
      expect(await ids(beta, 'partially_refunded')).not.toContain(order.id);
    });
  });

  describe('GET /orders', () => {
    let x: { offerId: string };
    let y: { offerId: string };
    let px: string;
    let py: string;
    const made: Record<string, string> = {};
    const times: string[] = [];

    beforeAll(async () => {
      px = (await svc.newProduct({ name: 'List X' })).id;
      py = (await svc.newProduct({ name: 'List Y' })).id;
      x = await uploadedOffer(alpha, px, { price: 1000, values: keys('LX', 20), externalRef: 'SKU-X' });
      y = await uploadedOffer(alpha, py, { price: 2000, values: keys('LY', 20), externalRef: 'SKU-Y' });
      await svc.advance(60);
      times.push(svc.clock.now().toISOString());
      made.o1 = (await buy(svc, [{ product_id: px, quantity: 1 }])).id;
      made.o2 = (await checkout(svc, [{ product_id: py, quantity: 1 }])).id;
      await svc.advance(60);
      times.push(svc.clock.now().toISOString());
      made.o3 = (await buy(svc, [{ product_id: px, quantity: 2 }])).id;
      made.o4 = (await buy(svc, [{ product_id: py, quantity: 1 }])).id;
      made.o5 = (
        await buy(svc, [
          { product_id: px, quantity: 1 },
          { product_id: py, quantity: 1 },
        ])
      ).id;
      await svc.advance(60);
      times.push(svc.clock.now().toISOString());
      made.o6 = (await checkout(svc, [{ product_id: px, quantity: 1 }])).id;
      made.o7 = (await buy(svc, [{ product_id: py, quantity: 3 }])).id;
      // another supplier's sale of the same kind of product never shows
      const pz = (await svc.newProduct({ name: 'List Z' })).id;
      await uploadedOffer(outsider, pz, { price: 1000, values: keys('LZ', 2), externalRef: 'SKU-X' });
      await buy(svc, [{ product_id: pz, quantity: 1 }]);
    });

    const listed = async (query: string) => (await allPages(alpha.api, `/orders?${query}`)).items.map((o) => o.id);
    const mine = (...names: string[]) => names.map((n) => made[n]!);

    it('walks every page with the cursor: newest first, each order once', async () => {
      const { items, pages } = await allPages(
        alpha.api,
        '/orders?limit=3&created_from=' + encodeURIComponent(times[0]!),
      );
      expect(pages).toBe(3);
      expect(items.map((o) => o.id)).toEqual(mine('o7', 'o6', 'o5', 'o4', 'o3', 'o2', 'o1'));
      const first = await alpha.api.get('/orders?limit=3&created_from=' + encodeURIComponent(times[0]!));
      expect(first.body.data.map((o: any) => o.id)).toEqual(mine('o7', 'o6', 'o5'));
      expect(typeof first.body.next_cursor).toBe('string');
      const bad = await alpha.api.get('/orders?cursor=not-a-cursor');
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe('validation_failed');
      expect((await alpha.api.get('/orders?limit=201')).status).toBe(422);
    });

    it('filters by created_from (inclusive) and created_to (exclusive)', async () => {
      const [t1, t2, t3] = times.map(encodeURIComponent);
      expect(await listed(`created_from=${t2}`)).toEqual(mine('o7', 'o6', 'o5', 'o4', 'o3'));
      expect(await listed(`created_from=${t1}&created_to=${t2}`)).toEqual(mine('o2', 'o1'));
      expect(await listed(`created_from=${t2}&created_to=${t3}`)).toEqual(mine('o5', 'o4', 'o3'));
      expect(await listed(`created_from=${t3}&created_to=${t3}`)).toEqual([]);
      expect((await alpha.api.get('/orders?created_from=yesterday')).status).toBe(422);
    });

    it('filters by offer_id and external_ref: orders with at least one such item', async () => {
      const t1 = encodeURIComponent(times[0]!);
      expect(await listed(`created_from=${t1}&offer_id=${x.offerId}`)).toEqual(mine('o6', 'o5', 'o3', 'o1'));
      expect(await listed(`created_from=${t1}&offer_id=${y.offerId}`)).toEqual(mine('o7', 'o5', 'o4', 'o2'));
      expect(await listed(`created_from=${t1}&external_ref=SKU-X`)).toEqual(mine('o6', 'o5', 'o3', 'o1'));
      expect(await listed(`created_from=${t1}&external_ref=SKU-Y&offer_id=${y.offerId}`)).toEqual(
        mine('o7', 'o5', 'o4', 'o2'),
      );
      expect(await listed(`external_ref=NOPE`)).toEqual([]);
      expect(await allPages(outsider.api, `/orders?offer_id=${x.offerId}`)).toEqual({ items: [], pages: 1 });
    });

    it('filters by status, and the expiry moves orders from placed to expired', async () => {
      const t1 = encodeURIComponent(times[0]!);
      expect(await listed(`created_from=${t1}&status=placed`)).toEqual(mine('o6', 'o2'));
      expect(await listed(`created_from=${t1}&status=completed`)).toEqual(mine('o7', 'o5', 'o4', 'o3', 'o1'));
      expect(await listed(`created_from=${t1}&status=completed&offer_id=${y.offerId}`)).toEqual(mine('o7', 'o5', 'o4'));
      await svc.advance(900);
      expect(await listed(`created_from=${t1}&status=placed`)).toEqual([]);
      expect(await listed(`created_from=${t1}&status=expired`)).toEqual(mine('o6', 'o2'));
      expect((await alpha.api.get('/orders?status=lost')).status).toBe(422);
    });
  });

  describe("the buyer's keys", () => {
    it('are handed over only by GET /operator/v1/orders/{id}/deliverables, never in supplier reads, events or logs', async () => {
      const product = await svc.newProduct({ name: 'Secret keys' });
      const values = ['SECRET-KEY-AAAA-1111', 'SECRET-KEY-BBBB-2222', 'SECRET-KEY-CCCC-3333'];
      const offer = await uploadedOffer(beta, product.id, { price: 3000, values });
      const order = await buy(svc, [{ product_id: product.id, quantity: 2 }]);
      await svc.drain();

      const deliverables = await svc.operator.get(`/orders/${order.id}/deliverables`);
      expect(deliverables.status).toBe(200);
      expect(deliverables.body).toEqual({
        order_id: order.id,
        items: [
          {
            order_item_id: order.items[0].id,
            keys: [
              { inventory_item_id: offer.itemIds[0], kind: 'text', value: values[0] },
              { inventory_item_id: offer.itemIds[1], kind: 'text', value: values[1] },
            ],
          },
        ],
      });
      expect((await beta.api.get(`/operator/v1/orders/${order.id}/deliverables`)).status).toBe(404); // not under the supplier API
      const asSupplier = await fetch(`${svc.origin}/operator/v1/orders/${order.id}/deliverables`, {
        headers: { authorization: `Bearer ${beta.token}` },
      });
      expect(asSupplier.status).toBe(401);

      const seen = [
        (await beta.api.get(`/orders/${order.id}`)).text,
        (await beta.api.get('/orders')).text,
        (await beta.api.get(`/offers/${offer.offerId}/inventory`)).text,
        (await svc.operator.get(`/orders/${order.id}`)).text,
        JSON.stringify(svc.logs),
        await withDb(svc, async (db) => JSON.stringify((await db.query('select data, metadata from es_events')).rows)),
      ];
      for (const text of seen) for (const value of values) expect(text).not.toContain(value);
      expect(svc.logs.length).toBeGreaterThan(0);
    });

    it('an unpaid order has nothing to hand over yet', async () => {
      const product = await svc.newProduct({ name: 'Not yet' });
      await uploadedOffer(beta, product.id, { price: 3000, values: ['WAIT-1'] });
      const placed = await checkout(svc, [{ product_id: product.id, quantity: 1 }]);
      expect((await svc.operator.get(`/orders/${placed.id}/deliverables`)).body).toEqual({
        order_id: placed.id,
        items: [],
      });
      expect((await svc.operator.get('/orders/01NOSUCHORDER/deliverables')).status).toBe(404);
    });
  });
});
