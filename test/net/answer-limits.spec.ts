import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { parseReadyItems } from '../../src/commands/declared-items.js';
import { FILE_MAX_BYTES } from '../../src/domain/inventory-items.js';
import { Metrics } from '../../src/metrics.js';
import { itemsAnswerBytes, SMALL_ANSWER_BYTES } from '../../src/outbound/answer-limits.js';
import { probeHealthcheck } from '../../src/outbound/fulfilment-client.js';
import { callSupplier } from '../../src/outbound/supplier-calls.js';
import { startTestService, type TestService } from '../support/harness.js';
import { MB, startHugeAnswers } from './huge-answers.js';

/**
 * Every kind of call that reads an answer from outside stops at its limit: a supplier's
 * declared-stock and top-up calls, the healthcheck, a webhook's answer. The servers here
 * stream 100 MB answers; what matters is what the caller makes of them and that the
 * connection is closed under the answer, far before its end.
 */

const policy = { allowPrivate: true };
const clock = new TestClock(new Date('2026-01-05T10:00:00.000Z'));
const endpoint = (baseUrl: string) => ({
  offerId: 'offer-1',
  baseUrl,
  secrets: ['svcsec_00000000000000000000000000000000'],
});
const supplierCalls = async (metrics: Metrics) =>
  Object.fromEntries(
    (await metrics.supplierCalls.get()).values.map((v) => [`${v.labels.kind} ${v.labels.outcome}`, v.value]),
  );

/** The largest ready answer for 2 items, as the most escaping encoder writes it. */
const largestItemsAnswer = () => {
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(FILE_MAX_BYTES - 8, 0xff), // base64 of 0xff bytes is '/'s: each written `\/` below
  ]);
  const item = {
    kind: 'file',
    file_name: `${'é'.repeat(251)}.png`, // 255 characters, each written `\u00e9` below
    content_type: 'image/png',
    content_base64: png.toString('base64'),
  };
  return JSON.stringify({ order_id: 'o-1', status: 'ready', items: [item, item] }, null, 8)
    .replaceAll('/', '\\/') // PHP's json_encode
    .replaceAll('é', '\\u00e9') // encoders that write ASCII only
    .replaceAll('=', '\\u003d'); // Gson
};

describe('answers past their limit', () => {
  const largest = largestItemsAnswer();
  let huge: Awaited<ReturnType<typeof startHugeAnswers>>;
  let atLimit: Awaited<ReturnType<typeof startHugeAnswers>>;
  let pastLimit: Awaited<ReturnType<typeof startHugeAnswers>>;
  let svc: TestService;
  beforeAll(async () => {
    huge = await startHugeAnswers(100 * MB, { small: { '/orders/o-1/items': largest } });
    atLimit = await startHugeAnswers(itemsAnswerBytes(2));
    pastLimit = await startHugeAnswers(itemsAnswerBytes(2) + 1);
    svc = await startTestService({ limits: { test: 1000 } });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all([huge.close(), atLimit.close(), pastLimit.close()]);
  });

  /** The last answer of `server` was cut off by the reader, long before its 100 MB. */
  const cutOff = async (server: typeof huge, path: string) => {
    const answer = server.answers.at(-1)!;
    await answer.closed;
    expect(answer).toMatchObject({ path, closedEarly: true });
    expect(answer.written).toBeLessThan(32 * MB);
  };

  it('a top-up call answered with 100 MB fails too_large at 64 KiB, counted so, its connection closed', async () => {
    const metrics = new Metrics();
    const outcome = await callSupplier(endpoint(huge.url), 'POST', '/topup/execute', { operation_id: 'op-1' }, 10_000, {
      clock,
      policy,
      metrics,
    });
    expect(outcome).toMatchObject({
      kind: 'failure',
      reason: 'too_large',
      detail: `answer larger than ${SMALL_ANSWER_BYTES} bytes`,
    });
    expect(await supplierCalls(metrics)).toEqual({ 'topup_execute too_large': 1 });
    await cutOff(huge, '/topup/execute');
  });

  it('a declared reservation answered with 100 MB fails too_large, counted so', async () => {
    const metrics = new Metrics();
    const outcome = await callSupplier(endpoint(huge.url), 'POST', '/reservations', { quantity: 1 }, 10_000, {
      clock,
      policy,
      metrics,
    });
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'too_large' });
    expect(await supplierCalls(metrics)).toEqual({ 'reservation too_large': 1 });
    await cutOff(huge, '/reservations');
  });

  it('the items answer of 2 items: the largest valid one is read and its items taken; one byte past the limit is too_large', async () => {
    expect(largest.length).toBeLessThanOrEqual(itemsAnswerBytes(2));
    const metrics = new Metrics();
    const deps = { clock, policy, metrics };
    const limit = { maxAnswerBytes: itemsAnswerBytes(2) };
    const ready = await callSupplier(endpoint(huge.url), 'GET', '/orders/o-1/items', undefined, 10_000, deps, limit);
    expect(ready.kind).toBe('answer');
    const items = parseReadyItems((ready as { body: { items: unknown } }).body.items, 2);
    expect(items.ok).toBe(true);
    // exactly at the limit the body is read to its end (and judged: not JSON); one byte more is not read
    const full = await callSupplier(endpoint(atLimit.url), 'GET', '/orders/o-1/items', undefined, 10_000, deps, limit);
    expect(full).toMatchObject({ kind: 'failure', reason: 'malformed' });
    const past = await callSupplier(
      endpoint(pastLimit.url),
      'GET',
      '/orders/o-1/items',
      undefined,
      10_000,
      deps,
      limit,
    );
    expect(past).toMatchObject({
      kind: 'failure',
      reason: 'too_large',
      detail: `answer larger than ${itemsAnswerBytes(2)} bytes`,
    });
    expect(await supplierCalls(metrics)).toEqual({
      'order_poll ok': 1,
      'order_poll malformed': 1,
      'order_poll too_large': 1,
    });
  });

  it('a healthcheck (the fulfilment check) answered with 100 MB fails too_large, counted so', async () => {
    const metrics = new Metrics();
    const probe = await probeHealthcheck(endpoint(huge.url), { clock, policy, metrics, timeoutMs: 10_000 });
    expect(probe).toMatchObject({ ok: false, error: `answer larger than ${SMALL_ANSWER_BYTES} bytes` });
    expect(await supplierCalls(metrics)).toEqual({ 'healthcheck too_large': 1 });
    await cutOff(huge, '/healthcheck');
  });

  it('a webhook answered 200 with 100 MB succeeds: the log keeps its first 4 KB and the rest is not read', async () => {
    const supplier = await svc.newSupplier('Big Answers');
    const hook = await supplier.api.post('/webhooks', { url: `${huge.url}/hook`, events: ['*'] });
    expect(hook.status, hook.text).toBe(201);
    const fired = await supplier.api.post(`/webhooks/${hook.body.id}/test`, {});
    expect(fired.status, fired.text).toBe(200);
    expect(fired.body).toMatchObject({ succeeded: true, response_status: 200 });
    await cutOff(huge, '/hook');
    const log = await supplier.api.get('/webhook-deliveries?limit=200');
    const attempt = log.body.data.find((d: any) => d.delivery_id === fired.body.delivery_id);
    const one = await supplier.api.get(`/webhook-deliveries/${attempt.id}`);
    expect(one.body.response_body).toBe('x'.repeat(4096));
    const metrics = await svc.services.metrics.webhookAttempts.get();
    expect(metrics.values.map((v) => [v.labels.outcome, v.value])).toEqual([['ok', 1]]);
  });
});
