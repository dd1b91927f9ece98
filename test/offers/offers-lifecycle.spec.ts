import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** A fulfilment endpoint whose healthcheck answer the test sets; it records each request. */
const startFulfilment = async () => {
  let answer: number | 'hang' = 200;
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url!, headers: req.headers });
    if (answer === 'hang') return; // never answers
    res.writeHead(answer, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: answer === 200 ? 'ok' : 'down' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    set: (a: number | 'hang') => void (answer = a),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};

describe('offers: create, read, change, activate, deactivate', () => {
  let svc: TestService;
  let fulfilment: Awaited<ReturnType<typeof startFulfilment>>;
  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 100 } });
    fulfilment = await startFulfilment();
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  it('creates an uploaded offer in draft with instant delivery and the spec stock object', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const res = await api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(1250), external_ref: 'SKU-A', low_stock_threshold: 3 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
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
      created_at: svc.clock.now().toISOString(),
      updated_at: svc.clock.now().toISOString(),
    });
    expect((await api.get(`/offers/${res.body.id}`)).body).toEqual(res.body);
  });

  it('refuses fulfilment, declared_stock and declared-only fields on an uploaded offer, a not_sellable product, a second offer', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const base = { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'X' };
    const withFulfilment = await api.post('/offers', { ...base, fulfilment: { base_url: fulfilment.url }, declared_stock: 3 });
    expect(withFulfilment.status).toBe(422);
    expect(withFulfilment.body.code).toBe('validation_failed');
    expect(withFulfilment.body.errors.map((e: any) => e.field)).toEqual(['body.fulfilment', 'body.declared_stock']);
    const retired = await svc.newProduct({ status: 'not_sellable' });
    const notSellable = await api.post('/offers', { ...base, product_id: retired.id });
    expect(notSellable.status).toBe(422);
    expect(notSellable.body.code).toBe('product_not_sellable');
    expect((await api.post('/offers', base)).status).toBe(201);
    const again = await api.post('/offers', { ...base, price: eur(90) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('offer_exists');
    expect((await api.get('/offers')).body.data).toHaveLength(1);
  });

  it('two racing creates for one product: exactly one wins, the other is offer_exists', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const body = { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'R' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post('/offers', body)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'offer_exists')).toBe(true);
  });

  it('declared offers: the secret is shown once; activation runs the healthcheck; failure changes nothing', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const res = await api.post('/offers', { product_id: product.id, stock_mode: 'declared', price: eur(800), external_ref: 'D', fulfilment: { base_url: fulfilment.url }, declared_stock: 4 });
    expect(res.status).toBe(201);
    expect(res.body.fulfilment).toEqual({ base_url: fulfilment.url, secret: expect.stringMatching(/^svcsec_[0-9a-f]{32}$/), secret_set: true, last_healthcheck_at: null, last_healthcheck_ok: null });
    expect(res.body.stock).toEqual({ mode: 'declared', declared: 4, available: null, reserved: null, delivered: 0 });
    expect(res.body.delivery_sla_minutes).toBe(10);
    const read = await api.get(`/offers/${res.body.id}`);
    expect(read.body.fulfilment).toEqual({ base_url: fulfilment.url, secret_set: true, last_healthcheck_at: null, last_healthcheck_ok: null });
    const events = JSON.stringify(await svc.services.db.selectFrom('es_events' as any).selectAll().execute());
    expect(events).not.toContain(res.body.fulfilment.secret);

    fulfilment.set(503);
    const refused = await api.post(`/offers/${res.body.id}/activate`);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('fulfilment_unreachable');
    expect(refused.body.detail).toMatch(/^GET \/healthcheck answered 503 after \d+ ms$/);
    expect((await api.get(`/offers/${res.body.id}`)).body).toEqual(read.body);

    fulfilment.set(200);
    const active = await api.post(`/offers/${res.body.id}/activate`);
    expect(active.status).toBe(200);
    expect(active.body.status).toBe('active');
    expect(active.body.health).toEqual({ score: 100, routing_eligible: true, cooldown_until: null });
    expect(active.body.fulfilment.last_healthcheck_ok).toBe(true);
    const probe = fulfilment.seen.at(-1)!;
    expect(probe.path).toBe('/healthcheck');
    expect(probe.headers['user-agent']).toBe('service-fulfilment/1.0');
    expect(probe.headers['x-svc-offer-id']).toBe(res.body.id);
    const ts = String(probe.headers['x-svc-timestamp']);
    expect(probe.headers['x-svc-signature']).toBe(`v1=${createHmac('sha256', res.body.fulfilment.secret).update(`${ts}.`).digest('hex')}`);

    // declared stock 0 keeps it active and unroutable
    const changed = await api.patch(`/offers/${res.body.id}`, { delivery_sla_minutes: 5, delivery_time: 'within_5_minutes', fulfilment: { base_url: `${fulfilment.url}/v2` } });
    expect(changed.body).toMatchObject({ delivery_sla_minutes: 5, delivery_time: 'within_5_minutes', fulfilment: { base_url: `${fulfilment.url}/v2`, secret_set: true } });
    expect((await api.patch(`/offers/${res.body.id}`, { fulfilment: { base_url: fulfilment.url } })).status).toBe(200);
    const zero = await api.put(`/offers/${res.body.id}/stock`, { declared_stock: 0 });
    expect(zero.body).toEqual({ offer_id: res.body.id, declared_stock: 0, updated_at: expect.any(String) });
    const after = await api.get(`/offers/${res.body.id}`);
    expect(after.body.status).toBe('active');
    expect(after.body.health.routing_eligible).toBe(false);
  });

  it('deactivate leaves active with reason supplier_request; reactivation restarts health at 70', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = (await api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'Z' })).body;
    const zeroStock = await api.post(`/offers/${offer.id}/activate`);
    expect(zeroStock.body.status).toBe('active');
    expect(zeroStock.body.health).toEqual({ score: 100, routing_eligible: false, cooldown_until: null }); // no stock yet
    const off = await api.post(`/offers/${offer.id}/deactivate`);
    expect(off.body.status).toBe('inactive');
    const event = await svc.services.db.selectFrom('es_events' as any).select(['data'] as any).where('type' as any, '=', 'OfferDeactivated').where('stream_id' as any, '=', `offer-${offer.id}`).executeTakeFirst();
    expect((event as any).data).toMatchObject({ offerId: offer.id, reason: 'supplier_request' });
    const on = await api.post(`/offers/${offer.id}/activate`);
    expect(on.body.status).toBe('active');
    expect(on.body.health.score).toBe(70);
  });

  it('PATCH changes the named fields only; declared-only fields on uploaded offers and unknown fields are 422', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = (await api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(100), external_ref: 'P' })).body;
    svc.clock.advance(5);
    const patched = await api.patch(`/offers/${offer.id}`, { price: eur(150), external_ref: 'P2', low_stock_threshold: 7 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ price: eur(150), external_ref: 'P2', low_stock_threshold: 7, updated_at: svc.clock.now().toISOString() });
    const declaredOnly = await api.patch(`/offers/${offer.id}`, { delivery_sla_minutes: 5 });
    expect(declaredOnly.status).toBe(422);
    expect(declaredOnly.body.errors).toEqual([{ field: 'body.delivery_sla_minutes', message: 'only for declared offers' }]);
    const unknown = await api.patch(`/offers/${offer.id}`, { colour: 'blue' });
    expect(unknown.status).toBe(422);
    const price = await api.put(`/offers/${offer.id}/price`, { price: eur(175) });
    expect(price.body.price).toEqual(eur(175));
    const stock = await api.put(`/offers/${offer.id}/stock`, { declared_stock: 5 });
    expect(stock.status).toBe(409);
    expect(stock.body.code).toBe('stock_mode_mismatch');
    expect((await api.get(`/offers/${offer.id}`)).body.price).toEqual(eur(175));
  });

  it('fulfilment check records the probe; rotate-secret signs with both secrets for 24 hours', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = (await api.post('/offers', { product_id: product.id, stock_mode: 'declared', price: eur(800), external_ref: 'C', fulfilment: { base_url: fulfilment.url } })).body;
    const oldSecret = offer.fulfilment.secret;
    fulfilment.set(200);
    const check = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ status: 'ok', http_status: 200, latency_ms: expect.any(Number), checked_at: svc.clock.now().toISOString() });
    fulfilment.set(500);
    const failed = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(failed.body).toMatchObject({ status: 'failed', http_status: 500 });
    expect((await api.get(`/offers/${offer.id}`)).body.fulfilment).toMatchObject({ last_healthcheck_ok: false, last_healthcheck_at: failed.body.checked_at });

    const rotated = await api.post(`/offers/${offer.id}/fulfilment/rotate-secret`);
    const newSecret = rotated.body.fulfilment.secret;
    expect(newSecret).toMatch(/^svcsec_[0-9a-f]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    const sign = (secret: string, ts: string) => createHmac('sha256', secret).update(`${ts}.`).digest('hex');
    fulfilment.set(200);
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    let h = fulfilment.seen.at(-1)!.headers;
    expect(h['x-svc-signature']).toBe(`v1=${sign(newSecret, String(h['x-svc-timestamp']))},v1=${sign(oldSecret, String(h['x-svc-timestamp']))}`);
    svc.clock.advance(24 * 3600 + 1);
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    h = fulfilment.seen.at(-1)!.headers;
    expect(h['x-svc-signature']).toBe(`v1=${sign(newSecret, String(h['x-svc-timestamp']))}`);
    const uploaded = await svc.newSupplier();
    const p2 = await svc.newProduct();
    const up = (await uploaded.api.post('/offers', { product_id: p2.id, stock_mode: 'uploaded', price: eur(1), external_ref: 'U' })).body;
    expect((await uploaded.api.post(`/offers/${up.id}/fulfilment/check`)).status).toBe(409);
  });

  it('lists offers with filters and cursor pagination', async () => {
    const { api } = await svc.newSupplier();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await svc.newProduct({ name: `L${i}` });
      const mode = i % 2 === 0 ? 'uploaded' : 'declared';
      const o = await api.post('/offers', { product_id: p.id, stock_mode: mode, price: eur(100 + i), external_ref: `L${i}`, ...(mode === 'declared' && { fulfilment: { base_url: fulfilment.url } }) });
      ids.push(o.body.id);
    }
    await api.post(`/offers/${ids[0]}/activate`);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await api.get(`/offers?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...res.body.data.map((o: any) => o.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(all).toEqual(ids);
    expect((await api.get('/offers?stock_mode=declared')).body.data.map((o: any) => o.id)).toEqual([ids[1], ids[3]]);
    expect((await api.get('/offers?status=active')).body.data.map((o: any) => o.id)).toEqual([ids[0]]);
    const product = (await api.get(`/offers/${ids[2]}`)).body.product_id;
    expect((await api.get(`/offers?product_id=${product}`)).body.data.map((o: any) => o.id)).toEqual([ids[2]]);
  });

  it('GET /fees is the spec fee schedule', async () => {
    const { api } = await svc.newSupplier();
    const fees = await api.get('/fees');
    expect(fees.body).toEqual({
      version: '2026-01-01',
      effective_from: '2026-01-01T00:00:00.000Z',
      currency: 'EUR',
      commission: { rate_bps: 850, min_fee: eur(5), applies: expect.any(String) },
      listing_fee: null,
      price_change_fee: null,
      payment_fees_charged_to_supplier: false,
      payment_fees_charged_to_buyer: false,
      settlement: { holding_period_days: 7, trigger: 'delivery' },
      payout: { methods: ['sepa_bank_transfer', 'paypal'], minimum: eur(2000), fee: null },
      unfulfilled_sale_fee: null,
      docs_url: expect.stringMatching(/^http:\/\/.+\/api\/v1\/docs$/),
    });
  });
});
