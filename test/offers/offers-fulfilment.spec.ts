import { timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../src/http/idempotency.js';
import { withDb } from '../orders/fixtures.js';
import { specTimeouts } from '../../src/outbound/supplier-timeouts.js';
import { startTestService, type TestService } from '../support/harness.js';
import {
  createDeclared,
  createUploaded,
  type Fulfilment,
  type SeenRequest,
  startFulfilment,
  streamEvents,
  v1,
} from './fixtures.js';

/**
 * Lowered so a hanging supplier costs 2 s, not 5 s; no lower: a fulfilment server that
 * answers at once must still be heard in time on a busy machine.
 */
const HEALTHCHECK_MS = 2000;
const TEST_CLASS_LIMIT = 50;
const DAY_S = 24 * 60 * 60;

/** What a supplier does on receipt: which of its secrets sign this request (each v1 entry checked on its own). */
const verifiedBy = (request: SeenRequest, secrets: Record<string, string>) => {
  const ts = String(request.headers['x-svc-timestamp']);
  const entries = String(request.headers['x-svc-signature'])
    .split(',')
    .map((pair) => pair.split('='))
    .filter(([scheme]) => scheme === 'v1')
    .map(([, value]) => Buffer.from(value ?? '', 'hex'));
  return Object.entries(secrets)
    .filter(([, secret]) => {
      const expected = Buffer.from(v1(secret, ts, request.raw), 'hex');
      return entries.some((e) => e.length === expected.length && timingSafeEqual(e, expected));
    })
    .map(([name]) => name);
};

describe('fulfilment check and secret rotation', () => {
  let svc: TestService;
  let fulfilment: Fulfilment;
  beforeAll(async () => {
    svc = await startTestService({
      supplierTimeouts: { healthcheckMs: HEALTHCHECK_MS },
      limits: { test: TEST_CLASS_LIMIT },
    });
    fulfilment = await startFulfilment();
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  it('check runs the probe under the test rate-limit class and records last_healthcheck_at and last_healthcheck_ok', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    fulfilment.answer(200);
    const ok = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe(String(TEST_CLASS_LIMIT));
    expect(ok.body).toEqual({
      status: 'ok',
      http_status: 200,
      latency_ms: expect.any(Number),
      checked_at: svc.clock.now().toISOString(),
    });
    expect(ok.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect((await api.get(`/offers/${offer.id}`)).body.fulfilment).toEqual({
      base_url: fulfilment.url,
      secret_set: true,
      last_healthcheck_at: ok.body.checked_at,
      last_healthcheck_ok: true,
    });

    await svc.advance(60);
    fulfilment.answer(500);
    const failed = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({
      status: 'failed',
      http_status: 500,
      latency_ms: expect.any(Number),
      checked_at: svc.clock.now().toISOString(),
    });
    expect((await api.get(`/offers/${offer.id}`)).body.fulfilment).toMatchObject({
      last_healthcheck_at: failed.body.checked_at,
      last_healthcheck_ok: false,
    });
    const checks = (await streamEvents(svc, `offer-${offer.id}`))
      .filter((e) => e.type === 'FulfilmentChecked')
      .map((e) => [e.data.probe.ok, e.data.probe.httpStatus]);
    expect(checks).toEqual([
      [true, 200],
      [false, 500],
    ]);
    // a check is not an activation
    expect((await api.get(`/offers/${offer.id}`)).body.status).toBe('draft');
  });

  it('a check that gets no answer reports status failed, http_status 0 and why, within the timeout', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    fulfilment.answer('hang');
    const hung = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(hung.body).toEqual({
      status: 'failed',
      http_status: 0,
      latency_ms: expect.any(Number),
      checked_at: expect.any(String),
      error: `no answer within ${HEALTHCHECK_MS} ms`,
    });
    // the lowered timeout ended the wait, not the spec's 5 s (the service's own measure: the
    // whole request's time on a busy machine says little)
    expect(hung.body.latency_ms).toBeGreaterThanOrEqual(HEALTHCHECK_MS - 5);
    expect(hung.body.latency_ms).toBeLessThan(specTimeouts.healthcheckMs);
    fulfilment.answer('drop');
    const dropped = await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(dropped.body).toMatchObject({ status: 'failed', http_status: 0, error: 'connection failed' });
    fulfilment.answer(200);
  });

  it('any 200 passes, whatever its body says', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    fulfilment.answer('not-ok-body');
    expect((await api.post(`/offers/${offer.id}/fulfilment/check`)).body).toMatchObject({
      status: 'ok',
      http_status: 200,
    });
    fulfilment.answer(200);
  });

  it('check and rotate-secret on an uploaded offer are 409 stock_mode_mismatch', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id);
    for (const path of ['check', 'rotate-secret']) {
      const res = await api.post(`/offers/${offer.id}/fulfilment/${path}`);
      expect([path, res.status, res.body.code]).toEqual([path, 409, 'stock_mode_mismatch']);
    }
    expect((await streamEvents(svc, `offer-${offer.id}`)).map((e) => e.type)).toEqual(['OfferCreated']);
  });

  it('a check retried with the same Idempotency-Key answers the first result and probes once', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    const before = fulfilment.healthchecks().length;
    const headers = { 'idempotency-key': 'check-1' };
    const first = await api.post(`/offers/${offer.id}/fulfilment/check`, undefined, { headers });
    const retry = await api.post(`/offers/${offer.id}/fulfilment/check`, undefined, { headers });
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(fulfilment.healthchecks()).toHaveLength(before + 1);
  });

  it('rotate-secret run again after its answer was lost (its key taken over): the secret the first run made, one rotation', async () => {
    const supplier = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(supplier.api, product.id, fulfilment.url, { declared_stock: 5 });
    const withKey = { headers: { 'idempotency-key': 'rotate-fulfilment-died' } };
    const first = await supplier.api.post(`/offers/${offer.id}/fulfilment/rotate-secret`, undefined, withKey);
    expect(first.status, first.text).toBe(200);
    // what a SIGKILL between the rotation and its stored answer leaves: in flight, lease running
    await withDb(svc, (db) =>
      db.query(
        `update idempotency_keys set state = 'in_flight', owner = 'died', lease_until = $3,
           response_status = null, response_headers = null, response_body = null
         where scope = $1 and key = $2`,
        [`supplier:${supplier.id}`, 'rotate-fulfilment-died', new Date(svc.clock.now().getTime() + LEASE_MS)],
      ),
    );
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post(`/offers/${offer.id}/fulfilment/rotate-secret`, undefined, withKey);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.fulfilment.secret).toBe(first.body.fulfilment.secret);
    const rotations = (await streamEvents(svc, `offer-${offer.id}`)).filter(
      (e: { type: string }) => e.type === 'FulfilmentSecretRotated',
    );
    expect(rotations).toHaveLength(1);
  });

  it('rotate-secret shows a new secret once; for 24 hours every call is signed with the new and the old secret, then with the new one only', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url, { declared_stock: 5 });
    const old: string = offer.fulfilment.secret;

    const rotated = await api.post(`/offers/${offer.id}/fulfilment/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.fulfilment.secret;
    expect(fresh).toMatch(/^svcsec_[0-9a-f]{32}$/);
    expect(fresh).not.toBe(old);
    expect(rotated.body.fulfilment).toEqual({
      base_url: fulfilment.url,
      secret: fresh,
      secret_set: true,
      last_healthcheck_at: null,
      last_healthcheck_ok: null,
    });
    const read = await api.get(`/offers/${offer.id}`);
    expect(read.body.fulfilment).toEqual({
      base_url: fulfilment.url,
      secret_set: true,
      last_healthcheck_at: null,
      last_healthcheck_ok: null,
    });
    const stored = JSON.stringify(await streamEvents(svc, `offer-${offer.id}`)) + JSON.stringify(svc.logs);
    expect(stored).not.toContain(fresh);
    expect(stored).not.toContain(old);

    const secrets = { old, fresh };
    fulfilment.answer(200);
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    const duringOverlap = fulfilment.healthchecks().at(-1)!;
    expect(String(duringOverlap.headers['x-svc-signature'])).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifiedBy(duringOverlap, secrets)).toEqual(['old', 'fresh']);

    // the activation probe and the calls of a sale too, body included
    expect((await api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    expect(verifiedBy(fulfilment.healthchecks().at(-1)!, secrets)).toEqual(['old', 'fresh']);
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(placed.status).toBe(201);
    const reservation = fulfilment.seen.filter((r) => r.path === '/reservations').at(-1)!;
    expect(reservation.raw.length).toBeGreaterThan(0);
    expect(verifiedBy(reservation, secrets)).toEqual(['old', 'fresh']);
    const probes = fulfilment.healthchecks().length;
    await svc.advance(5 * 60); // the scheduled healthcheck
    expect(fulfilment.healthchecks()).toHaveLength(probes + 1);
    expect(verifiedBy(fulfilment.healthchecks().at(-1)!, secrets)).toEqual(['old', 'fresh']);

    svc.clock.advance((Date.parse(rotated.body.updated_at) + DAY_S * 1000 - 1000 - svc.clock.now().getTime()) / 1000);
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(verifiedBy(fulfilment.healthchecks().at(-1)!, secrets)).toEqual(['old', 'fresh']);
    svc.clock.advance(1);
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    const after = fulfilment.healthchecks().at(-1)!;
    expect(String(after.headers['x-svc-signature'])).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifiedBy(after, secrets)).toEqual(['fresh']);
  });

  it('a second rotation keeps only the secret it replaces beside the new one', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url);
    const first: string = offer.fulfilment.secret;
    const second: string = (await api.post(`/offers/${offer.id}/fulfilment/rotate-secret`)).body.fulfilment.secret;
    svc.clock.advance(3600);
    const third: string = (await api.post(`/offers/${offer.id}/fulfilment/rotate-secret`)).body.fulfilment.secret;
    await api.post(`/offers/${offer.id}/fulfilment/check`);
    expect(verifiedBy(fulfilment.healthchecks().at(-1)!, { first, second, third })).toEqual(['second', 'third']);
  });
});
