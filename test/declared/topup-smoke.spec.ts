import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

const startTopupSupplier = async () => {
  const executed = new Map<string, number>();
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      calls.push(`${req.method} ${req.url}`);
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.url === '/healthcheck') return send(200, { status: 'ok' });
      if (req.url === '/topup/validate') return send(200, { operation_id: body.operation_id, valid: true, account_label: `Player ${body.form_fields.user_id}` });
      if (req.url === '/topup/execute') {
        const n = (executed.get(body.operation_id) ?? 0) + 1;
        executed.set(body.operation_id, n);
        const result = { operation_id: body.operation_id, status: 'completed', receipt_ref: `R-${body.operation_id}` };
        return send(n === 1 ? 201 : 200, result);
      }
      send(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, executed, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
};

const formFields = [
  { key: 'user_id', label: 'Player ID', type: 'text', required: true, pattern: '^[0-9]{6}$', max_length: 6, help_text: null, options: null },
  { key: 'server', label: 'Server', type: 'select', required: true, pattern: null, max_length: null, help_text: null, options: [{ value: 'eu', label: 'Europe' }] },
];

describe('top-ups (smoke)', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<typeof startTopupSupplier>>;
  let api: Awaited<ReturnType<TestService['newSupplier']>>['api'];
  let offerId: string;
  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 100 } });
    supplier = await startTopupSupplier();
    ({ api } = await svc.newSupplier());
    const product = await svc.newProduct({ type: 'topup', form_fields: formFields });
    const offer = await api.post('/offers', { product_id: product.id, stock_mode: 'declared', price: eur(500), external_ref: 'T-1', fulfilment: { base_url: supplier.url }, declared_stock: 100 });
    offerId = offer.body.id;
    expect((await api.post(`/offers/${offerId}/activate`)).status).toBe(200);
  });
  afterAll(async () => {
    await svc.stop();
    await supplier.close();
  });

  it('refuses bad form fields before any supplier call', async () => {
    const before = supplier.calls.length;
    const res = await api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE', form_fields: { user_id: '12', server: 'mars' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'body.form_fields.user_id', message: 'does not match ^[0-9]{6}$' },
      { field: 'body.form_fields.server', message: 'must be one of eu' },
    ]);
    expect(supplier.calls.length).toBe(before);
  });

  it('100001 validates and executes; 777777 executes exactly once across a lost first answer', async () => {
    for (const userId of ['100001', '777777']) {
      const res = await api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE', form_fields: { user_id: userId, server: 'eu' } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.items[0].fulfilment.account_label).toBe(`Player ${userId}`);
      await svc.drain();
      if (userId === '777777') await svc.advance(10);
      const order = await api.get(`/orders/${res.body.id}`);
      expect(order.body.status).toBe('completed');
      const op = order.body.items[0].fulfilment.operation_id;
      expect(order.body.items[0].fulfilment.receipt_ref).toBe(`R-${op}`);
      expect(supplier.executed.get(op)).toBe(userId === '777777' ? 2 : 1); // the second call is the supplier's replay
    }
  });

  it('999999 is refused at checkout with invalid_user_id; 888888 is refunded with a health penalty', async () => {
    const invalid = await api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE', form_fields: { user_id: '999999', server: 'eu' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ code: 'topup_invalid', supplier_code: 'invalid_user_id' });
    const failing = await api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE', form_fields: { user_id: '888888', server: 'eu' } });
    expect(failing.status, failing.text).toBe(201);
    await svc.drain();
    const order = await api.get(`/orders/${failing.body.id}`);
    expect(order.body.status).toBe('refunded');
    const offer = await api.get(`/offers/${offerId}`);
    expect(offer.body.health.score).toBe(75);
    expect(offer.body.health.cooldown_until).not.toBeNull();
    expect(offer.body.health.routing_eligible).toBe(false);
  });
});
