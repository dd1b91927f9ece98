import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startTestService } from '../support/harness.js';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new connections', async () => {
    // a fulfilment endpoint that takes 400 ms to answer its healthcheck
    let asked = 0;
    const slow = http.createServer((_req, res) => {
      asked++;
      setTimeout(() => res.writeHead(200).end('{"status":"ok"}'), 400);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const svc = await startTestService();
    try {
      const { api } = await svc.newSupplier();
      const product = await svc.newProduct();
      const offer = await api.post('/offers', {
        product_id: product.id,
        stock_mode: 'declared',
        price: { amount: 100, currency: 'EUR' },
        external_ref: 'S',
        fulfilment: { base_url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}` },
      });
      const inFlight = api.post(`/offers/${offer.body.id}/activate`);
      // in flight for sure: the service is waiting for the healthcheck's answer
      await eventually('the activation asked for the healthcheck', () => asked > 0);
      const stopping = svc.stop();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('active');
      await stopping;
      await expect(fetch(`${svc.baseUrl}/whoami`)).rejects.toThrow();
    } finally {
      await svc.stop();
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});
