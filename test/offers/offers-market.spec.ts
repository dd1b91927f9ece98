import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { createDeclared, eur, type Fulfilment, startFulfilment, type Supplier, textKeys } from './fixtures.js';

const SIMULATE_LIMIT = 77;

describe('product market and pricing simulation, from the routing module', () => {
  let svc: TestService;
  let fulfilment: Fulfilment;
  beforeAll(async () => {
    svc = await startTestService({ limits: { simulate: SIMULATE_LIMIT } });
    fulfilment = await startFulfilment();
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  const sellWith = async (
    name: string,
    productId: string,
    price: number,
    keys: number,
  ): Promise<Supplier & { offer: string }> => {
    const s = await svc.newSupplier(name);
    const offer = (
      await s.api.post('/offers', {
        product_id: productId,
        stock_mode: 'uploaded',
        price: eur(price),
        external_ref: name,
      })
    ).body.id;
    if (keys > 0) await s.api.post(`/offers/${offer}/inventory`, { items: textKeys(name, keys) });
    expect((await s.api.post(`/offers/${offer}/activate`)).status).toBe(200);
    return { ...s, offer };
  };
  const marketOf = async (who: Supplier, productId: string) =>
    (await who.api.get(`/products/${productId}`)).body.market;

  it('buyer_price is the best eligible offer, active_offers counts eligible ones, your_offer_selected is per caller', async () => {
    const product = (await svc.newProduct()).id;
    const viewer = await svc.newSupplier('Viewer');
    expect(await marketOf(viewer, product)).toEqual({
      buyer_price: null,
      active_offers: 0,
      your_offer_selected: false,
    });
    const cheap = await sellWith('Cheap', product, 900, 1);
    const dear = await sellWith('Dear', product, 1200, 5);
    await sellWith('Empty', product, 500, 0); // active without stock: not eligible
    const draft = await svc.newSupplier('Draft');
    await draft.api.post('/offers', {
      product_id: product,
      stock_mode: 'uploaded',
      price: eur(100),
      external_ref: 'D',
    }); // draft: not eligible
    const gone = await sellWith('Gone', product, 400, 3);
    await gone.api.post(`/offers/${gone.offer}/deactivate`); // inactive: not eligible
    expect(await marketOf(cheap, product)).toEqual({
      buyer_price: eur(900),
      active_offers: 2,
      your_offer_selected: true,
    });
    expect(await marketOf(dear, product)).toEqual({
      buyer_price: eur(900),
      active_offers: 2,
      your_offer_selected: false,
    });
    expect(await marketOf(viewer, product)).toEqual({
      buyer_price: eur(900),
      active_offers: 2,
      your_offer_selected: false,
    });
    // the list shows the same market per product
    const listed = (await dear.api.get('/products?limit=200')).body.data.find((p: any) => p.id === product);
    expect(listed.market).toEqual({ buyer_price: eur(900), active_offers: 2, your_offer_selected: false });
    // orders take the same first offer; when it sells out the next one is selected
    const order = await svc.operator.post('/orders', {
      items: [{ product_id: product, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(order.body.items[0].offer_id).toBe(cheap.offer);
    expect(await marketOf(dear, product)).toEqual({
      buyer_price: eur(1200),
      active_offers: 1,
      your_offer_selected: true,
    });
  });

  it('ties on price go to the higher health, then to the earlier activation', async () => {
    const product = (await svc.newProduct()).id;
    const first = await sellWith('First', product, 1000, 2);
    await svc.advance(60);
    const second = await sellWith('Second', product, 1000, 2);
    expect(await marketOf(first, product)).toMatchObject({ active_offers: 2, your_offer_selected: true });
    expect(await marketOf(second, product)).toMatchObject({ your_offer_selected: false });
    // the first one is reactivated: health 70 now loses to 100, whatever the activation order
    await first.api.post(`/offers/${first.offer}/deactivate`);
    expect((await first.api.post(`/offers/${first.offer}/activate`)).body.health.score).toBe(70);
    expect(await marketOf(second, product)).toMatchObject({
      buyer_price: eur(1000),
      active_offers: 2,
      your_offer_selected: true,
    });
    const order = await svc.operator.post('/orders', {
      items: [{ product_id: product, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(order.body.items[0].offer_id).toBe(second.offer);
  });

  it('health below 70 takes an offer out of the market', async () => {
    const product = (await svc.newProduct()).id;
    const rival = await sellWith('Rival', product, 1500, 2);
    const s = await svc.newSupplier('Weak');
    const offer = await createDeclared(s.api, product, fulfilment.url, { price: eur(1000), declared_stock: 5 });
    fulfilment.answer(200);
    await s.api.post(`/offers/${offer.id}/activate`);
    await s.api.post(`/offers/${offer.id}/deactivate`);
    await s.api.post(`/offers/${offer.id}/activate`); // health 70
    expect(await marketOf(s, product)).toEqual({ buyer_price: eur(1000), active_offers: 2, your_offer_selected: true });
    fulfilment.answer(503);
    await svc.advance(5 * 60); // the scheduled healthcheck fails: 70 -> 60
    fulfilment.answer(200);
    const read = await s.api.get(`/offers/${offer.id}`);
    expect(read.body.health).toEqual({ score: 60, routing_eligible: false, cooldown_until: null });
    expect(await marketOf(s, product)).toEqual({
      buyer_price: eur(1500),
      active_offers: 1,
      your_offer_selected: false,
    });
    expect(await marketOf(rival, product)).toMatchObject({ your_offer_selected: true });
    // and a price cut does not change that: the simulation says so
    const sim = await s.api.post('/pricing/simulate', { product_id: product, price: eur(10) });
    expect(sim.body).toMatchObject({ rank: 1, would_be_selected: false, lowest_competing_price: eur(1500) });
  });

  it('simulates gross, commission, net and the rank a price would get, under the simulate rate-limit class', async () => {
    const product = (await svc.newProduct({ name: 'Sim' })).id;
    await sellWith('A', product, 1000, 3);
    await sellWith('B', product, 1500, 3);
    const me = await svc.newSupplier('Me');
    const at = async (amount: number) => {
      const res = await me.api.post('/pricing/simulate', { product_id: product, price: eur(amount) });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(SIMULATE_LIMIT));
      return res.body;
    };
    expect(await at(999)).toEqual({
      gross: eur(999),
      commission: eur(85),
      net: eur(914),
      would_be_selected: true,
      rank: 1,
      lowest_competing_price: eur(1000),
    });
    expect(await at(1200)).toEqual({
      gross: eur(1200),
      commission: eur(102),
      net: eur(1098),
      would_be_selected: false,
      rank: 2,
      lowest_competing_price: eur(1000),
    });
    expect(await at(2000)).toMatchObject({ rank: 3, would_be_selected: false });
    expect(await at(50)).toMatchObject({ commission: eur(5), net: eur(45) });
    expect(await at(1)).toMatchObject({ gross: eur(1), commission: eur(5), net: eur(-4) });
    // 1006 * 8.5% = 85.51 rounds to 86; 1100 * 8.5% = 93.5, and the half rounds up to 94
    expect((await at(1006)).commission).toEqual(eur(86));
    expect((await at(1100)).commission).toEqual(eur(94));
    // a tie on price: a new offer (health 100, activated now) loses to A (health 100, activated earlier)
    expect(await at(1000)).toMatchObject({ rank: 2, would_be_selected: false });
    // nothing competes on an empty product
    const empty = (await svc.newProduct({ name: 'Empty' })).id;
    expect((await me.api.post('/pricing/simulate', { product_id: empty, price: eur(5000) })).body).toMatchObject({
      rank: 1,
      would_be_selected: true,
      lowest_competing_price: null,
    });
  });

  it("the simulation places the caller's own offer: its health and activation stay, it never competes with itself", async () => {
    const product = (await svc.newProduct()).id;
    const rival = await sellWith('Rival2', product, 1000, 2);
    await svc.advance(60);
    const mine = await sellWith('Mine', product, 1200, 2);
    // at the rival's price the rival, activated earlier, stays first
    expect((await mine.api.post('/pricing/simulate', { product_id: product, price: eur(1000) })).body).toMatchObject({
      rank: 2,
      lowest_competing_price: eur(1000),
    });
    // the rival's own view: its own offer is not a competitor
    expect((await rival.api.post('/pricing/simulate', { product_id: product, price: eur(1300) })).body).toMatchObject({
      rank: 2,
      lowest_competing_price: eur(1200),
    });
    // an inactive own offer would come back at health 70, so it loses the tie it used to win
    await rival.api.post(`/offers/${rival.offer}/deactivate`);
    expect((await rival.api.post('/pricing/simulate', { product_id: product, price: eur(1200) })).body).toMatchObject({
      rank: 2,
      would_be_selected: false,
    });
    expect((await rival.api.post('/pricing/simulate', { product_id: product, price: eur(1199) })).body).toMatchObject({
      rank: 1,
      would_be_selected: true,
    });
  });

  it('refuses an unknown product (404) and a malformed price (422)', async () => {
    const me = await svc.newSupplier('Refused');
    const product = (await svc.newProduct()).id;
    const unknown = await me.api.post('/pricing/simulate', { product_id: 'unknown', price: eur(1) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', detail: 'product unknown not found' });
    for (const body of [
      { product_id: product, price: { amount: 0, currency: 'EUR' } },
      { product_id: product, price: { amount: 10, currency: 'USD' } },
      { product_id: product, price: { amount: 10.5, currency: 'EUR' } },
      { product_id: product },
      { product_id: product, price: eur(10), quantity: 2 },
    ]) {
      const res = await me.api.post('/pricing/simulate', body);
      expect([body, res.status, res.body.code]).toEqual([body, 422, 'validation_failed']);
    }
  });
});
