import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('the uploaded-stock order pipeline', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let productId: string;
  let offerId: string;

  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier('Keys Ltd');
    productId = (await svc.newProduct()).id;
    const offer = await supplier.api.post('/offers', {
      product_id: productId,
      stock_mode: 'uploaded',
      price: eur(1999),
      external_ref: 'SKU-9',
    });
    offerId = offer.body.id;
    const up = await supplier.api.post(`/offers/${offerId}/inventory`, {
      items: ['K-1', 'K-2', 'K-3'].map((value) => ({ kind: 'text', value })),
    });
    expect(up.status).toBe(201);
    expect((await supplier.api.post(`/offers/${offerId}/activate`)).status).toBe(200);
  });
  afterAll(() => svc.stop());

  it('places, pays, delivers keys, posts the sale, settles after the sandbox holding period', async () => {
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 2 }],
      buyer_country: 'DE',
    });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.status).toBe('placed');
    const orderId = placed.body.id;
    const gross = 3998;
    const commission = 340; // round_half_up(3998 * 0.085 = 339.83)
    expect(placed.body.items).toEqual([
      expect.objectContaining({
        offer_id: offerId,
        quantity: 2,
        unit_price: eur(1999),
        gross: eur(gross),
        commission: eur(commission),
        net: eur(gross - commission),
        status: 'reserved',
      }),
    ]);

    const paid = await svc.operator.post(`/orders/${orderId}/pay`);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe('completed');
    expect(paid.body.items[0].status).toBe('delivered');
    expect(paid.body.items[0].fulfilment.source).toBe('uploaded');
    expect(paid.body.items[0].fulfilment.inventory_item_ids).toHaveLength(2);

    const keys = await svc.operator.get(`/orders/${orderId}/deliverables`);
    expect(keys.body.items[0].keys.map((k: any) => k.value)).toEqual(['K-1', 'K-2']);

    const mine = await supplier.api.get(`/orders/${orderId}`);
    expect(mine.status).toBe(200);
    expect(mine.body.number).toBe(`SVC-${orderId}`);
    expect(mine.body.totals).toEqual({ gross: eur(gross), commission: eur(commission), net: eur(gross - commission) });

    await svc.drain();
    let balance = await supplier.api.get('/balance');
    expect(balance.body).toMatchObject({ available: eur(0), pending: eur(gross - commission) });
    await svc.advance(600);
    balance = await supplier.api.get('/balance');
    expect(balance.body).toMatchObject({ available: eur(gross - commission), pending: eur(0) });
    const entries = await supplier.api.get('/balance/entries');
    expect(entries.body.data.map((e: any) => [e.type, e.account, e.amount.amount])).toEqual([
      ['sale', 'pending', 3658],
      ['settlement', 'pending', -3658],
      ['settlement', 'available', 3658],
    ]);

    const refunded = await svc.operator.post(`/orders/${orderId}/refund`, {});
    expect(refunded.body.status).toBe('refunded');
    await svc.drain();
    balance = await supplier.api.get('/balance');
    expect(balance.body).toMatchObject({ available: eur(0), pending: eur(0) });

    const offer = await supplier.api.get(`/offers/${offerId}`);
    expect(offer.body.stock).toEqual({ mode: 'uploaded', declared: null, available: 1, reserved: 0, delivered: 2 });
  });

  it('an unpaid order expires after 15 minutes and its keys return to stock', async () => {
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'FR',
    });
    expect(placed.status, placed.text).toBe(201);
    await svc.drain();
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.reserved).toBe(1);
    await svc.advance(15 * 60);
    const order = await supplier.api.get(`/orders/${placed.body.id}`);
    expect(order.body.status).toBe('expired');
    expect(order.body.items[0].status).toBe('released');
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock).toMatchObject({ available: 1, reserved: 0 });
    const late = await svc.operator.post(`/orders/${placed.body.id}/pay`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_state');
  });
});
