import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { RateLimiter, secondsUntilFree } from '../../src/http/rate-limiter.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client, request } from '../support/http.js';

describe('rate limits over HTTP', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('writes: 120 per token per rolling minute, then 429 rate_limited with Retry-After; the window rolls with the clock', async () => {
    const { id, api } = await svc.newSupplier();
    svc.clock.advance(60 - (svc.clock.now().getTime() / 1000) % 60); // start at a window boundary
    const product = await svc.newProduct();
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await api.post('/pricing/simulate', { product_id: product.id, price: { amount: 100, currency: 'EUR' } });
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    // simulate has its own class (120/min); a 121st is refused
    const refused = await api.post('/pricing/simulate', { product_id: product.id, price: { amount: 100, currency: 'EUR' } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(remaining[0]).toBe(119);
    expect(remaining[119]).toBe(0);
    // another class of the same token is not affected
    expect((await api.get('/whoami')).status).toBe(200);
    expect((await api.get('/whoami')).headers.get('x-ratelimit-limit')).toBe('600');
    // a minute later the previous window still weighs in; two minutes later all is free
    svc.clock.advance(Number(refused.headers.get('retry-after')));
    expect((await api.post('/pricing/simulate', { product_id: product.id, price: { amount: 100, currency: 'EUR' } })).status).toBe(200);
    svc.clock.advance(120);
    const fresh = await api.post('/pricing/simulate', { product_id: product.id, price: { amount: 100, currency: 'EUR' } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(id).toBeTruthy();
  });

  it('unauthenticated callers: 30 per IP per minute, headers on every answer, 401 included', async () => {
    svc.clock.advance(300);
    for (let i = 0; i < 30; i++) {
      const res = await request(svc.baseUrl, 'GET', '/whoami');
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
    const refused = await request(svc.baseUrl, 'GET', '/whoami');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // the errors page is public and limited per IP too
    expect((await request(svc.baseUrl, 'GET', '/errors')).status).toBe(429);
    // health probes are not limited
    expect((await request(svc.origin, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('rate limits with raised numbers (as the spec allows on request)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ limits: { per_supplier: 5, reads: 100 } });
  });
  afterAll(() => svc.stop());

  it('the per-supplier cap counts across all of a supplier\'s tokens', async () => {
    const { id, api } = await svc.newSupplier();
    const second = client(svc.baseUrl, (await svc.operator.post(`/suppliers/${id}/tokens`)).body.token);
    for (let i = 0; i < 3; i++) expect((await api.get('/whoami')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await second.get('/whoami')).status).toBe(200);
    const refused = await second.get('/whoami');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
    // another supplier is not affected
    expect((await (await svc.newSupplier('Other')).api.get('/whoami')).status).toBe(200);
  });
});

describe('the limiter itself (every class, shared in Postgres)', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 4);
  });
  afterAll(() => db.close());

  it('counts each bucket, refuses past the limit without counting the refusal, and weighs the previous window', async () => {
    const limiter = new RateLimiter(db.kysely);
    const t0 = new Date('2026-03-01T00:00:00.000Z'); // a window boundary
    for (const [cls, limit] of [['bulk', 12], ['test', 6], ['sync', 300], ['simulate', 120]] as const) {
      const bucket = [{ name: `token:t:${cls}`, limit }];
      for (let i = 0; i < limit; i++) expect((await limiter.hit(bucket, t0)).allowed).toBe(true);
      const refused = await limiter.hit(bucket, t0);
      expect(refused).toMatchObject({ allowed: false, limit, remaining: 0 });
      expect(refused.retryAfter).toBe(61);
      // half-way into the next window the previous one counts half
      const half = await limiter.hit(bucket, new Date(t0.getTime() + 90_000));
      expect(half).toMatchObject({ allowed: true, remaining: limit - Math.floor(limit / 2) - 1 });
    }
    const instanceB = new RateLimiter(db.kysely); // another instance shares the counts
    expect((await instanceB.hit([{ name: 'token:t:test', limit: 6 }], new Date(t0.getTime() + 90_000))).remaining).toBe(1);
  });

  it('secondsUntilFree follows the sliding window', () => {
    expect(secondsUntilFree(10, 10, 0, 0)).toBe(61); // into the next window, where the full one still weighs ~1 second
    // floor(10 * (1 - t/60)) must reach 0: t strictly past 54 s, 25 whole seconds after t = 30
    expect(secondsUntilFree(10, 9, 10, 30)).toBe(25);
    expect(secondsUntilFree(10, 5, 0, 10)).toBe(1);
  });
});
