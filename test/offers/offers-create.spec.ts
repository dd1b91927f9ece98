import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { eur, eventsOfType, type Fulfilment, startFulfilment, streamEvents } from './fixtures.js';

describe('POST /offers', () => {
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

  it('creates an uploaded offer in draft: instant delivery, the uploaded stock object, unroutable', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const res = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(1250),
      external_ref: 'SKU-A',
      low_stock_threshold: 3,
    });
    expect(res.status).toBe(201);
    const at = svc.clock.now().toISOString();
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      product_id: product.id,
      external_ref: 'SKU-A',
      status: 'draft',
      stock_mode: 'uploaded',
      price: eur(1250),
      delivery_sla_minutes: 0,
      delivery_time: 'instant',
      low_stock_threshold: 3,
      stock: { mode: 'uploaded', declared: null, available: 0, reserved: 0, delivered: 0 },
      health: { score: 100, routing_eligible: false, cooldown_until: null },
      fulfilment: null,
      created_at: at,
      updated_at: at,
    });
    expect((await api.get(`/offers/${res.body.id}`)).body).toEqual(res.body);
  });

  it('low_stock_threshold defaults to 0', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const res = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(100),
      external_ref: 'T',
    });
    expect(res.status).toBe(201);
    expect(res.body.low_stock_threshold).toBe(0);
  });

  it('creates a declared offer whose answer carries the secret once; later reads show secret_set and no secret', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const res = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'declared',
      price: eur(800),
      external_ref: 'SKU-D',
      fulfilment: { base_url: fulfilment.url },
      declared_stock: 4,
    });
    expect(res.status).toBe(201);
    const at = svc.clock.now().toISOString();
    expect(res.body).toEqual({
      id: expect.any(String),
      product_id: product.id,
      external_ref: 'SKU-D',
      status: 'draft',
      stock_mode: 'declared',
      price: eur(800),
      delivery_sla_minutes: 10,
      delivery_time: 'within_10_minutes',
      low_stock_threshold: 0,
      stock: { mode: 'declared', declared: 4, available: null, reserved: null, delivered: 0 },
      health: { score: 100, routing_eligible: false, cooldown_until: null },
      fulfilment: {
        base_url: fulfilment.url,
        secret: expect.stringMatching(/^svcsec_[0-9a-f]{32}$/),
        secret_set: true,
        last_healthcheck_at: null,
        last_healthcheck_ok: null,
      },
      created_at: at,
      updated_at: at,
    });
    const secret: string = res.body.fulfilment.secret;
    const { secret: _shownOnce, ...withoutSecret } = res.body.fulfilment;
    const read = await api.get(`/offers/${res.body.id}`);
    expect(read.body).toEqual({ ...res.body, fulfilment: withoutSecret });
    expect(Object.keys(read.body.fulfilment)).not.toContain('secret');
    const list = await api.get('/offers');
    expect(list.body.data).toEqual([read.body]);
    expect(read.text + list.text).not.toContain(secret);

    // kept only sealed: the event holds AES-GCM ciphertext that opens to the secret
    const [created] = await streamEvents(svc, `offer-${res.body.id}`);
    expect(created!.data.fulfilment.secretSealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(svc.services.secretBox.open(created!.data.fulfilment.secretSealed)).toBe(secret);
    expect(JSON.stringify(await streamEvents(svc, `offer-${res.body.id}`))).not.toContain(secret);
    expect(JSON.stringify(svc.logs)).not.toContain(secret);
  });

  it('declared offers: fulfilment is required, its base_url must be http(s) without credentials; declared_stock defaults to 0', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const base = { product_id: product.id, stock_mode: 'declared', price: eur(500), external_ref: 'D' };
    const missing = await api.post('/offers', base);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'body.fulfilment', message: 'required for a declared offer' }],
    });
    for (const [url, message] of [
      ['ftp://127.0.0.1/x', 'must use https'],
      ['not a url', 'not a valid URL'],
      ['http://user:pw@127.0.0.1:9', 'must not carry credentials'],
      ['http://127.0.0.1:9/#frag', 'must not carry a fragment'],
      ['http:///x', 'must name its host, as in https://host/path'],
      ['http:127.0.0.1:9', 'must name its host, as in https://host/path'],
    ]) {
      const bad = await api.post('/offers', { ...base, fulfilment: { base_url: url } });
      expect([url, bad.status, bad.body.errors]).toEqual([url, 422, [{ field: 'body.fulfilment.base_url', message }]]);
    }
    const extra = await api.post('/offers', { ...base, fulfilment: { base_url: fulfilment.url, secret: 'mine' } });
    expect(extra.status).toBe(422);
    expect((await api.get('/offers')).body.data).toEqual([]);
    const ok = await api.post('/offers', { ...base, fulfilment: { base_url: fulfilment.url } });
    expect(ok.status).toBe(201);
    expect(ok.body.stock).toEqual({ mode: 'declared', declared: 0, available: null, reserved: null, delivered: 0 });
  });

  it('an uploaded offer with fulfilment, declared_stock or declared-only terms is a 422 validation problem and creates nothing', async () => {
    const { api, id: supplierId } = await svc.newSupplier();
    const product = await svc.newProduct();
    const base = { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'X' };
    const both = await api.post('/offers', { ...base, fulfilment: { base_url: fulfilment.url }, declared_stock: 3 });
    expect(both.status).toBe(422);
    expect(both.body).toMatchObject({
      code: 'validation_failed',
      errors: [
        { field: 'body.fulfilment', message: 'must be omitted for an uploaded offer' },
        { field: 'body.declared_stock', message: 'must be omitted for an uploaded offer' },
      ],
    });
    const fulfilmentOnly = await api.post('/offers', { ...base, fulfilment: { base_url: fulfilment.url } });
    expect(fulfilmentOnly.body.errors).toEqual([
      { field: 'body.fulfilment', message: 'must be omitted for an uploaded offer' },
    ]);
    const stockOnly = await api.post('/offers', { ...base, declared_stock: 0 });
    expect(stockOnly.status).toBe(422);
    expect(stockOnly.body.errors).toEqual([
      { field: 'body.declared_stock', message: 'must be omitted for an uploaded offer' },
    ]);
    const terms = await api.post('/offers', { ...base, delivery_sla_minutes: 5, delivery_time: 'soon' });
    expect(terms.status).toBe(422);
    expect(terms.body.errors.map((e: any) => e.field)).toEqual(['body.delivery_sla_minutes', 'body.delivery_time']);
    expect((await api.get('/offers')).body.data).toEqual([]);
    expect((await streamEvents(svc, `supplier-${supplierId}`)).map((e) => e.type)).not.toContain('OfferSlotClaimed');
    expect((await api.post('/offers', base)).status).toBe(201);
  });

  it('a not_sellable product is 422 product_not_sellable and leaves nothing behind; an unknown product is a validation problem', async () => {
    const { api, id: supplierId } = await svc.newSupplier();
    const retired = await svc.newProduct({ status: 'not_sellable' });
    const res = await api.post('/offers', {
      product_id: retired.id,
      stock_mode: 'uploaded',
      price: eur(100),
      external_ref: 'N',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'product_not_sellable',
      status: 422,
      detail: `product ${retired.id} is not sellable`,
    });
    expect((await streamEvents(svc, `supplier-${supplierId}`)).map((e) => e.type)).toEqual([
      'SupplierRegistered',
      'SupplierTokenIssued',
    ]);
    const unknown = await api.post('/offers', {
      product_id: 'no-such-product',
      stock_mode: 'uploaded',
      price: eur(100),
      external_ref: 'N',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'body.product_id', message: 'no product no-such-product' }],
    });
    expect((await api.get('/offers')).body.data).toEqual([]);
  });

  it('a top-up product takes declared offers only: there are no keys to upload for a top-up', async () => {
    const { api } = await svc.newSupplier();
    const topup = await svc.newProduct({
      name: 'Gems',
      type: 'topup',
      form_fields: [{ key: 'user_id', label: 'User', type: 'text', required: true }],
    });
    const uploaded = await api.post('/offers', {
      product_id: topup.id,
      stock_mode: 'uploaded',
      price: eur(500),
      external_ref: 'G',
    });
    expect(uploaded.status).toBe(422);
    expect(uploaded.body).toMatchObject({
      code: 'validation_failed',
      errors: [
        {
          field: 'body.stock_mode',
          message: 'top-up products take declared offers (the supplier hosts validate and execute)',
        },
      ],
    });
    const declared = await api.post('/offers', {
      product_id: topup.id,
      stock_mode: 'declared',
      price: eur(500),
      external_ref: 'G',
      fulfilment: { base_url: fulfilment.url },
    });
    expect(declared.status).toBe(201);
  });

  it('one offer per product per supplier: a second create is 409 offer_exists, whatever its stock mode', async () => {
    const { api } = await svc.newSupplier();
    const other = await svc.newSupplier('Other');
    const product = await svc.newProduct();
    const first = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(100),
      external_ref: 'ONE',
    });
    expect(first.status).toBe(201);
    const again = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(90),
      external_ref: 'TWO',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'offer_exists', status: 409, title: 'Offer already exists' });
    const declared = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'declared',
      price: eur(90),
      external_ref: 'THREE',
      fulfilment: { base_url: fulfilment.url },
    });
    expect(declared.status).toBe(409);
    expect(declared.body.code).toBe('offer_exists');
    expect((await api.get('/offers')).body.data.map((o: any) => [o.id, o.external_ref, o.price.amount])).toEqual([
      [first.body.id, 'ONE', 100],
    ]);
    // another supplier may offer the same product
    expect(
      (
        await other.api.post('/offers', {
          product_id: product.id,
          stock_mode: 'uploaded',
          price: eur(95),
          external_ref: 'THEIRS',
        })
      ).status,
    ).toBe(201);
  });

  it('two suppliers racing, each with six simultaneous creates for one product: exactly one offer each', async () => {
    const product = await svc.newProduct();
    const suppliers = [await svc.newSupplier('Racer A'), await svc.newSupplier('Racer B')];
    const answers = await Promise.all(
      suppliers.flatMap(({ api }, s) =>
        Array.from({ length: 6 }, (_, i) =>
          api.post(
            '/offers',
            i % 2 === 0
              ? { product_id: product.id, stock_mode: 'uploaded', price: eur(100 + i), external_ref: `R${s}${i}` }
              : {
                  product_id: product.id,
                  stock_mode: 'declared',
                  price: eur(100 + i),
                  external_ref: `R${s}${i}`,
                  fulfilment: { base_url: fulfilment.url },
                },
          ),
        ),
      ),
    );
    for (const s of [0, 1]) {
      const mine = answers.slice(s * 6, s * 6 + 6);
      expect(mine.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect(mine.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(5).fill('offer_exists'));
      const winner = mine.find((a) => a.status === 201)!;
      expect((await suppliers[s]!.api.get('/offers')).body.data.map((o: any) => o.id)).toEqual([winner.body.id]);
    }
    const created = (await eventsOfType(svc, 'OfferCreated')).filter((e) => e.data.productId === product.id);
    expect(created).toHaveLength(2);
  });

  it('refuses a malformed request with 422 and names the field', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const base = { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'V' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, price: { amount: 100, currency: 'USD' } }, 'body.price.currency'],
      [{ ...base, price: { amount: 0, currency: 'EUR' } }, 'body.price.amount'],
      [{ ...base, price: { amount: 10.5, currency: 'EUR' } }, 'body.price.amount'],
      [{ ...base, stock_mode: 'consignment' }, 'body.stock_mode'],
      [{ ...base, external_ref: '   ' }, 'body.external_ref'],
      [{ ...base, low_stock_threshold: -1 }, 'body.low_stock_threshold'],
      [{ product_id: product.id, stock_mode: 'uploaded', price: eur(100) }, 'body.external_ref'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/offers', body);
      expect([field, res.status, res.body.code, res.body.errors.map((e: any) => e.field)]).toEqual([
        field,
        422,
        'validation_failed',
        [field],
      ]);
    }
    const unknown = await api.post('/offers', { ...base, colour: 'blue' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'body', message: 'Unrecognized key: "colour"' }]);
    expect((await api.get('/offers')).body.data).toEqual([]);
  });

  it('an Idempotency-Key retry answers the original 201 and creates one offer', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const body = { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'I' };
    const headers = { 'idempotency-key': 'create-offer-1' };
    const first = await api.post('/offers', body, { headers });
    const retry = await api.post('/offers', body, { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await api.get('/offers')).body.data.map((o: any) => o.id)).toEqual([first.body.id]);
  });
});
