import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { type Answer, client, request } from '../support/http.js';

/** Runs the calls, `width` at a time, and keeps their answers in call order. */
const burst = async (calls: (() => Promise<Answer>)[], width: number): Promise<Answer[]> => {
  const out = new Array<Answer>(calls.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < calls.length) {
        const i = next++;
        out[i] = await calls[i]!();
      }
    }),
  );
  return out;
};

const admitted = (answers: Answer[]) => answers.filter((r) => r.status !== 429).length;

/** Every refusal says the limit that was spent and when a request passes again. */
const refusedAt = (answers: Answer[], limit: number) =>
  answers
    .filter((r) => r.status === 429)
    .map((r) => [
      r.body.code,
      r.headers.get('x-ratelimit-limit'),
      r.headers.get('x-ratelimit-remaining'),
      r.headers.get('retry-after'),
    ])
    .every(
      ([code, l, remaining, retryAfter]) =>
        code === 'rate_limited' && l === String(limit) && remaining === '0' && retryAfter === '61',
    );

/**
 * Two instances on one database, sharing nothing in memory, hammered at the same moment by
 * concurrent clients: together they admit no more than the limit, as one instance would. The
 * test clock stands still at a window's start, so the window does not roll under the burst.
 */
describe('rate limits across two instances hammered at once', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await startTestService();
    b = await startTestService({ databaseUrl: a.databaseUrl, operatorToken: a.operatorToken, clock: a.clock });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  /** A fresh window with nothing before it, each test its own. */
  const freshWindow = () => a.clock.advance(120 - ((a.clock.now().getTime() / 1000) % 60));

  /** Two flushes give back what an instance holds unused near a limit, a third reads it back. */
  const settle = async () => {
    for (let i = 0; i < 3; i++)
      expect(await Promise.all([a.services.rateLimiter.flush(), b.services.rateLimiter.flush()])).toEqual([true, true]);
  };

  it('per_supplier 1200: 1350 reads of two tokens over both instances admit at most 1200, and exactly 1200 once spare budget came back', async () => {
    freshWindow();
    const { id, token } = await a.newSupplier('Hammered');
    const second = (await a.operator.post(`/suppliers/${id}/tokens`)).body.token as string;
    // the tokens' reads above the supplier's cap, so the cap is what refuses
    const raised = await a.operator.put(`/suppliers/${id}/rate-limits`, { per_supplier: 1200, reads: 2000 });
    expect(raised.status).toBe(200);
    const apis = [a, b].flatMap((svc) => [token, second].map((t) => client(svc.baseUrl, t)));

    const answers = await burst(
      Array.from({ length: 1350 }, (_, i) => () => apis[i % 4]!.get('/whoami')),
      64,
    );
    expect(answers.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    const first = admitted(answers);
    expect(first).toBeLessThanOrEqual(1200);
    expect(refusedAt(answers, 1200)).toBe(true);

    // an instance the requests left gives its spare budget back: the window then admits
    // exactly the limit, and nothing past it
    await settle();
    const more = await burst(
      Array.from({ length: 100 }, (_, i) => () => apis[i % 4]!.get('/whoami')),
      16,
    );
    expect(first + admitted(more)).toBe(1200);
    expect(refusedAt(more, 1200)).toBe(true);
  });

  it('bulk 12: 14 inventory uploads of one token over both instances admit exactly 12', async () => {
    freshWindow();
    const { token } = await a.newSupplier('Uploader');
    const apis = [a, b].map((svc) => client(svc.baseUrl, token));
    const answers = await burst(
      Array.from(
        { length: 14 },
        (_, i) => () => apis[i % 2]!.post('/offers/none/inventory', { items: [{ kind: 'text', value: 'KEY' }] }),
      ),
      14,
    );
    expect(answers.filter((r) => r.status !== 429).map((r) => r.status)).toEqual(Array(12).fill(404));
    expect(refusedAt(answers, 12)).toBe(true);
  });

  it('unauthenticated 30 per IP: 40 requests in a burst over both instances admit exactly 30', async () => {
    freshWindow();
    const answers = await burst(
      Array.from({ length: 40 }, (_, i) => () => request([a, b][i % 2]!.baseUrl, 'GET', '/whoami')),
      40,
    );
    expect(answers.filter((r) => r.status !== 429).map((r) => r.status)).toEqual(Array(30).fill(401));
    expect(refusedAt(answers, 30)).toBe(true);
  });

  it('answered nothing with a 5xx and logged no error', () => {
    for (const svc of [a, b])
      expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
});
