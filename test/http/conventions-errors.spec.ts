import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';

const problemShape = (res: { status: number; headers: Headers; body: any }, code: string, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(Object.keys(res.body).slice(0, 6).sort()).toEqual(['code', 'detail', 'status', 'title', 'trace_id', 'type']);
  expect(res.body.code).toBe(code);
  expect(res.body.status).toBe(status);
  expect(res.body.type).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/v1/errors#${code}$`));
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.trace_id).toBe(res.headers.get('x-trace-id'));
  expect(res.body.trace_id).toMatch(/^[0-9A-Z]{26}$/);
  // every answer, also a refusal before routing, carries the rate-limit headers
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(res.headers.get(name)).toMatch(/^\d+$/);
};

describe('every error is a problem object and changes nothing', () => {
  let svc: TestService;
  let token: string;
  const events = async () =>
    Number(
      (
        (await svc.services.db
          .selectFrom('es_events' as any)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as any
      ).n,
    );
  const suppliers = async () => (await svc.services.db.selectFrom('suppliers').select('id').execute()).length;
  const op = (path: string, init: Parameters<typeof request>[3] = {}) =>
    request(`${svc.origin}/operator/v1`, 'POST', path, { token: svc.operatorToken, ...init });

  beforeAll(async () => {
    svc = await startTestService();
    token = (await svc.newSupplier()).token;
  });
  afterAll(() => svc.stop());

  it('an unknown route is 404 not_found, with or without a token', async () => {
    problemShape(await request(svc.baseUrl, 'GET', '/nope', { token }), 'not_found', 404);
    problemShape(await request(svc.baseUrl, 'DELETE', '/whoami', { token }), 'not_found', 404);
    problemShape(await request(svc.origin, 'GET', '/elsewhere'), 'not_found', 404);
  });

  it('malformed JSON is 400 malformed_json; a wrong content type 415; a body over 1 MiB 413; a bad URL 400; a path segment longer than any id 404', async () => {
    const before = await events();
    problemShape(await op('/suppliers', { rawBody: '{"name": "x"' }), 'malformed_json', 400);
    problemShape(
      await op('/suppliers', { rawBody: 'name=x', contentType: 'application/x-www-form-urlencoded' }),
      'unsupported_media_type',
      415,
    );
    problemShape(
      await op('/suppliers', { rawBody: '{"name":"x"}', contentType: 'text/plain' }),
      'unsupported_media_type',
      415,
    );
    problemShape(
      await op('/suppliers', { rawBody: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) }),
      'payload_too_large',
      413,
    );
    problemShape(await request(svc.baseUrl, 'GET', '/products/%E0%A4%A', { token }), 'bad_request', 400);
    // a prototype key is refused as a malformed body, not merged into anything
    problemShape(await op('/suppliers', { rawBody: '{"name":"x","__proto__":{"admin":true}}' }), 'malformed_json', 400);
    problemShape(
      await request(`${svc.origin}/operator/v1`, 'POST', `/suppliers/${'x'.repeat(150)}/tokens`, {
        token: svc.operatorToken,
      }),
      'not_found',
      404,
    );
    problemShape(await request(svc.baseUrl, 'GET', `/products/${'x'.repeat(101)}`, { token }), 'not_found', 404);
    expect(await events()).toBe(before);
    expect(await suppliers()).toBe(1);
  });

  it('an empty body sent as JSON is no body: fine where none is needed, a named field where one is', async () => {
    const supplierId = (await svc.services.db.selectFrom('suppliers').select('id').executeTakeFirstOrThrow()).id;
    const issued = await op(`/suppliers/${supplierId}/tokens`, { rawBody: '' });
    expect(issued.status).toBe(201);
    const before = await events();
    const missing = await op('/suppliers', { rawBody: '' });
    problemShape(missing, 'validation_failed', 422);
    expect(missing.body.errors).toEqual([{ field: 'body', message: expect.any(String) }]);
    expect(await events()).toBe(before);
  });

  it('nested fields are named by their path', async () => {
    const before = await events();
    const res = await svc.operator.post('/products', {
      name: 'Gems',
      type: 'topup',
      platform: 'mobile',
      region: 'EU',
      status: 'sellable',
      form_fields: [
        { key: 'player_id', label: 'Player', type: 'text', required: true },
        { key: 'Bad Key', label: 'Server', type: 'radio', required: true },
      ],
    });
    problemShape(res, 'validation_failed', 422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'body.form_fields.1.key',
      'body.form_fields.1.type',
    ]);
    for (const e of res.body.errors) expect(res.body.detail).toContain(e.field);
    expect(await events()).toBe(before);
  });

  it('validation failures are 422 validation_failed naming each offending field', async () => {
    const before = await events();
    const res = await svc.operator.post('/products', {
      name: '',
      type: 'console',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
      colour: 'red',
    });
    problemShape(res, 'validation_failed', 422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.name', message: expect.any(String) },
        { field: 'body.type', message: expect.any(String) },
        { field: 'body', message: expect.stringContaining('colour') },
      ]),
    );
    const query = await request(svc.baseUrl, 'GET', '/products?limit=0', { token });
    problemShape(query, 'validation_failed', 422);
    expect(query.body.errors).toEqual([{ field: 'querystring.limit', message: expect.any(String) }]);
    const cursor = await request(svc.baseUrl, 'GET', '/products?cursor=not-ours', { token });
    problemShape(cursor, 'validation_failed', 422);
    expect(cursor.body.errors).toEqual([{ field: 'querystring.cursor', message: 'unknown cursor' }]);
    expect(await events()).toBe(before);
    expect((await request(svc.baseUrl, 'GET', '/products', { token })).body.data).toEqual([]);
  });

  it('answered nothing with a 5xx and logged no error', () => {
    expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
  it('lists every code at the errors address', async () => {
    const res = await request(svc.baseUrl, 'GET', '/errors');
    expect(res.status).toBe(200);
    const codes = res.body.data.map((c: any) => c.code);
    for (const code of [
      'unauthorized',
      'not_found',
      'validation_failed',
      'rate_limited',
      'idempotency_key_in_use',
      'idempotency_key_reused',
      'offer_exists',
    ])
      expect(codes).toContain(code);
    expect(res.body.data.find((c: any) => c.code === 'rate_limited')).toEqual({
      code: 'rate_limited',
      status: 429,
      title: 'Rate limit exceeded',
    });
  });
});
