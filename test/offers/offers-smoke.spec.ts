import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

describe('offers smoke', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('creates an uploaded offer, uploads keys, activates, market shows it', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const created = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1999, currency: 'EUR' },
      external_ref: 'SKU-1',
      low_stock_threshold: 2,
    });
    expect(created.status, created.text).toBe(201);
    const offerId = created.body.id;
    const upload = await api.post(`/offers/${offerId}/inventory`, {
      items: [
        { kind: 'text', value: 'AAAA-1' },
        { kind: 'text', value: 'AAAA-2' },
      ],
    });
    expect(upload.status, upload.text).toBe(201);
    expect(upload.body.accepted).toBe(2);
    const dup = await api.post(`/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'AAAA-1' }] });
    expect(dup.status).toBe(422);
    expect(dup.body.rejected).toEqual([
      { index: 0, code: 'duplicate_key', message: "this key is already in the offer's stock" },
    ]);
    const act = await api.post(`/offers/${offerId}/activate`);
    expect(act.status, act.text).toBe(200);
    expect(act.body.health).toEqual({ score: 100, routing_eligible: true, cooldown_until: null });
    const got = await api.get(`/offers/${offerId}`);
    expect(got.body).toEqual(act.body);
    const p = await api.get(`/products/${product.id}`);
    expect(p.body.market).toEqual({
      buyer_price: { amount: 1999, currency: 'EUR' },
      active_offers: 1,
      your_offer_selected: true,
    });
    const again = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1999, currency: 'EUR' },
      external_ref: 'SKU-1',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('offer_exists');
  });
});
