import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { keys, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { eventually } from '../support/eventually.js';
import { client } from '../support/http.js';
import { selfSignedCertificate, startReceiver } from './receiver.js';

/**
 * POST /webhooks/{id}/recover and the per-endpoint rate_limit, against a real HTTPS
 * receiver that counts and orders what it gets.
 */

const DAY = 24 * 3600;

describe('webhook recovery and throttling', () => {
  const tls = selfSignedCertificate();
  // shared with the second instance of the last test, which opens the same endpoints' secrets
  const secretKey = newSecretKey();
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      secretKey,
      trustedCa: tls.cert,
      limits: { writes: 10_000, per_supplier: 100_000, operator: 100_000 },
    });
  });
  afterAll(() => svc.stop());

  /** A supplier with a product and an active uploaded offer of `stock` keys. */
  const world = async (stock = 20) => {
    const supplier = await svc.newSupplier('Recovering');
    const productId = (await svc.newProduct()).id;
    const { offerId } = await uploadedOffer(supplier, productId, {
      price: 700,
      values: keys(`R${Math.random()}`, stock),
    });
    /** An order placed and paid: order.created, then order.paid. */
    const sale = async () => {
      const placed = await svc.operator.post('/orders', {
        items: [{ product_id: productId, quantity: 1 }],
        buyer_country: 'DE',
      });
      expect(placed.status, placed.text).toBe(201);
      await svc.drain();
      expect((await svc.operator.post(`/orders/${placed.body.id}/pay`)).status).toBe(200);
      await svc.drain();
      return placed.body.id as string;
    };
    return { supplier, productId, offerId, sale };
  };

  it('re-sends every subscribed event since the moment, in the original order, as new deliveries marked recovered', async () => {
    const receiver = await startReceiver({ tls });
    try {
      const w = await world();
      const hook = await w.supplier.api.post('/webhooks', {
        url: receiver.url,
        events: ['order.created', 'order.paid'],
        description: 'orders',
      });
      expect(hook.status, hook.text).toBe(201);
      const early = await w.sale(); // before `since`: not recovered
      await svc.advance(60);
      const since = svc.clock.now().toISOString();
      const orders = [await w.sale(), await w.sale(), await w.sale()];
      await w.supplier.api.post(`/offers/${w.offerId}/deactivate`); // offer.deactivated: not subscribed
      await svc.drain();
      await svc.advance(60);
      const firstPass = receiver.received.map((r) => r.body);
      // the first deliveries may arrive in any order (docs/webhooks.md): each once
      const sent = (id: string) => [`order.created ${id}`, `order.paid ${id}`];
      const what = (b: any) => `${b.type} ${b.data.order.id}`;
      expect(firstPass.map(what).sort()).toEqual([early, ...orders].flatMap(sent).sort());
      const envelopeOf = new Map(firstPass.map((b) => [what(b), b.id]));

      const res = await w.supplier.api.post(`/webhooks/${hook.body.id}/recover`, { since });
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({
        id: expect.any(String),
        webhook_id: hook.body.id,
        since,
        until: svc.clock.now().toISOString(),
        status: 'scheduled',
      });
      await svc.drain();
      const recovered = receiver.received.slice(firstPass.length).map((r) => r.body);
      // exactly the six events since `since`, once each, in the order they happened (the
      // recovery's promise), with their original envelope ids
      const happened = orders.flatMap(sent);
      expect(recovered.map(what)).toEqual(happened);
      expect(recovered.map((b) => b.id)).toEqual(happened.map((w) => envelopeOf.get(w)));
      // each is a new delivery (its own delivery id), logged as recovered
      const deliveryIds = receiver.received.slice(firstPass.length).map((r) => r.headers['x-svc-delivery-id']);
      expect(new Set(deliveryIds).size).toBe(6);
      const log = (await w.supplier.api.get(`/webhook-deliveries?webhook_id=${hook.body.id}&limit=100`)).body.data;
      expect(
        log
          .filter((r: any) => r.recovered)
          .map((r: any) => r.delivery_id)
          .sort(),
      ).toEqual([...deliveryIds].sort());
      expect(log.filter((r: any) => !r.recovered)).toHaveLength(8);
      const one = await w.supplier.api.get(`/webhook-deliveries/${deliveryIds[0]}`);
      expect(one.body).toMatchObject({ recovered: true, succeeded: true, event_id: recovered[0].id });
      // a second recovery of the same moment sends them again (each recovery is its own)
      await w.supplier.api.post(`/webhooks/${hook.body.id}/recover`, { since });
      await svc.drain();
      expect(receiver.received.length).toBe(firstPass.length + 12);
    } finally {
      await receiver.close();
    }
    // some thirty requests and drains in a row: on a busy machine longer than the default bound
  }, 120_000);

  it('refuses since more than 14 days back or in the future (422), a disabled endpoint (409), another supplier (404)', async () => {
    const receiver = await startReceiver({ tls });
    try {
      const w = await world(1);
      const hook = (await w.supplier.api.post('/webhooks', { url: receiver.url, events: ['*'] })).body;
      const path = `/webhooks/${hook.id}/recover`;
      const at = (seconds: number) => new Date(svc.clock.now().getTime() + seconds * 1000).toISOString();
      for (const since of [at(-14 * DAY - 1), at(1), 'yesterday']) {
        const res = await w.supplier.api.post(path, { since });
        expect(res.status, since).toBe(422);
        expect(res.body.code).toBe('validation_failed');
      }
      expect((await w.supplier.api.post(path, { since: at(-14 * DAY) })).status).toBe(202);
      const other = await svc.newSupplier('Other Hooks');
      expect((await other.api.post(path, { since: at(-60) })).status).toBe(404);
      expect((await w.supplier.api.patch(`/webhooks/${hook.id}`, { status: 'disabled' })).status).toBe(200);
      const disabled = await w.supplier.api.post(path, { since: at(-60) });
      expect(disabled.status).toBe(409);
      expect(disabled.body.code).toBe('invalid_state');
      await svc.drain();
    } finally {
      await receiver.close();
    }
  });

  it('rate_limit: settable on create and PATCH, validated, and the sender keeps to it without losing a delivery', async () => {
    const receiver = await startReceiver({ tls });
    try {
      const w = await world();
      for (const rate_limit of [0, 1001, 2.5, 'fast']) {
        const res = await w.supplier.api.post('/webhooks', { url: receiver.url, events: ['*'], rate_limit });
        expect(res.status, String(rate_limit)).toBe(422);
      }
      const hook = await w.supplier.api.post('/webhooks', {
        url: receiver.url,
        events: ['order.created', 'order.paid'],
        rate_limit: 4,
      });
      expect(hook.status, hook.text).toBe(201);
      expect(hook.body.rate_limit).toBe(4);
      expect((await w.supplier.api.get('/webhooks')).body.data[0].rate_limit).toBe(4);

      // 6 sales: 12 deliveries at most 4 per second
      for (let i = 0; i < 6; i++) {
        const placed = await svc.operator.post('/orders', {
          items: [{ product_id: w.productId, quantity: 1 }],
          buyer_country: 'DE',
        });
        await svc.operator.post(`/orders/${placed.body.id}/pay`);
      }
      await svc.drain();
      const got = receiver.received;
      expect(got).toHaveLength(12);
      expect(new Set(got.map((r) => r.body.id)).size).toBe(12);
      // consecutive arrivals are at least 250 ms apart: never more than 4 in any second
      for (let i = 1; i < got.length; i++) expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThanOrEqual(250);

      // the recovery goes through the same limit
      const since = new Date(svc.clock.now().getTime() - 60_000).toISOString();
      const changed = await w.supplier.api.patch(`/webhooks/${hook.body.id}`, { rate_limit: 10 });
      expect(changed.body.rate_limit).toBe(10);
      receiver.received.length = 0;
      expect((await w.supplier.api.post(`/webhooks/${hook.body.id}/recover`, { since })).status).toBe(202);
      await svc.drain();
      expect(receiver.received).toHaveLength(12);
      for (let i = 1; i < receiver.received.length; i++)
        expect(receiver.received[i]!.at - receiver.received[i - 1]!.at).toBeGreaterThanOrEqual(100);

      const cleared = await w.supplier.api.patch(`/webhooks/${hook.body.id}`, { rate_limit: null });
      expect(cleared.body.rate_limit).toBeNull();
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('rate_limit holds across instances: one instance at a time sends to the endpoint, the other leaves its deliveries to it', async () => {
    const receiver = await startReceiver({ tls });
    const other = await startTestService({
      secretKey,
      trustedCa: tls.cert,
      limits: { writes: 10_000, per_supplier: 100_000, operator: 100_000 },
      databaseUrl: svc.databaseUrl,
      operatorToken: svc.operatorToken,
      clock: svc.clock,
    });
    try {
      const w = await world();
      const since = new Date(svc.clock.now().getTime() - 60_000).toISOString();
      for (let i = 0; i < 3; i++) await w.sale(); // 6 events, sent before any endpoint existed
      const hook = await w.supplier.api.post('/webhooks', {
        url: receiver.url,
        events: ['order.created', 'order.paid'],
        rate_limit: 10,
      });
      expect(hook.status, hook.text).toBe(201);
      const onOther = client(other.baseUrl, w.supplier.token);

      // this instance sends the first 6, 100 ms apart; while it does, the other instance is
      // asked for the same 6 again and runs its own sender
      expect((await w.supplier.api.post(`/webhooks/${hook.body.id}/recover`, { since })).status).toBe(202);
      const first = svc.drain();
      await eventually('the first recovered delivery arrived', () => receiver.received.length > 0);
      expect((await onOther.post(`/webhooks/${hook.body.id}/recover`, { since })).status).toBe(202);
      await Promise.all([first, other.drain()]);
      // what the other instance handed back is due at once, for the holder's next claim
      for (let round = 0; round < 5 && receiver.received.length < 12; round++) {
        await svc.drain();
        await other.drain();
      }

      const got = receiver.received;
      expect(got).toHaveLength(12);
      expect(new Set(got.map((r) => r.headers['x-svc-delivery-id'])).size).toBe(12);
      // never two arrivals closer than the limit's interval, whichever instance sent them
      for (let i = 1; i < got.length; i++) expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThanOrEqual(100);
    } finally {
      await other.stop();
      await receiver.close();
    }
  }, 120_000);
});
