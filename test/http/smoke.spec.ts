import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

describe('a supplier reads products over HTTP', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('registers a supplier, whoami answers it, products list and read', async () => {
    const { id, api } = await svc.newSupplier('Acme Keys');
    const who = await api.get('/whoami');
    expect(who.status).toBe(200);
    expect(who.body).toEqual({
      supplier: { id, name: 'Acme Keys' },
      environment: 'sandbox',
      token_id: expect.any(String),
    });

    const product = await svc.newProduct({ name: 'Harbor Lights' });
    const list = await api.get('/products');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toEqual({
      id: product.id,
      name: 'Harbor Lights',
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
      market: { buyer_price: null, active_offers: 0, your_offer_selected: false },
      form_fields: [],
      key_format: null,
    });
    const one = await api.get(`/products/${product.id}`);
    expect(one.body).toEqual(list.body.data[0]);
  });
});
