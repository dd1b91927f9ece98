import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe("a supplier cannot read, change or detect another supplier's offers or items", () => {
  let svc: TestService;
  let owner: Awaited<ReturnType<TestService['newSupplier']>>;
  let intruder: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;
  let itemId: string;
  let declaredId: string;

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 100 } });
    owner = await svc.newSupplier('Owner');
    intruder = await svc.newSupplier('Intruder');
    const product = await svc.newProduct();
    offerId = (await owner.api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(500), external_ref: 'MINE' })).body.id;
    itemId = (await owner.api.post(`/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'SECRET-KEY' }] })).body.item_ids[0];
    const p2 = await svc.newProduct({ name: 'Declared one' });
    declaredId = (await owner.api.post('/offers', { product_id: p2.id, stock_mode: 'declared', price: eur(500), external_ref: 'D', fulfilment: { base_url: 'http://127.0.0.1:9' } })).body.id;
  });
  afterAll(() => svc.stop());

  it('answers 404, exactly as for an offer that does not exist, on every offer route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/offers/${offerId}`],
      ['PATCH', `/offers/${offerId}`, { price: eur(1) }],
      ['PUT', `/offers/${offerId}/price`, { price: eur(1) }],
      ['PUT', `/offers/${declaredId}/stock`, { declared_stock: 1 }],
      ['POST', `/offers/${offerId}/activate`],
      ['POST', `/offers/${offerId}/deactivate`],
      ['POST', `/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'x' }] }],
      ['GET', `/offers/${offerId}/inventory`],
      ['DELETE', `/offers/${offerId}/inventory/${itemId}`],
      ['POST', `/offers/${declaredId}/fulfilment/check`],
      ['POST', `/offers/${declaredId}/fulfilment/rotate-secret`],
    ];
    for (const [method, path, body] of routes) {
      const theirs = await intruder.api[method.toLowerCase() as 'post'](path, body as never);
      const none = await intruder.api[method.toLowerCase() as 'post'](path.replace(offerId, 'nothing-here').replace(declaredId, 'nothing-here'), body as never);
      expect([method, path, theirs.status]).toEqual([method, path, 404]);
      expect(theirs.body.code).toBe('not_found');
      expect(none.status).toBe(404);
      expect(theirs.body.detail.replace(offerId, 'X').replace(declaredId, 'X')).toBe(none.body.detail.replace('nothing-here', 'X'));
    }
    expect((await intruder.api.get('/offers')).body.data).toEqual([]);
    // nothing changed for the owner
    const mine = await owner.api.get(`/offers/${offerId}`);
    expect(mine.body).toMatchObject({ status: 'draft', price: eur(500), stock: { available: 1 } });
    expect((await owner.api.get(`/offers/${offerId}/inventory`)).body.data.map((i: any) => i.id)).toEqual([itemId]);
  });

  it('may offer the same product itself: one offer per product is per supplier', async () => {
    const product = (await owner.api.get(`/offers/${offerId}`)).body.product_id;
    const res = await intruder.api.post('/offers', { product_id: product, stock_mode: 'uploaded', price: eur(400), external_ref: 'THEIRS' });
    expect(res.status).toBe(201);
  });
});
