import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from './receiver.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const openssl = (secret: string, payload: string) =>
  execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: payload })
    .toString()
    .trim()
    .split('= ')
    .pop()!;

describe('webhook delivery', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let hook: { id: string; secret: string };
  let offerId: string;
  let productId: string;

  beforeAll(async () => {
    // a hanging endpoint costs 2 s, not 10; no lower: an answer at once, after a TLS
    // handshake on a busy machine, must still come in time
    svc = await startTestService({
      trustedCa: tls.cert,
      supplierTimeouts: { webhookMs: 2000 },
      limits: { test: 1000 },
    });
    receiver = await startReceiver({ tls });
    supplier = await svc.newSupplier('Hooked');
    const created = await supplier.api.post('/webhooks', { url: receiver.url, events: ['*'], description: 'all' });
    expect(created.status, created.text).toBe(201);
    hook = { id: created.body.id, secret: created.body.secret };
    productId = (await svc.newProduct()).id;
    offerId = (
      await supplier.api.post('/offers', {
        product_id: productId,
        stock_mode: 'uploaded',
        price: eur(1999),
        external_ref: 'W',
      })
    ).body.id;
    await supplier.api.post(`/offers/${offerId}/inventory`, {
      items: ['A', 'B', 'C', 'D'].map((value) => ({ kind: 'text', value })),
    });
    await supplier.api.post(`/offers/${offerId}/activate`);
  });
  // the receiver is shared: a test that failed before putting its answer back leaves the
  // next one a receiver that answers 200, as they expect
  afterEach(() => receiver.answer(200));
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
  });

  it('shows the secret once and lists the endpoint without it', async () => {
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{32}$/);
    const read = await supplier.api.get(`/webhooks/${hook.id}`);
    expect(read.body).toEqual({
      id: hook.id,
      url: receiver.url,
      events: ['*'],
      description: 'all',
      status: 'active',
      rate_limit: null,
      consecutive_failures: 0,
      disabled_at: null,
      created_at: expect.any(String),
    });
    expect((await supplier.api.get('/webhooks')).body.data.map((w: any) => w.id)).toEqual([hook.id]);
  });

  it('delivers order.created and order.paid over HTTPS, signed, with data.order exactly as GET /orders returns it', async () => {
    receiver.received.length = 0;
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    await svc.drain();
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    const types = receiver.received.map((r) => r.body.type);
    expect(types).toEqual(['order.created', 'order.paid']);
    const paid = receiver.received[1]!;
    expect(paid.body).toEqual({
      id: expect.any(String),
      type: 'order.paid',
      mode: 'test',
      api_version: 'v1',
      test_fire: false,
      created_at: expect.any(String),
      data: { order: (await supplier.api.get(`/orders/${placed.body.id}`)).body },
    });
    expect(paid.headers['content-type']).toBe('application/json');
    expect(paid.headers['user-agent']).toBe('service-webhooks/1.0');
    expect(paid.headers['x-svc-event']).toBe('order.paid');
    expect(paid.headers['x-svc-event-id']).toBe(paid.body.id);
    expect(paid.headers['x-svc-delivery-id']).toEqual(expect.any(String));
    const ts = String(paid.headers['x-svc-timestamp']);
    expect(ts).toMatch(/^\d+$/);
    // the signature, checked by the SDK helper and by openssl, independently of the service's code
    expect(
      verifySignature(paid.raw, paid.headers as Record<string, string>, [hook.secret], { now: () => Number(ts) }),
    ).toEqual({ ok: true, timestamp: Number(ts) });
    expect(paid.headers['x-svc-signature']).toBe(`v1=${openssl(hook.secret, `${ts}.${paid.raw}`)}`);
    expect(
      verifySignature(paid.raw, paid.headers as Record<string, string>, ['whsec_wrong'], { now: () => Number(ts) }).ok,
    ).toBe(false);
  });

  it('walks the retry ladder on the test clock, then abandons; the log keeps every attempt', async () => {
    receiver.received.length = 0;
    receiver.answer(500);
    const fire = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(fire.status).toBe(201);
    const t0 = svc.clock.now().getTime();
    await svc.drain();
    const times: number[] = [Number(receiver.received.at(-1)!.headers['x-svc-timestamp']) - t0];
    for (const wait of [60, 300, 1800, 7200, 28800, 86400]) {
      await svc.advance(wait - 1);
      const before = receiver.received.length;
      await svc.advance(1);
      expect(receiver.received.length).toBe(before + 1);
      times.push(Number(receiver.received.at(-1)!.headers['x-svc-timestamp']) - t0);
    }
    await svc.advance(3 * 86400);
    const created = receiver.received.filter(
      (r) => r.body.type === 'order.created' && r.body.data.order.id === fire.body.id,
    );
    expect(created).toHaveLength(7);
    expect(times).toEqual([0, 60, 360, 2160, 9360, 38160, 124560].map((s) => s * 1000));
    const log = await supplier.api.get(`/webhook-deliveries?event_type=order.created&status=failed&limit=200`);
    const mine = log.body.data.filter((d: any) => d.event_id === created[0]!.body.id);
    expect(mine.map((d: any) => d.attempt)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const one = await supplier.api.get(`/webhook-deliveries/${mine[0].id}`);
    expect(one.body.request_body).toBe(created[6]!.raw);
    // the log keeps the attempt's request headers exactly as they were sent
    expect(Object.keys(one.body.request_headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'x-svc-delivery-id',
      'x-svc-event',
      'x-svc-event-id',
      'x-svc-signature',
      'x-svc-timestamp',
    ]);
    for (const [name, value] of Object.entries(one.body.request_headers)) expect(created[6]!.headers[name]).toBe(value);
    expect(one.body.response_status).toBe(500);
    expect(one.body.response_body).toHaveLength(4096);
    // resend works for the abandoned delivery, once the receiver is back
    receiver.answer(200);
    const resent = await supplier.api.post(`/webhook-deliveries/${mine[0].delivery_id}/resend`);
    expect(resent.body).toMatchObject({
      delivery_id: mine[0].delivery_id,
      event_type: 'order.created',
      response_status: 200,
      succeeded: true,
    });
    expect(receiver.received.at(-1)!.raw).toBe(created[0]!.raw);
    expect((await supplier.api.get(`/webhooks/${hook.id}`)).body.consecutive_failures).toBe(0);
  });

  it('a timeout, a redirect and a 4xx fail the attempt', async () => {
    for (const answer of ['hang', { redirect: 'https://127.0.0.1:1/elsewhere' }, 404] as const) {
      receiver.answer(answer);
      const res = await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'offer.stock_low' });
      expect(res.status).toBe(200);
      expect(res.body.succeeded).toBe(false);
    }
    receiver.answer(200);
  });

  it('test-fire sends a canned fixture with test_fire true and leaves the failure counter alone', async () => {
    receiver.answer(503);
    const before = (await supplier.api.get(`/webhooks/${hook.id}`)).body.consecutive_failures;
    const failed = await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'order.refunded' });
    expect(failed.body).toEqual({
      delivery_id: expect.any(String),
      event_type: 'order.refunded',
      response_status: 503,
      duration_ms: expect.any(Number),
      succeeded: false,
      outcome: 'http_error',
    });
    expect((await supplier.api.get(`/webhooks/${hook.id}`)).body.consecutive_failures).toBe(before);
    receiver.answer(200);
    const ok = await supplier.api.post(`/webhooks/${hook.id}/test`, {});
    expect(ok.body).toMatchObject({ event_type: 'order.paid', response_status: 200, succeeded: true });
    const sent = receiver.received.at(-1)!;
    expect(sent.body).toMatchObject({ type: 'order.paid', test_fire: true, mode: 'test', api_version: 'v1' });
    expect((await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'order.shipped' })).status).toBe(422);
  });

  it('rotating the secret signs with both for 24 hours', async () => {
    const rotated = await supplier.api.post(`/webhooks/${hook.id}/rotate-secret`);
    const fresh = rotated.body.secret;
    expect(fresh).toMatch(/^whsec_[0-9a-f]{32}$/);
    await supplier.api.post(`/webhooks/${hook.id}/test`, {});
    let sent = receiver.received.at(-1)!;
    let ts = String(sent.headers['x-svc-timestamp']);
    const sign = (secret: string) => createHmac('sha256', secret).update(`${ts}.${sent.raw}`).digest('hex');
    expect(sent.headers['x-svc-signature']).toBe(`v1=${sign(fresh)},v1=${sign(hook.secret)}`);
    svc.clock.advance(24 * 3600 + 1);
    await supplier.api.post(`/webhooks/${hook.id}/test`, {});
    sent = receiver.received.at(-1)!;
    ts = String(sent.headers['x-svc-timestamp']);
    expect(sent.headers['x-svc-signature']).toBe(
      `v1=${createHmac('sha256', fresh).update(`${ts}.${sent.raw}`).digest('hex')}`,
    );
    hook.secret = fresh;
  });

  it('delivers offer.deactivated and offer.stock_low', async () => {
    receiver.received.length = 0;
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(3);
    await supplier.api.patch(`/offers/${offerId}`, { low_stock_threshold: 2 });
    await svc.operator.post('/orders', { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE' });
    await supplier.api.post(`/offers/${offerId}/deactivate`);
    await svc.drain();
    // deliveries may arrive in any order (spec: Delivery)
    const offerEvents = receiver.received
      .filter((r) => r.body.type.startsWith('offer.'))
      .map((r) => [r.body.type, r.body.data]);
    expect(offerEvents.sort((a, b) => String(b[0]).localeCompare(String(a[0])))).toEqual([
      ['offer.stock_low', { offer_id: offerId, product_id: productId, external_ref: 'W', available: 2, threshold: 2 }],
      [
        'offer.deactivated',
        { offer_id: offerId, product_id: productId, external_ref: 'W', reason: 'supplier_request' },
      ],
    ]);
  });

  it('logs a binary answer with U+FFFD for its NUL bytes, in the batch that records the delivery', async () => {
    await supplier.api.post(`/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'BINARY' }] });
    await supplier.api.post(`/offers/${offerId}/activate`);
    await svc.drain();
    receiver.received.length = 0;
    receiver.answer({ ok: Buffer.from([0x6f, 0x6b, 0x00, 0x01, 0x00]) });
    const fire = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(fire.status).toBe(201);
    await svc.drain();
    const created = receiver.received.find(
      (r) => r.body.type === 'order.created' && r.body.data.order.id === fire.body.id,
    );
    const log = await supplier.api.get(`/webhook-deliveries?event_type=order.created&status=succeeded&limit=200`);
    const mine = log.body.data.filter((d: any) => d.event_id === created!.body.id);
    expect(mine).toHaveLength(1);
    const one = await supplier.api.get(`/webhook-deliveries/${mine[0].id}`);
    expect(one.body.response_status).toBe(200);
    expect(one.body.response_body).toBe('ok\uFFFD\u0001\uFFFD');
    receiver.answer(200);
  });
});

describe('order and stock webhooks', () => {
  it('order.expired, order.refunded, order.disputed and stock.invalidated reach the supplier, scoped to it', async () => {
    const svc = await startTestService();
    const receiver = await startReceiver();
    try {
      const seller = await svc.newSupplier('Seller');
      await seller.api.post('/webhooks', {
        url: receiver.url,
        events: ['order.expired', 'order.refunded', 'order.disputed', 'stock.invalidated'],
      });
      const product = (await svc.newProduct()).id;
      const offer = (
        await seller.api.post('/offers', {
          product_id: product,
          stock_mode: 'uploaded',
          price: eur(1000),
          external_ref: 'E',
        })
      ).body.id;
      const items = (
        await seller.api.post(`/offers/${offer}/inventory`, {
          items: ['1', '2', '3', '4'].map((v) => ({ kind: 'text', value: `K${v}` })),
        })
      ).body.item_ids;
      await seller.api.post(`/offers/${offer}/activate`);
      const expiring = await svc.operator.post('/orders', {
        items: [{ product_id: product, quantity: 1 }],
        buyer_country: 'DE',
      });
      await svc.advance(15 * 60);
      const sold = await svc.operator.post('/orders', {
        items: [{ product_id: product, quantity: 1 }],
        buyer_country: 'FR',
      });
      await svc.operator.post(`/orders/${sold.body.id}/pay`);
      await svc.operator.post(`/orders/${sold.body.id}/dispute`, { reason: 'key already used' });
      await svc.operator.post(`/orders/${sold.body.id}/refund`, {});
      await svc.operator.post(`/inventory/${items[3]}/invalidate`, { reason: 'leaked' });
      await svc.drain();
      const byType = Object.fromEntries(receiver.received.map((r) => [r.body.type, r.body.data]));
      expect(Object.keys(byType).sort()).toEqual([
        'order.disputed',
        'order.expired',
        'order.refunded',
        'stock.invalidated',
      ]);
      expect(byType['order.expired'].order).toMatchObject({
        id: expiring.body.id,
        status: 'expired',
        items: [{ status: 'released' }],
      });
      expect(byType['order.refunded']).toEqual({
        order: (await seller.api.get(`/orders/${sold.body.id}`)).body,
        refunded_item_ids: [sold.body.items[0].id],
      });
      expect(byType['order.disputed']).toMatchObject({
        disputed_item_ids: [sold.body.items[0].id],
        reason: 'key already used',
      });
      expect(byType['stock.invalidated']).toEqual({
        offer_id: offer,
        item_id: items[3],
        previous_status: 'available',
        reason: 'leaked',
      });
    } finally {
      await svc.stop();
      await receiver.close();
    }
  });
});
