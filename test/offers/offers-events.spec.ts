import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { startTestService, type TestService } from '../support/harness.js';
import {
  createDeclared,
  createUploaded,
  eventsOfType,
  type Fulfilment,
  startFulfilment,
  type Supplier,
  textKeys,
  upload,
} from './fixtures.js';

/**
 * offer.stock_low (OfferStockLow) when available uploaded stock crosses low_stock_threshold
 * downward, whatever moved it; offer.deactivated (OfferDeactivated) with reason
 * supplier_request. Both reach the supplier's webhook endpoint.
 */
describe('offer events: stock_low and deactivated', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fulfilment: Fulfilment;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService({ trustedCa: tls.cert, limits: { bulk: 100 } });
    receiver = await startReceiver({ tls });
    fulfilment = await startFulfilment();
    supplier = await svc.newSupplier();
    const hook = await supplier.api.post('/webhooks', {
      url: receiver.url,
      events: ['offer.stock_low', 'offer.deactivated'],
      description: 'offers',
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
    await fulfilment.close();
  });

  const lowsOf = async (offerId: string) =>
    (await eventsOfType(svc, 'OfferStockLow'))
      .filter((e) => e.data.offerId === offerId)
      .map((e) => [e.data.available, e.data.threshold]);
  const place = async (productId: string, quantity: number) => {
    const res = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity }],
      buyer_country: 'DE',
    });
    expect(res.status).toBe(201);
    return res.body;
  };

  it('fires each time available stock goes from above the threshold to at or below it: deletions, checkouts, invalidations', async () => {
    const product = await svc.newProduct();
    const offer = await createUploaded(supplier.api, product.id, { low_stock_threshold: 2 });
    const ids = (await upload(supplier.api, offer.id, textKeys('LOW', 4))).item_ids;
    await supplier.api.post(`/offers/${offer.id}/activate`);
    expect(await lowsOf(offer.id)).toEqual([]);

    await supplier.api.delete(`/offers/${offer.id}/inventory/${ids[3]}`); // 4 -> 3
    expect(await lowsOf(offer.id)).toEqual([]);
    await place(product.id, 1); // 3 -> 2: crosses
    expect(await lowsOf(offer.id)).toEqual([[2, 2]]);
    await supplier.api.delete(`/offers/${offer.id}/inventory/${ids[2]}`); // 2 -> 1: already low
    expect(await lowsOf(offer.id)).toEqual([[2, 2]]);

    await upload(supplier.api, offer.id, textKeys('LOW-MORE', 3)); // 1 -> 4
    const held = await place(product.id, 3); // 4 -> 1: crosses again
    expect(await lowsOf(offer.id)).toEqual([
      [2, 2],
      [1, 2],
    ]);
    await svc.advance(15 * 60 + 1); // both unpaid checkouts expire, their keys return: 1 -> 5
    expect((await svc.operator.get(`/orders/${held.id}`)).body.status).toBe('expired');
    expect((await supplier.api.get(`/offers/${offer.id}`)).body.stock).toMatchObject({ available: 5, reserved: 0 });
    expect(await lowsOf(offer.id)).toEqual([
      [2, 2],
      [1, 2],
    ]);

    const available = (await supplier.api.get(`/offers/${offer.id}/inventory?status=available`)).body.data.map(
      (i: any) => i.id,
    );
    await svc.operator.post(`/inventory/${available[0]}/invalidate`, {}); // 5 -> 4
    await svc.operator.post(`/inventory/${available[1]}/invalidate`, {}); // 4 -> 3
    expect(await lowsOf(offer.id)).toEqual([
      [2, 2],
      [1, 2],
    ]);
    await svc.operator.post(`/inventory/${available[2]}/invalidate`, {}); // 3 -> 2: crosses
    expect(await lowsOf(offer.id)).toEqual([
      [2, 2],
      [1, 2],
      [2, 2],
    ]);
  });

  it('with the default threshold 0 it fires when the last key goes; raising the threshold fires nothing by itself', async () => {
    const product = await svc.newProduct();
    const offer = await createUploaded(supplier.api, product.id);
    await upload(supplier.api, offer.id, textKeys('LAST', 2));
    await supplier.api.post(`/offers/${offer.id}/activate`);
    await place(product.id, 1);
    expect(await lowsOf(offer.id)).toEqual([]);
    await place(product.id, 1);
    expect(await lowsOf(offer.id)).toEqual([[0, 0]]);

    const second = await createUploaded(supplier.api, (await svc.newProduct()).id, { low_stock_threshold: 1 });
    await upload(supplier.api, second.id, textKeys('RAISE', 3));
    await supplier.api.patch(`/offers/${second.id}`, { low_stock_threshold: 10 });
    expect(await lowsOf(second.id)).toEqual([]);
  });

  it('declared stock never fires stock_low, not even at 0', async () => {
    const product = await svc.newProduct();
    const offer = await createDeclared(supplier.api, product.id, fulfilment.url, {
      declared_stock: 5,
      low_stock_threshold: 3,
    });
    await supplier.api.put(`/offers/${offer.id}/stock`, { declared_stock: 0 });
    expect(await lowsOf(offer.id)).toEqual([]);
  });

  it("the supplier's endpoint receives offer.stock_low and offer.deactivated with the offer named, and no key in them", async () => {
    const product = await svc.newProduct();
    const offer = await createUploaded(supplier.api, product.id, { low_stock_threshold: 1, external_ref: 'HOOKED' });
    await upload(supplier.api, offer.id, [
      { kind: 'text', value: 'WEBHOOK-KEY-1' },
      { kind: 'text', value: 'WEBHOOK-KEY-2' },
    ]);
    await supplier.api.post(`/offers/${offer.id}/activate`);
    await svc.drain();
    receiver.received.length = 0;
    await place(product.id, 1);
    await supplier.api.post(`/offers/${offer.id}/deactivate`);
    await svc.drain();
    // deliveries may arrive in any order
    const mine = receiver.received
      .filter((r) => r.body.data.offer_id === offer.id)
      .sort((a, b) => b.body.type.localeCompare(a.body.type));
    expect(mine.map((r) => r.body.type)).toEqual(['offer.stock_low', 'offer.deactivated']);
    expect(mine[0]!.body).toEqual({
      id: expect.any(String),
      type: 'offer.stock_low',
      mode: 'test',
      api_version: 'v1',
      test_fire: false,
      created_at: expect.any(String),
      data: { offer_id: offer.id, product_id: product.id, external_ref: 'HOOKED', available: 1, threshold: 1 },
    });
    expect(mine[1]!.body.data).toEqual({
      offer_id: offer.id,
      product_id: product.id,
      external_ref: 'HOOKED',
      reason: 'supplier_request',
    });
    expect(mine[1]!.headers['x-svc-event']).toBe('offer.deactivated');
    expect(JSON.stringify(receiver.received)).not.toContain('WEBHOOK-KEY');
  });
});
