import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';

describe('the API surface', () => {
  let svc: TestService;
  let withClock: TestService;
  beforeAll(async () => {
    [svc, withClock] = await Promise.all([startTestService(), startTestService({ testClockEndpoint: true })]);
  });
  afterAll(() => Promise.all([svc.stop(), withClock.stop()]));

  it('serves an OpenAPI 3.1 document with every route, and a browsable reference', async () => {
    const doc = await request(svc.baseUrl, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      '/api/v1/whoami',
      '/api/v1/products',
      '/api/v1/products/{product_id}',
      '/api/v1/offers',
      '/api/v1/offers/{offer_id}',
      '/api/v1/offers/{offer_id}/inventory',
      '/api/v1/offers/{offer_id}/activate',
      '/api/v1/offers/{offer_id}/stock',
      '/api/v1/offers/{offer_id}/price',
      '/api/v1/offers/{offer_id}/fulfilment/check',
      '/api/v1/pricing/simulate',
      '/api/v1/fees',
      '/api/v1/orders',
      '/api/v1/orders/{order_id}',
      '/api/v1/sandbox/orders',
      '/api/v1/balance',
      '/api/v1/balance/entries',
      '/operator/v1/suppliers',
      '/operator/v1/products',
      '/operator/v1/orders',
      '/operator/v1/orders/{order_id}/pay',
    ])
      expect(paths).toContain(p);
    const create = doc.body.paths['/api/v1/offers'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '409', '422', '429']));
    expect(create.requestBody.content['application/json'].schema).toBeDefined();
    const page = await request(svc.baseUrl, 'GET', '/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Swagger UI');
  });

  it('operator API: suppliers, tokens, products with form fields, and their errors', async () => {
    const created = await svc.operator.post('/suppliers', { name: '  Keys & Co  ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ supplier: { id: expect.any(String), name: 'Keys & Co' }, token: expect.stringMatching(/^svc_test_/), token_id: expect.any(String) });
    expect((await svc.operator.post(`/suppliers/${created.body.supplier.id}/tokens`)).status).toBe(201);
    expect((await svc.operator.post('/suppliers/unknown/tokens')).status).toBe(404);

    const fields = [
      { key: 'user_id', label: 'Player ID', type: 'text', required: true, pattern: '^[0-9]{6}$', max_length: 6 },
      { key: 'server', label: 'Server', type: 'select', required: true, options: [{ value: 'eu', label: 'Europe' }] },
    ];
    const topup = await svc.operator.post('/products', { name: 'Gems', type: 'topup', platform: 'mobile', region: 'GLOBAL', status: 'sellable', form_fields: fields });
    expect(topup.status).toBe(201);
    expect(topup.body.form_fields[0]).toEqual({ ...fields[0], help_text: null, options: null });
    expect(topup.body.form_fields[1]).toEqual({ ...fields[1], pattern: null, max_length: null, help_text: null });
    const badPattern = await svc.operator.post('/products', { name: 'X', type: 'topup', platform: 'p', region: 'r', status: 'sellable', form_fields: [{ ...fields[0], pattern: '([' }] });
    expect(badPattern.status).toBe(422);
    expect(badPattern.body.errors).toEqual([{ field: 'body.form_fields.0.pattern', message: 'not a valid regular expression' }]);
    const patched = await svc.operator.patch(`/products/${topup.body.id}`, { status: 'not_sellable' });
    expect(patched.status).toBe(200);
    expect(patched.body.status).toBe('not_sellable');
    expect((await svc.operator.patch('/products/unknown', { status: 'sellable' })).status).toBe(404);
    expect((await svc.operator.patch(`/products/${topup.body.id}`, { price: 1 })).status).toBe(422);
  });

  it('the clock endpoint exists only with the test clock, and moves time', async () => {
    expect((await svc.operator.post('/clock/advance', { seconds: 60 })).status).toBe(404);
    const before = withClock.clock.now().getTime();
    const moved = await withClock.operator.post('/clock/advance', { seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(new Date(moved.body.now).getTime()).toBe(before + 3600_000);
    expect((await withClock.operator.post('/clock/advance', { seconds: 0 })).status).toBe(422);
  });

  it('supplier product reads: filter by type, walk every page with the cursor, read one', async () => {
    const { api } = await svc.newSupplier('Reader');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await svc.newProduct({ name: `Game ${i}` })).id);
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await api.get(`/products?type=game_key&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data.map((p: any) => p.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(all).toEqual(ids);
    expect(pages).toBe(3);
    expect((await api.get('/products?type=topup')).body.data.map((p: any) => p.type)).toEqual(['topup']);
    const one = await api.get(`/products/${ids[3]}`);
    expect(one.body).toMatchObject({ id: ids[3], name: 'Game 3', type: 'game_key', form_fields: [], market: { buyer_price: null, active_offers: 0, your_offer_selected: false } });
    expect((await api.get('/products/unknown')).status).toBe(404);
  });

  it('health probes answer without a token', async () => {
    expect((await request(svc.origin, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(svc.origin, 'GET', '/readyz')).body).toEqual({ status: 'ready' });
  });
});

describe('logs', () => {
  it('carry the trace_id on every request line and never a token', async () => {
    const svc = await startTestService();
    try {
      const { id, token, api } = await svc.newSupplier('Quiet');
      const second = await svc.operator.post(`/suppliers/${id}/tokens`);
      await api.get('/whoami');
      await request(svc.baseUrl, 'GET', '/whoami', { token: `${token}x` });
      const text = JSON.stringify(svc.logs);
      for (const secret of [token, second.body.token, svc.operatorToken]) expect(text).not.toContain(secret);
      const requestLines = svc.logs.filter((l) => l.req || l.res);
      expect(requestLines.length).toBeGreaterThan(4);
      expect(requestLines.every((l) => typeof l.trace_id === 'string')).toBe(true);
    } finally {
      await svc.stop();
    }
  });
});

describe('the OpenAPI webhooks section', () => {
  it('documents every event type with its envelope', async () => {
    const svc = await startTestService();
    try {
      const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
      expect(Object.keys(doc.webhooks).sort()).toEqual(
        ['offer.deactivated', 'offer.stock_low', 'order.created', 'order.disputed', 'order.expired', 'order.paid', 'order.refunded', 'stock.invalidated', 'webhook.disabled'],
      );
      const paid = doc.webhooks['order.paid'].post.requestBody.content['application/json'].schema;
      expect(paid.required).toEqual(['id', 'type', 'mode', 'api_version', 'test_fire', 'created_at', 'data']);
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/webhooks', '/api/v1/webhook-deliveries', '/api/v1/webhook-deliveries/{delivery_id}/resend']));
    } finally {
      await svc.stop();
    }
  });
});
