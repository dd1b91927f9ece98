import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeclared, type Fulfilment, startFulfilment } from '../offers/fixtures.js';
import { buy, checkout, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import type { Timers } from '../../src/processes/timers.js';

/** Parses the Prometheus text format into samples: name, labels, value. */
const parse = (text: string) =>
  text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    });

describe('GET /metrics', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let fulfilment: Fulfilment;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const scrape = async () => {
    const res = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(res.status, res.text).toBe(200);
    const samples = parse(res.text);
    /** The value of the one sample with exactly these labels (0 when absent, as Prometheus reads a missing counter). */
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (s) =>
          s.name === name &&
          JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(Object.entries(labels).sort()),
      )?.value ?? 0;
    return { samples, value, text: res.text };
  };

  beforeAll(async () => {
    svc = await startTestService({
      trustedCa: tls.cert,
      limits: { unauthenticated: 4, reads: 1000, writes: 1000, test: 1000 },
      supplierTimeouts: { webhookMs: 2000 },
    });
    fulfilment = await startFulfilment();
    receiver = await startReceiver({ tls });
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
    await receiver.close();
  });

  it('answers the operator only, in the Prometheus text format', async () => {
    const supplier = await svc.newSupplier();
    const anonymous = await request(svc.origin, 'GET', '/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(anonymous.body.code).toBe('unauthorized');
    expect((await request(svc.origin, 'GET', '/metrics', { token: supplier.token })).status).toBe(401);
    const res = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toContain('# TYPE svc_http_requests_total counter');
    expect(res.text).toContain('# TYPE svc_http_request_duration_seconds histogram');
  });

  it('counts and times HTTP answers by route template and status', async () => {
    const supplier = await svc.newSupplier();
    for (let i = 0; i < 3; i++) expect((await supplier.api.get('/whoami')).status).toBe(200);
    expect((await supplier.api.get('/offers/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await supplier.api.get('/offers/01ARZ3NDEKTSV4RRFFQ69G5FAW')).status).toBe(404);
    const m = await scrape();
    expect(m.value('svc_http_requests_total', { method: 'GET', route: '/api/v1/whoami', status: '200' })).toBe(3);
    expect(
      m.value('svc_http_requests_total', { method: 'GET', route: '/api/v1/offers/:offer_id', status: '404' }),
    ).toBe(2);
    expect(
      m.value('svc_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/whoami', status: '200' }),
    ).toBe(3);
    expect(
      m.value('svc_http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/api/v1/whoami',
        status: '200',
        le: '+Inf',
      }),
    ).toBe(3);
    // the operator's earlier scrapes count too, under their route
    expect(m.value('svc_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    expect(m.value('svc_http_requests_total', { method: 'GET', route: '/metrics', status: '401' })).toBe(2);
  });

  it('counts rate-limited requests by route and class', async () => {
    await svc.advance(120); // a fresh window for the per-IP bucket
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(svc.origin, 'GET', '/api/v1/errors')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const m = await scrape();
    expect(m.value('svc_http_rate_limited_total', { route: '/api/v1/errors', class: 'anonymous' })).toBe(2);
    expect(m.value('svc_http_requests_total', { method: 'GET', route: '/api/v1/errors', status: '429' })).toBe(2);
  });

  it('times event store appends by result', async () => {
    const before = await scrape();
    const ok = before.value('svc_eventstore_append_duration_seconds_count', { result: 'ok' });
    const conflicts = before.value('svc_eventstore_append_duration_seconds_count', { result: 'conflict' });
    const store = svc.services.store;
    await store.append('metrics-probe-1', [{ type: 'Probed', data: {} }], 'no_stream', svc.clock.now());
    await store.append('metrics-probe-1', [{ type: 'Probed', data: {} }], 0, svc.clock.now());
    await expect(
      store.append('metrics-probe-1', [{ type: 'Probed', data: {} }], 'no_stream', svc.clock.now()),
    ).rejects.toThrow(/expected revision/);
    const after = await scrape();
    expect(after.value('svc_eventstore_append_duration_seconds_count', { result: 'ok' })).toBe(ok + 2);
    expect(after.value('svc_eventstore_append_duration_seconds_count', { result: 'conflict' })).toBe(conflicts + 1);
  });

  it('counts webhook attempts by outcome, with their duration', async () => {
    const supplier = await svc.newSupplier('Hooked');
    const hook = (await supplier.api.post('/webhooks', { url: receiver.url, events: ['*'] })).body;
    receiver.answer(200);
    expect((await supplier.api.post(`/webhooks/${hook.id}/test`, {})).body.succeeded).toBe(true);
    receiver.answer(503);
    expect((await supplier.api.post(`/webhooks/${hook.id}/test`, {})).body.succeeded).toBe(false);
    expect((await supplier.api.post(`/webhooks/${hook.id}/test`, {})).body.succeeded).toBe(false);
    receiver.answer(200);
    const m = await scrape();
    expect(m.value('svc_webhook_attempts_total', { outcome: 'ok' })).toBe(1);
    expect(m.value('svc_webhook_attempts_total', { outcome: 'http_5xx' })).toBe(2);
    expect(m.value('svc_webhook_attempt_duration_seconds_count', { outcome: 'http_5xx' })).toBe(2);
  });

  it('counts supplier calls by kind and outcome, and orders by state', async () => {
    const supplier = await svc.newSupplier('Declared');
    const product = await svc.newProduct({ name: 'Metrics Quest' });
    const offer = await createDeclared(supplier.api, product.id, fulfilment.url, { declared_stock: 5 });
    expect((await supplier.api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    fulfilment.answer(503);
    const failing = await createDeclared(
      supplier.api,
      (await svc.newProduct({ name: 'Other Quest' })).id,
      fulfilment.url,
      { declared_stock: 5 },
    );
    expect((await supplier.api.post(`/offers/${failing.id}/activate`)).status).toBe(422);
    fulfilment.answer(200);
    await checkout(svc, [{ product_id: product.id, quantity: 1 }]);

    const seller = await svc.newSupplier('Uploads');
    const keyed = await svc.newProduct({ name: 'Key Quest' });
    await uploadedOffer(seller, keyed.id, { price: 1000, values: ['K-1', 'K-2'] });
    await buy(svc, [{ product_id: keyed.id, quantity: 1 }]);
    await svc.drain();

    const m = await scrape();
    expect(m.value('svc_supplier_calls_total', { kind: 'healthcheck', outcome: 'ok' })).toBe(1);
    expect(m.value('svc_supplier_calls_total', { kind: 'healthcheck', outcome: 'http_5xx' })).toBe(1);
    expect(m.value('svc_supplier_calls_total', { kind: 'reservation', outcome: 'ok' })).toBe(1);
    expect(m.value('svc_supplier_call_duration_seconds_count', { kind: 'healthcheck', outcome: 'ok' })).toBe(1);
    expect(m.value('svc_orders', { state: 'placed' })).toBe(1);
    expect(m.value('svc_orders', { state: 'completed' })).toBe(1);
    expect(m.value('svc_orders', { state: 'expired' })).toBe(0);
  });

  it('shows due and running timers by kind', async () => {
    const now = svc.clock.now();
    const { db } = svc.services;
    // a kind of the test's own, which no handler runs
    const timers = svc.services.timers as unknown as Timers<Record<string, object>>;
    await timers.schedule('metrics.probe', 'due-1', now, {});
    await timers.schedule('metrics.probe', 'due-2', new Date(now.getTime() - 1000), {});
    await timers.schedule('metrics.probe', 'later', new Date(now.getTime() + 3_600_000), {});
    await timers.schedule('metrics.probe', 'held', now, {});
    await db
      .updateTable('timers')
      .set({ claimed_by: 'elsewhere', claimed_until: new Date(now.getTime() + 60_000) })
      .where('key', '=', 'held')
      .execute();
    const m = await scrape();
    expect(m.value('svc_timers_due', { kind: 'metrics.probe' })).toBe(2);
    expect(m.value('svc_timers_running', { kind: 'metrics.probe' })).toBe(1);
    await db.deleteFrom('timers').where('kind', '=', 'metrics.probe').execute();
    expect((await scrape()).value('svc_timers_due', { kind: 'metrics.probe' })).toBe(0);
  });

  // last: it stops the projections
  it('shows each projector lagging by the events it has not applied', async () => {
    await svc.drain();
    const names = svc.services.projections.projectors.map((p) => p.name);
    const settled = await scrape();
    for (const name of names) expect(settled.value('svc_projection_lag_events', { projector: name }), name).toBe(0);
    await svc.services.projections.stop();
    await svc.services.store.append(
      'metrics-probe-2',
      [
        { type: 'Probed', data: {} },
        { type: 'Probed', data: {} },
      ],
      'no_stream',
      svc.clock.now(),
    );
    // the appended events become readable once no older transaction of the shared server is
    // running (the store's visibility horizon), so wait for that instead of assuming it
    for (const name of names)
      await expect
        .poll(async () => (await scrape()).value('svc_projection_lag_events', { projector: name }), {
          message: name,
          timeout: 5000,
        })
        .toBe(2);
  });
});
