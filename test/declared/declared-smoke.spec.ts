import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** A bare supplier: holds reservations, accepts orders, hands over items on the second poll. */
const startSupplier = async () => {
  const calls: { method: string; path: string; body: any; headers: http.IncomingHttpHeaders }[] = [];
  const polls = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      calls.push({ method: req.method!, path: req.url!, body, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.url === '/healthcheck') return send(200, { status: 'ok' });
      if (req.method === 'POST' && req.url === '/reservations') return send(201, { reservation_id: body.reservation_id, expires_at: body.expires_at });
      if (req.method === 'POST' && req.url === '/orders') return send(201, { order_id: body.order_id, status: 'accepted' });
      const m = /^\/orders\/([^/]+)\/items$/.exec(req.url!);
      if (m && req.method === 'GET') {
        const n = (polls.get(m[1]!) ?? 0) + 1;
        polls.set(m[1]!, n);
        if (n < 2) return send(200, { order_id: m[1], status: 'pending', items: [] });
        return send(200, { order_id: m[1], status: 'ready', items: [{ kind: 'text', value: `KEY-${m[1]}` }] });
      }
      send(404, { code: 'not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe('declared stock end to end (smoke)', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<typeof startSupplier>>;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await startSupplier();
  });
  afterAll(async () => {
    await svc.stop();
    await supplier.close();
  });

  it('reserves at checkout, orders after payment, polls, delivers, captures, posts the sale', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await api.post('/offers', { product_id: product.id, stock_mode: 'declared', price: eur(1000), external_ref: 'D-1', fulfilment: { base_url: supplier.url }, declared_stock: 5 });
    expect(offer.status, offer.text).toBe(201);
    expect((await api.post(`/offers/${offer.body.id}/activate`)).status).toBe(200);

    const placed = await svc.operator.post('/orders', { items: [{ product_id: product.id, quantity: 1 }], buyer_country: 'DE' });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.items[0].fulfilment.source).toBe('declared');
    const paid = await svc.operator.post(`/orders/${placed.body.id}/pay`);
    expect(paid.body.status).toBe('placed');
    await svc.drain(); // POST /orders and the first poll (pending)
    await svc.advance(5); // second poll: ready
    const order = await svc.operator.get(`/orders/${placed.body.id}`);
    expect(order.body.status).toBe('completed');
    const keys = await svc.operator.get(`/orders/${placed.body.id}/deliverables`);
    expect(keys.status, keys.text).toBe(200);
    const itemId = placed.body.items[0].id;
    expect(keys.body.items).toEqual([{ order_item_id: itemId, keys: [{ inventory_item_id: expect.any(String), kind: 'text', value: `KEY-${itemId}` }] }]);
    expect(supplier.calls.map((c) => `${c.method} ${c.path.replace(/[0-9A-Z]{26}/, ':id')}`)).toEqual([
      'GET /healthcheck',
      'POST /reservations',
      'POST /orders',
      'GET /orders/:id/items',
      'GET /orders/:id/items',
    ]);
    const offerAfter = await api.get(`/offers/${offer.body.id}`);
    expect(offerAfter.body.health.score).toBe(100); // +3 capped at 100
    await svc.drain();
    expect((await api.get('/balance')).body.pending).toEqual(eur(1000 - 85));
  });
});
