import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitRequest } from '../../src/sdk/kit/index.js';
import { calls, startWorld, type World } from './support.js';

const v1Entries = (r: KitRequest) =>
  String(r.headers['x-svc-signature'])
    .split(',')
    .map((e) => e.trim());
/** The spec's v1 value, computed here with node:crypto alone. */
const hmac = (secret: string, r: KitRequest) =>
  createHmac('sha256', secret).update(`${r.headers['x-svc-timestamp']}.${r.rawBody}`).digest('hex');

describe('calls to the supplier are signed (Authentication point 4)', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, orderMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  it('every call of both contracts carries X-SVC-Signature v1 with the offer secret, X-SVC-Timestamp, X-SVC-Offer-Id and the fulfilment User-Agent', async () => {
    const s = await w.seller(await w.gameKey(), 1000);
    const sold = await w.place((await w.offer(s)).product_id);
    await w.pay(sold.id);
    expect((await w.order(sold.id)).status).toBe('completed');
    await w.svc.operator.post(`/orders/${sold.id}/refund`, {});
    await w.svc.drain();
    await w.svc.advance(300); // a scheduled healthcheck
    const t = await w.seller(await w.topupProduct(), 500);
    const topup = await w.place((await w.offer(t)).product_id, { formFields: { user_id: '100001' } });
    await w.pay(topup.id);
    expect((await w.order(topup.id)).status).toBe('completed');

    const routes = [...s.kit.received, ...t.kit.received].map((r) => r.route);
    for (const route of [
      'GET /healthcheck',
      'POST /reservations',
      'POST /orders',
      'GET /orders/:id/items',
      'DELETE /orders/:id/items',
      'POST /topup/validate',
      'POST /topup/execute',
    ])
      expect(routes).toContain(route);
    for (const seller of [s, t])
      for (const r of seller.kit.received) {
        // the kit checks every call but the healthcheck itself (the spec lets it skip that one)
        expect([r.route, r.signature, r.status]).toEqual([
          r.route,
          r.route === 'GET /healthcheck' ? 'skipped' : 'ok',
          200 <= r.status! && r.status! < 300 ? r.status : 'not 2xx',
        ]);
        expect(r.headers['x-svc-timestamp']).toMatch(/^[0-9]+$/);
        expect(Number(r.headers['x-svc-timestamp'])).toBe(r.at); // the service's clock, in ms
        expect(v1Entries(r)).toEqual([`v1=${hmac(seller.secret, r)}`]);
        expect(r.offerId).toBe(seller.offerId);
        expect(r.userAgent).toBe('service-fulfilment/1.0');
      }
    // one worked by hand: hex(hmac_sha256(secret, timestamp + "." + raw body))
    const ordered = calls(s.kit, 'POST /orders')[0]!;
    const expected = createHmac('sha256', s.secret)
      .update(`${ordered.headers['x-svc-timestamp']}.`)
      .update(Buffer.from(ordered.rawBody, 'utf8'))
      .digest('hex');
    expect(ordered.headers['x-svc-signature']).toBe(`v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(ordered.rawBody)).toMatchObject({ order_id: sold.items[0].id, offer_id: s.offerId });
  });

  it('a kit that does not hold the secret rejects the calls (401 invalid_signature); the service counts a failed reservation', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    s.kit.setSecrets(['svcsec_ffffffffffffffffffffffffffffffff']);
    const refused = await w.checkout(product);
    expect([refused.status, refused.body.code]).toEqual([409, 'out_of_stock']);
    expect(calls(s.kit, 'POST /reservations').map((r) => [r.status, r.signature])).toEqual([
      [401, 'signature_mismatch'],
      [401, 'signature_mismatch'],
    ]);
    expect((await w.health(s)).score).toBe(95);
    expect(Object.keys(s.kit.state.reservations)).toEqual([]);
  });

  it('after rotate-secret both secrets sign for 24 hours (a kit with only the old one still accepts); then only the new one', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    const rotated = await s.api.post(`/offers/${s.offerId}/fulfilment/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    const fresh: string = rotated.body.fulfilment.secret;
    expect(fresh).toMatch(/^svcsec_[0-9a-f]{32}$/);
    expect(fresh).not.toBe(s.secret);
    const rotatedAt = w.svc.clock.now().getTime();

    // the kit still holds only the old secret
    const during = await w.place(product);
    await w.pay(during.id);
    expect((await w.order(during.id)).status).toBe('completed');
    const signedDuring = s.kit.received.filter((r) => r.at >= rotatedAt && r.route !== 'GET /healthcheck');
    expect(signedDuring.length).toBeGreaterThanOrEqual(3);
    for (const r of signedDuring) {
      expect(r.signature).toBe('ok');
      expect(v1Entries(r)).toEqual([`v1=${hmac(fresh, r)}`, `v1=${hmac(s.secret, r)}`]);
    }
    // a kit that already switched to the new secret accepts too
    s.kit.setSecrets([fresh]);
    w.svc.clock.advance(24 * 3600 - 1);
    const late = await w.place(product);
    expect(calls(s.kit, 'POST /reservations').at(-1)!.signature).toBe('ok');
    expect(v1Entries(calls(s.kit, 'POST /reservations').at(-1)!)).toHaveLength(2);
    await w.pay(late.id);
    expect((await w.order(late.id)).status).toBe('completed');

    // 24 hours after the rotation the old secret no longer signs
    w.svc.clock.advance(1);
    s.kit.setSecrets([s.secret]);
    const refused = await w.checkout(product);
    expect(refused.status).toBe(409);
    const rejected = calls(s.kit, 'POST /reservations').slice(-2);
    expect(rejected.map((r) => [r.status, r.signature])).toEqual([
      [401, 'signature_mismatch'],
      [401, 'signature_mismatch'],
    ]);
    for (const r of rejected) expect(v1Entries(r)).toEqual([`v1=${hmac(fresh, r)}`]);
    s.kit.setSecrets([fresh]);
    const after = await w.place(product);
    await w.pay(after.id);
    expect((await w.order(after.id)).status).toBe('completed');
  });
});
