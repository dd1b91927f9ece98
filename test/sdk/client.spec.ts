import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, type MarketplaceClient, ProblemError } from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';

interface Seen {
  method: string;
  path: string;
  key: string | null;
  status: number;
  retryAfter: string | null;
}

/** The typed client against the real service over a socket; waits move the test clock. */
describe('the typed client', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let api: MarketplaceClient;
  const seen: Seen[] = [];
  const sleeps: number[] = [];

  beforeAll(async () => {
    svc = await startTestService({ limits: { reads: 5, writes: 4 } });
    supplier = await svc.newSupplier('Typed Keys');
    api = createMarketplaceClient({
      baseUrl: svc.origin,
      token: supplier.token,
      // every request still crosses HTTP; the wrapper only records what was sent and answered
      fetch: async (request) => {
        const key = request.headers.get('idempotency-key');
        const response = await fetch(request);
        seen.push({
          method: request.method,
          path: new URL(request.url).pathname,
          key,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
        });
        return response;
      },
      sleep: async (ms) => {
        sleeps.push(ms);
        svc.clock.advance(ms / 1000);
      },
    });
  });
  afterAll(() => svc.stop());
  beforeEach(async () => {
    await svc.advance(120); // fresh rate-limit windows
    seen.length = 0;
    sleeps.length = 0;
  });

  it('sells through an offer created with it: typed answers, an Idempotency-Key on every mutating call', async () => {
    const product = await svc.newProduct({ name: 'Typed Quest' });
    const { data: offer } = await api.POST('/api/v1/offers', {
      body: {
        product_id: product.id,
        stock_mode: 'uploaded',
        price: { amount: 1500, currency: 'EUR' },
        external_ref: 'TYPED-1',
      },
    });
    expect(offer!.status).toBe('draft');
    const path = { offer_id: offer!.id };
    const { data: upload } = await api.POST('/api/v1/offers/{offer_id}/inventory', {
      params: { path },
      body: { items: [{ kind: 'text', value: 'TYPED-KEY-1' }] },
    });
    expect(upload!.accepted).toBe(1);
    const { data: active } = await api.POST('/api/v1/offers/{offer_id}/activate', { params: { path } });
    expect(active!.status).toBe('active');

    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect((await svc.operator.post(`/orders/${placed.body.id}/pay`)).status).toBe(200);
    await svc.drain();
    const { data: order } = await api.GET('/api/v1/orders/{order_id}', {
      params: { path: { order_id: placed.body.id } },
    });
    expect(order!.status).toBe('completed');
    expect(order!.items.map((i) => i.offer_id)).toEqual([offer!.id]);

    const mutating = seen.filter((s) => s.method !== 'GET');
    expect(mutating.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
    for (const s of mutating)
      expect(s.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(mutating.map((s) => s.key)).size).toBe(3);
    expect(seen.filter((s) => s.method === 'GET').map((s) => s.key)).toEqual([null]);
  });

  it('raises problems as typed errors', async () => {
    const missing = await api
      .GET('/api/v1/offers/{offer_id}', { params: { path: { offer_id: 'no-such-offer' } } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ProblemError);
    const problem = missing as ProblemError;
    expect([problem.status, problem.code]).toEqual([404, 'not_found']);
    expect(problem.traceId).toMatch(/^[0-9A-Z]{26}$/);

    const invalid = await api
      .POST('/api/v1/offers', { body: { stock_mode: 'uploaded' } as never })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ProblemError);
    expect((invalid as ProblemError).code).toBe('validation_failed');
    expect((invalid as ProblemError).problem.errors?.map((e) => e.field)).toContain('body.product_id');
  });

  it('retries a 429 after its Retry-After, with the same Idempotency-Key', async () => {
    const product = await svc.newProduct({ name: 'Busy Quest' });
    const { data: offer } = await api.POST('/api/v1/offers', {
      body: {
        product_id: product.id,
        stock_mode: 'uploaded',
        price: { amount: 900, currency: 'EUR' },
        external_ref: 'TYPED-2',
      },
    });
    const path = { offer_id: offer!.id };
    for (let n = 1; n <= 4; n++)
      await api.PATCH('/api/v1/offers/{offer_id}', { params: { path }, body: { low_stock_threshold: n } });
    const { data } = await api.GET('/api/v1/offers/{offer_id}', { params: { path } });
    expect(data!.low_stock_threshold).toBe(4);

    const refused = seen.filter((s) => s.status === 429);
    expect(refused).toHaveLength(1);
    const retried = seen[seen.indexOf(refused[0]!) + 1]!;
    expect([refused[0]!.method, retried.method, retried.status]).toEqual(['PATCH', 'PATCH', 200]);
    expect(retried.key).toBe(refused[0]!.key);
    expect(sleeps).toEqual([Number(refused[0]!.retryAfter) * 1000]);
    expect(sleeps[0]).toBeGreaterThan(0);
  });

  it('raises the 429 when Retry-After is longer than it may wait', async () => {
    const impatient = createMarketplaceClient({ baseUrl: svc.origin, token: supplier.token, maxRetryDelayMs: 0 });
    const answers: unknown[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        await impatient.GET('/api/v1/whoami').then(
          (r) => r.data!.supplier.id,
          (e: unknown) => e,
        ),
      );
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(supplier.id));
    const error = answers[5] as ProblemError;
    expect(error).toBeInstanceOf(ProblemError);
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    expect(error.retryAfter).toBeGreaterThan(0);
  });
});
