import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('market and pricing simulation from the routing module', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  const sellWith = async (name: string, productId: string, price: number, keys: number) => {
    const s = await svc.newSupplier(name);
    const offer = (await s.api.post('/offers', { product_id: productId, stock_mode: 'uploaded', price: eur(price), external_ref: name })).body.id;
    if (keys > 0) await s.api.post(`/offers/${offer}/inventory`, { items: Array.from({ length: keys }, (_, i) => ({ kind: 'text', value: `${name}-${i}` })) });
    await s.api.post(`/offers/${offer}/activate`);
    return { ...s, offer };
  };

  it('buyer_price is the best eligible offer, active_offers counts eligible ones, your_offer_selected per caller', async () => {
    const product = (await svc.newProduct()).id;
    const viewer = await svc.newSupplier('Viewer');
    expect((await viewer.api.get(`/products/${product}`)).body.market).toEqual({ buyer_price: null, active_offers: 0, your_offer_selected: false });
    const cheap = await sellWith('Cheap', product, 900, 1);
    const dear = await sellWith('Dear', product, 1200, 5);
    await sellWith('Empty', product, 500, 0); // active but without stock: not eligible
    const draft = await svc.newSupplier('Draft');
    await draft.api.post('/offers', { product_id: product, stock_mode: 'uploaded', price: eur(100), external_ref: 'D' }); // draft: not eligible
    expect((await cheap.api.get(`/products/${product}`)).body.market).toEqual({ buyer_price: eur(900), active_offers: 2, your_offer_selected: true });
    expect((await dear.api.get(`/products/${product}`)).body.market).toEqual({ buyer_price: eur(900), active_offers: 2, your_offer_selected: false });
    // the cheap offer sells out: the dear one is selected now
    const order = await svc.operator.post('/orders', { items: [{ product_id: product, quantity: 1 }], buyer_country: 'DE' });
    expect(order.body.items[0].offer_id).toBe(cheap.offer);
    expect((await dear.api.get(`/products/${product}`)).body.market).toEqual({ buyer_price: eur(1200), active_offers: 1, your_offer_selected: true });
  });

  it('simulates gross, commission, net and the rank a price would get', async () => {
    const product = (await svc.newProduct({ name: 'Sim' })).id;
    await sellWith('A', product, 1000, 3);
    await sellWith('B', product, 1500, 3);
    const me = await svc.newSupplier('Me');
    const at = async (amount: number) => (await me.api.post('/pricing/simulate', { product_id: product, price: eur(amount) })).body;
    expect(await at(999)).toEqual({ gross: eur(999), commission: eur(85), net: eur(914), would_be_selected: true, rank: 1, lowest_competing_price: eur(1000) });
    expect(await at(1200)).toEqual({ gross: eur(1200), commission: eur(102), net: eur(1098), would_be_selected: false, rank: 2, lowest_competing_price: eur(1000) });
    expect(await at(2000)).toMatchObject({ rank: 3, would_be_selected: false });
    expect(await at(50)).toMatchObject({ commission: eur(5), net: eur(45) });
    // a tie on price goes to the higher health: a new offer (100) beats nobody at 100 activated earlier
    expect(await at(1000)).toMatchObject({ rank: 2 });
    expect((await me.api.post('/pricing/simulate', { product_id: 'unknown', price: eur(1) })).status).toBe(404);
    expect((await me.api.post('/pricing/simulate', { product_id: product, price: { amount: 0, currency: 'EUR' } })).status).toBe(422);
    expect((await me.api.post('/pricing/simulate', { product_id: product, price: { amount: 10, currency: 'USD' } })).status).toBe(422);
  });
});
