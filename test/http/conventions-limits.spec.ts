import fc from 'fast-check';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { specLimits } from '../../src/http/limits.js';
import { RateLimiter, secondsUntilFree } from '../../src/http/rate-limiter.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { type Answer, client, request } from '../support/http.js';

/** Runs `n` calls, `width` at a time, and keeps their answers in call order. */
const many = async <T>(n: number, call: (i: number) => Promise<T>, width = 16): Promise<T[]> => {
  const out = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await call(i);
      }
    }),
  );
  return out;
};

const header = (res: Answer, name: string) => Number(res.headers.get(name));

const refusedBy = (res: Answer, limit: number) => {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(res.body.code).toBe('rate_limited');
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
};

describe('rate limits over HTTP, at the spec numbers', () => {
  let svc: TestService;
  const nowSeconds = () => svc.clock.now().getTime() / 1000;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('reads: 600 per token; the per-supplier cap of 1200 counts across all tokens; another supplier is not affected', async () => {
    svc.clock.advance(300); // earlier windows weigh nothing
    const { id, api: a } = await svc.newSupplier('Busy');
    const b = client(svc.baseUrl, (await svc.operator.post(`/suppliers/${id}/tokens`)).body.token);
    const c = client(svc.baseUrl, (await svc.operator.post(`/suppliers/${id}/tokens`)).body.token);

    const reads = await many(600, () => a.get('/whoami'));
    expect(reads.every((r) => r.status === 200 && r.headers.get('x-ratelimit-limit') === '600')).toBe(true);
    // every answer counted once: the remaining counts are 599 down to 0, each seen once
    expect(reads.map((r) => header(r, 'x-ratelimit-remaining')).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 600 }, (_, i) => i),
    );
    refusedBy(await a.get('/whoami'), 600);
    refusedBy(await a.get('/products'), 600); // every GET is a read

    // the token's writes are another class: 422 for the empty body, but not refused
    const write = await a.post('/offers', {});
    expect(write.status).toBe(422);
    expect(write.headers.get('x-ratelimit-limit')).toBe('120');

    // supplier total is 601 (refusals do not count); token b brings it to 1200
    expect((await many(599, () => b.get('/whoami'))).every((r) => r.status === 200)).toBe(true);
    refusedBy(await b.get('/whoami'), 1200);
    // a fresh token of the same supplier is refused at once, for reads and writes alike
    const capped = await c.get('/whoami');
    refusedBy(capped, 1200);
    refusedBy(await c.post('/offers', {}), 1200);
    // another supplier is not affected
    expect((await (await svc.newSupplier('Quiet')).api.get('/whoami')).status).toBe(200);

    // the window rolls with the clock: after Retry-After the fresh token passes
    svc.clock.advance(header(capped, 'retry-after'));
    expect((await c.get('/whoami')).status).toBe(200);
  });

  it('writes: 120 per token, counted whatever the answer; Retry-After and X-RateLimit-Reset say when the next one passes', async () => {
    svc.clock.advance(300 + 60 - (nowSeconds() % 60)); // at a window boundary, nothing before it
    const { api } = await svc.newSupplier('Writer');
    const product = await svc.newProduct();
    const offer = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 500, currency: 'EUR' },
      external_ref: 'W-1',
    });
    expect(offer.status).toBe(201); // write 1
    svc.clock.advance(20.5); // into the window, off a whole second
    // 59 real changes and 60 refused bodies: 120 writes in all
    const changes = await many(59, (i) => api.patch(`/offers/${offer.body.id}`, { low_stock_threshold: i + 1 }), 1);
    expect(changes.every((r) => r.status === 200)).toBe(true);
    const invalid = await many(60, () => api.post('/offers', { product_id: product.id }));
    expect(invalid.every((r) => r.status === 422)).toBe(true);
    const refused = await api.delete(`/offers/${offer.body.id}/inventory/none`); // a DELETE is a write too
    refusedBy(refused, 120);

    const retryAfter = header(refused, 'retry-after');
    const reset = header(refused, 'x-ratelimit-reset');
    expect(reset).toBe(Math.ceil(nowSeconds() + retryAfter));
    // one second short of Retry-After it is still refused (and that refusal does not count)
    svc.clock.advance(retryAfter - 1);
    refusedBy(await api.patch(`/offers/${offer.body.id}`, { low_stock_threshold: 1 }), 120);
    // at X-RateLimit-Reset it passes
    svc.clock.advance(reset - nowSeconds());
    const again = await api.patch(`/offers/${offer.body.id}`, { low_stock_threshold: 1 });
    expect(again.status).toBe(200);
    expect(header(again, 'x-ratelimit-reset')).toBeGreaterThan(nowSeconds());
    expect(header(again, 'x-ratelimit-reset')).toBeLessThanOrEqual(nowSeconds() + 60);
    // two minutes later nothing of it is left
    svc.clock.advance(120);
    expect(header(await api.post('/offers', {}), 'x-ratelimit-remaining')).toBe(119);
  });

  it('sync (300), bulk (12), test (6) and simulate (120) each count on their own routes', async () => {
    svc.clock.advance(300);
    const { api } = await svc.newSupplier('Classes');
    const product = await svc.newProduct();

    // sync: price and stock updates share one class
    const sync = await many(300, (i) =>
      i % 2 === 0
        ? api.put('/offers/none/price', { price: { amount: 100, currency: 'EUR' } })
        : api.put('/offers/none/stock', { declared_stock: 1 }),
    );
    expect(sync.every((r) => r.status === 404 && r.headers.get('x-ratelimit-limit') === '300')).toBe(true);
    refusedBy(await api.put('/offers/none/stock', { declared_stock: 1 }), 300);

    // bulk: inventory uploads
    const bulk = await many(12, () => api.post('/offers/none/inventory', { items: [{ kind: 'text', value: 'KEY' }] }));
    expect(bulk.every((r) => r.status !== 429 && r.headers.get('x-ratelimit-limit') === '12')).toBe(true);
    refusedBy(await api.post('/offers/none/inventory', { items: [] }), 12);

    // test: fulfilment check, sandbox orders and webhook test-fire share one class
    const calls = [
      () => api.post('/offers/none/fulfilment/check'),
      () => api.post('/sandbox/orders', { offer_id: 'none', quantity: 1, buyer_country: 'DE' }),
      () => api.post('/webhooks/none/test', { event: 'order.paid' }),
    ];
    const tests = await many(6, (i) => calls[i % 3]!());
    expect(tests.every((r) => r.status === 404 && r.headers.get('x-ratelimit-limit') === '6')).toBe(true);
    for (const call of calls) refusedBy(await call(), 6);

    // simulate: the pricing simulation
    const simulate = () =>
      api.post('/pricing/simulate', { product_id: product.id, price: { amount: 100, currency: 'EUR' } });
    const sims = await many(120, simulate);
    expect(sims.every((r) => r.status === 200 && r.headers.get('x-ratelimit-limit') === '120')).toBe(true);
    refusedBy(await simulate(), 120);

    // every class of the token is spent but its reads and writes are untouched
    const read = await api.get('/whoami');
    expect(read.status).toBe(200);
    expect(header(read, 'x-ratelimit-remaining')).toBe(599);
    expect(header(await api.post('/offers', {}), 'x-ratelimit-remaining')).toBe(119);
  });

  it('unauthenticated: 30 per IP per minute, with the headers on every answer (401, 404, bad URL); another IP and a token are not affected', async () => {
    svc.clock.advance(300);
    const token = (await svc.newSupplier('Neighbour')).token;
    const anonymous = [
      () => request(svc.baseUrl, 'GET', '/whoami'),
      () => request(svc.baseUrl, 'GET', '/whoami', { token: 'svc_test_unknown' }),
      () => request(svc.baseUrl, 'GET', '/no-such-route'),
      () => request(svc.baseUrl, 'GET', '/products/%E0%A4%A'),
      () => request(svc.baseUrl, 'GET', '/errors'),
    ];
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) answers.push(await anonymous[i % anonymous.length]!());
    expect(answers.map((r) => r.status).slice(0, 5)).toEqual([401, 401, 404, 400, 200]);
    for (const [i, r] of answers.entries()) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('30');
      expect(header(r, 'x-ratelimit-remaining')).toBe(29 - i);
      expect(header(r, 'x-ratelimit-reset')).toBeGreaterThan(nowSeconds());
    }
    for (const call of anonymous) refusedBy(await call(), 30);

    // another address has its own count
    const agent = new Agent({ localAddress: '127.0.0.2' });
    try {
      const other = await undiciRequest(`${svc.baseUrl}/whoami`, { dispatcher: agent });
      await other.body.text();
      expect(other.statusCode).toBe(401);
      expect(other.headers['x-ratelimit-remaining']).toBe('29');
    } finally {
      await agent.close();
    }
    // a caller with a valid token is counted per token, not per address
    expect((await request(svc.baseUrl, 'GET', '/whoami', { token })).status).toBe(200);
    // health probes are outside the limits
    expect((await request(svc.origin, 'GET', '/healthz')).status).toBe(200);
  });

  it('answered nothing with a 5xx and logged no error', () => {
    expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
});

