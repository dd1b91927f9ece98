import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import {
  createDeclared,
  createUploaded,
  eur,
  type Fulfilment,
  startFulfilment,
  streamEvents,
  textKeys,
  upload,
} from './fixtures.js';

describe('PATCH /offers/{id}, PUT /offers/{id}/price, PUT /offers/{id}/stock', () => {
  let svc: TestService;
  let fulfilment: Fulfilment;
  beforeAll(async () => {
    svc = await startTestService();
    fulfilment = await startFulfilment();
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  it('PATCH changes price, external_ref and low_stock_threshold, records only what changed, and a change to nothing records nothing', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id, { price: eur(100), external_ref: 'P', low_stock_threshold: 1 });
    await svc.advance(5);
    const patched = await api.patch(`/offers/${offer.id}`, {
      price: eur(150),
      external_ref: 'P2',
      low_stock_threshold: 7,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...offer,
      price: eur(150),
      external_ref: 'P2',
      low_stock_threshold: 7,
      updated_at: svc.clock.now().toISOString(),
    });
    expect((await api.get(`/offers/${offer.id}`)).body).toEqual(patched.body);

    const partly = await api.patch(`/offers/${offer.id}`, { price: eur(150), external_ref: 'P3' });
    expect(partly.body).toMatchObject({ price: eur(150), external_ref: 'P3', low_stock_threshold: 7 });
    await svc.advance(5);
    const nothing = await api.patch(`/offers/${offer.id}`, {});
    const same = await api.patch(`/offers/${offer.id}`, { external_ref: 'P3', low_stock_threshold: 7 });
    expect(nothing.status).toBe(200);
    expect(same.body).toEqual(partly.body);
    expect(nothing.body).toEqual(partly.body);
    const updates = (await streamEvents(svc, `offer-${offer.id}`))
      .filter((e) => e.type === 'OfferUpdated')
      .map((e) => e.data.changes);
    expect(updates).toEqual([{ price: 150, externalRef: 'P2', lowStockThreshold: 7 }, { externalRef: 'P3' }]);
  });

  it('PATCH refuses declared-only fields on an uploaded offer, and any field it does not name, with 422', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id);
    const declaredOnly = await api.patch(`/offers/${offer.id}`, {
      delivery_sla_minutes: 5,
      delivery_time: 'soon',
      fulfilment: { base_url: fulfilment.url },
    });
    expect(declaredOnly.status).toBe(422);
    expect(declaredOnly.body).toMatchObject({
      code: 'validation_failed',
      errors: [
        { field: 'body.delivery_sla_minutes', message: 'only for declared offers' },
        { field: 'body.delivery_time', message: 'only for declared offers' },
        { field: 'body.fulfilment.base_url', message: 'only for declared offers' },
      ],
    });
    for (const body of [
      { colour: 'blue' },
      { status: 'active' },
      { stock_mode: 'declared' },
      { declared_stock: 3 },
      { product_id: 'other' },
      { price: { amount: 100, currency: 'EUR', discount: 5 } },
      { price: { amount: 100, currency: 'USD' } },
      { price: { amount: -1, currency: 'EUR' } },
      { low_stock_threshold: 1.5 },
      { external_ref: '' },
    ]) {
      const res = await api.patch(`/offers/${offer.id}`, body);
      expect([body, res.status, res.body.code]).toEqual([body, 422, 'validation_failed']);
    }
    expect((await api.get(`/offers/${offer.id}`)).body).toEqual(offer);
  });

  it('PATCH on a declared offer also changes delivery_sla_minutes, delivery_time and fulfilment.base_url, which the next call uses', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    const changed = await api.patch(`/offers/${offer.id}`, {
      delivery_sla_minutes: 5,
      delivery_time: 'within_5_minutes',
      fulfilment: { base_url: `${fulfilment.url}/v2` },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ delivery_sla_minutes: 5, delivery_time: 'within_5_minutes' });
    expect(changed.body.fulfilment).toEqual({
      base_url: `${fulfilment.url}/v2`,
      secret_set: true,
      last_healthcheck_at: null,
      last_healthcheck_ok: null,
    });
    fulfilment.answer(200);
    expect((await api.post(`/offers/${offer.id}/fulfilment/check`)).body.status).toBe('ok');
    expect(fulfilment.seen.at(-1)!.path).toBe('/v2/healthcheck');
    const bad = await api.patch(`/offers/${offer.id}`, { fulfilment: { base_url: 'ftp://127.0.0.1' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'body.fulfilment.base_url', message: 'must use https' }]);
    const hostless = await api.patch(`/offers/${offer.id}`, { fulfilment: { base_url: 'http:///x' } });
    expect([hostless.status, hostless.body.code, hostless.body.errors]).toEqual([
      422,
      'validation_failed',
      [{ field: 'body.fulfilment.base_url', message: 'must name its host, as in https://host/path' }],
    ]);
    const extra = await api.patch(`/offers/${offer.id}`, {
      fulfilment: { base_url: fulfilment.url, secret: 'svcsec_0' },
    });
    expect(extra.status).toBe(422);
    expect((await api.get(`/offers/${offer.id}`)).body.fulfilment.base_url).toBe(`${fulfilment.url}/v2`);
  });

  it('the OpenAPI document names exactly the fields PATCH accepts and closes the body to others', async () => {
    const doc: any = await (await fetch(`${svc.baseUrl}/openapi.json`)).json();
    const patch = doc.paths['/api/v1/offers/{offer_id}'].patch;
    const schema = patch.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual([
      'delivery_sla_minutes',
      'delivery_time',
      'external_ref',
      'fulfilment',
      'low_stock_threshold',
      'price',
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.fulfilment).toMatchObject({ required: ['base_url'], additionalProperties: false });
    expect(Object.keys(schema.properties.fulfilment.properties)).toEqual(['base_url']);
    expect(schema.properties.price).toMatchObject({ required: ['amount', 'currency'], additionalProperties: false });
    // with the shared problems: malformed JSON, too large, not JSON, and the Idempotency-Key's own
    expect(Object.keys(patch.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
    ]);
    for (const path of ['/api/v1/offers/{offer_id}/price', '/api/v1/offers/{offer_id}/stock'])
      expect(doc.paths[path].put.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
  });

  it('PUT /price changes the price under the sync rate-limit class; the body is {price} only', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id, { price: eur(100) });
    await svc.advance(1);
    const res = await api.put(`/offers/${offer.id}/price`, { price: eur(175) });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect(res.body).toEqual({ ...offer, price: eur(175), updated_at: svc.clock.now().toISOString() });
    expect((await api.get(`/offers/${offer.id}`)).body).toEqual(res.body);
    for (const body of [
      {},
      { price: eur(0) },
      { price: eur(175), external_ref: 'x' },
      { amount: 175, currency: 'EUR' },
    ]) {
      const bad = await api.put(`/offers/${offer.id}/price`, body);
      expect([body, bad.status, bad.body.code]).toEqual([body, 422, 'validation_failed']);
    }
    expect((await api.patch(`/offers/${offer.id}`, {})).headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('PUT /stock sets declared stock (sync class); 0 keeps the offer active and unroutable; an uploaded offer is 409 stock_mode_mismatch', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url, { declared_stock: 4 });
    fulfilment.answer(200);
    expect((await api.post(`/offers/${offer.id}/activate`)).body.health.routing_eligible).toBe(true);
    await svc.advance(2);
    const set = await api.put(`/offers/${offer.id}/stock`, { declared_stock: 9 });
    expect(set.status).toBe(200);
    expect(set.headers.get('x-ratelimit-limit')).toBe('300');
    expect(set.body).toEqual({ offer_id: offer.id, declared_stock: 9, updated_at: svc.clock.now().toISOString() });
    expect((await api.get(`/offers/${offer.id}`)).body.stock).toEqual({
      mode: 'declared',
      declared: 9,
      available: null,
      reserved: null,
      delivered: 0,
    });

    await svc.advance(2);
    const zero = await api.put(`/offers/${offer.id}/stock`, { declared_stock: 0 });
    expect(zero.body).toEqual({ offer_id: offer.id, declared_stock: 0, updated_at: svc.clock.now().toISOString() });
    const after = await api.get(`/offers/${offer.id}`);
    expect(after.body.status).toBe('active');
    expect(after.body.health).toEqual({ score: 100, routing_eligible: false, cooldown_until: null });
    expect((await api.get(`/products/${product.id}`)).body.market).toEqual({
      buyer_price: null,
      active_offers: 0,
      your_offer_selected: false,
    });
    // the same count again is no change
    await svc.advance(2);
    expect((await api.put(`/offers/${offer.id}/stock`, { declared_stock: 0 })).body).toEqual(zero.body);

    for (const body of [{ declared_stock: -1 }, { declared_stock: 1.5 }, {}, { declared_stock: 1, extra: true }]) {
      const bad = await api.put(`/offers/${offer.id}/stock`, body);
      expect([body, bad.status, bad.body.code]).toEqual([body, 422, 'validation_failed']);
    }

    const uploadedProduct = await svc.newProduct();
    const uploaded = await createUploaded(api, uploadedProduct.id);
    await upload(api, uploaded.id, textKeys('MISMATCH', 1));
    const mismatch = await api.put(`/offers/${uploaded.id}/stock`, { declared_stock: 5 });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ code: 'stock_mode_mismatch', title: 'Stock mode mismatch' });
    expect((await api.get(`/offers/${uploaded.id}`)).body.stock).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 1,
      reserved: 0,
      delivered: 0,
    });
  });
});