describe('the limiter itself (every class, shared through Postgres)', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 4);
  });
  afterAll(() => db.close());

  it('counts each bucket, refuses past the limit without counting the refusal, and weighs the previous window', async () => {
    const t0 = new Date('2026-03-01T00:00:00.000Z'); // a window boundary
    const clock = new TestClock(new Date(t0.getTime() + 90_000)); // when the flushes below run
    const limiter = new RateLimiter(db.kysely, clock);
    for (const cls of ['reads', 'writes', 'bulk', 'test', 'sync', 'simulate'] as const) {
      const limit = specLimits[cls];
      const bucket = [{ name: `token:t:${cls}`, limit }];
      for (let i = 0; i < limit; i++) expect((await limiter.hit(bucket, t0)).remaining).toBe(limit - 1 - i);
      const refused = await limiter.hit(bucket, t0);
      expect(refused).toMatchObject({ allowed: false, limit, remaining: 0 });
      expect(refused.retryAfter).toBe(61);
      // half-way into the next window the previous one counts half
      const half = await limiter.hit(bucket, new Date(t0.getTime() + 90_000));
      expect(half).toMatchObject({ allowed: true, remaining: limit - Math.floor(limit / 2) - 1 });
    }
    // another instance shares the budget, with no flush: 3 of the previous window's 6 still
    // weigh, A's hit makes 4, B's two make 6
    const instanceB = new RateLimiter(db.kysely, clock);
    const test = [{ name: 'token:t:test', limit: 6 }];
    expect(await instanceB.hit(test, clock.now())).toMatchObject({ allowed: true, remaining: 1 });
    expect(await instanceB.hit(test, clock.now())).toMatchObject({ allowed: true, remaining: 0 });
    expect(await instanceB.hit(test, clock.now())).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('a request refused by one bucket is counted in none', async () => {
    const t = new Date('2026-03-02T00:00:00.000Z');
    const limiter = new RateLimiter(db.kysely, new TestClock(t));
    const token = { name: 'token:x:test', limit: 2 };
    const supplier = { name: 'supplier:x', limit: 1200 };
    await limiter.hit([token, supplier], t);
    await limiter.hit([token, supplier], t);
    for (let i = 0; i < 5; i++) expect((await limiter.hit([token, supplier], t)).allowed).toBe(false);
    // the supplier bucket saw two requests, not seven
    expect((await limiter.hit([supplier], t)).remaining).toBe(1200 - 3);
  });

  it('secondsUntilFree follows the sliding window', () => {
    expect(secondsUntilFree(10, 10, 0, 0)).toBe(61); // into the next window, where the full one still weighs ~1 second
    // floor(10 * (1 - t/60)) must reach 0: t strictly past 54 s, 25 whole seconds after t = 30
    expect(secondsUntilFree(10, 9, 10, 30)).toBe(25);
    // floor(30 * (1 - t/60)) <= 29 - 20 = 9: t strictly past 40 s, more than 29.5 s after t = 10.5
    expect(secondsUntilFree(30, 20, 30, 10.5)).toBe(30);
    // this window already holds 20 of 10 (racing requests): its end, then until 20 * (1 - t/60) < 10
    expect(secondsUntilFree(10, 20, 0, 15)).toBe(45 + 30 + 1);
    expect(secondsUntilFree(10, 5, 0, 10)).toBe(1);
    // exactly at 48 s, 5 * (60 - 48) / 60 is 1, not a hair under it: still refused then
    expect(secondsUntilFree(5, 4, 5, 46)).toBe(3);
  });

  it('Retry-After is exact: a second earlier is still refused, at Retry-After (and at the reset) the request passes', async () => {
    const base = Date.parse('2026-04-01T00:00:00.000Z');
    const limiter = new RateLimiter(db.kysely, new TestClock(new Date(base)));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 59_999 }),
        fc.integer({ min: 0, max: 59_999 }),
        async (limit, previous, previousAt, elapsed) => {
          const bucket = [{ name: `prop:${run++}`, limit }];
          for (let i = 0; i < Math.min(previous, limit); i++) await limiter.hit(bucket, new Date(base + previousAt));
          const at = base + 60_000 + elapsed;
          let refused = await limiter.hit(bucket, new Date(at));
          for (let i = 0; refused.allowed; i++) {
            expect(i).toBeLessThan(limit);
            refused = await limiter.hit(bucket, new Date(at));
          }
          const wait = refused.retryAfter;
          expect(wait).toBeGreaterThanOrEqual(1);
          if (wait > 1) expect((await limiter.hit(bucket, new Date(at + (wait - 1) * 1000))).allowed).toBe(false);
          expect(refused.reset).toBe(Math.ceil(at / 1000 + wait));
          expect((await limiter.hit(bucket, new Date(at + wait * 1000))).allowed).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
