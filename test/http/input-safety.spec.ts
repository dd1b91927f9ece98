import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploaded } from '../offers/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { type Client, request } from '../support/http.js';

/**
 * Strings Postgres cannot store (NUL, lone surrogates), JSON nested past the cap and bytes
 * that are not UTF-8 are refused on every route before anything runs: a problem naming the
 * field, never a 500, and nothing changes.
 */
describe('input Postgres cannot store is refused on every route', () => {
  let svc: TestService;
  let api: Client;
  let token: string;
  let productId: string;
  let offerId: string;
  const events = async () =>
    Number(
      (
        (await svc.services.db
          .selectFrom('es_events' as any)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as any
      ).n,
    );

  const refused = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.detail).toContain(field);
  };

  beforeAll(async () => {
    svc = await startTestService();
    const supplier = await svc.newSupplier();
    api = supplier.api;
    token = supplier.token;
    productId = (await svc.newProduct()).id;
    offerId = (await createUploaded(api, productId)).id;
  });
  afterAll(() => svc.stop());

  it('a NUL or a lone surrogate in a body string is 422 naming the field (supplier, product, offer, webhook)', async () => {
    const before = await events();
    refused(await svc.operator.post('/suppliers', { name: 'Acme\u0000Keys' }), 'body.name');
    // JSON.stringify writes lone surrogates as \ud800 escapes, which JSON.parse turns back into one
    refused(await svc.operator.post('/suppliers', { name: 'Acme \ud800 Keys' }), 'body.name');
    refused(await svc.operator.post('/suppliers', { name: 'Acme \udc00' }), 'body.name');
    refused(
      await svc.operator.post('/products', {
        name: 'Star\u0000fall',
        type: 'game_key',
        platform: 'steam',
        region: 'EU',
        status: 'sellable',
      }),
      'body.name',
    );
    refused(
      await api.post('/offers', {
        product_id: productId,
        stock_mode: 'uploaded',
        price: { amount: 1000, currency: 'EUR' },
        external_ref: 'SKU\u0000',
      }),
      'body.external_ref',
    );
    refused(await api.patch(`/offers/${offerId}`, { external_ref: '\ud83dX' }), 'body.external_ref');
    refused(
      await api.post('/webhooks', {
        url: 'https://hooks.example.com/x',
        events: ['order.paid'],
        description: 'a\u0000b',
      }),
      'body.description',
    );
    refused(
      await api.post(`/offers/${offerId}/inventory`, {
        items: [
          { kind: 'text', value: 'K-1' },
          { kind: 'text', value: 'K-\u0000' },
        ],
      }),
      'body.items.1.value',
    );
    expect(await events()).toBe(before);
  });

  it('a key holding a NUL is refused too', async () => {
    const res = await svc.operator.post('/suppliers', JSON.parse('{"name":"Acme","\\u0000x":1}'));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'body', message: 'a key must not contain a NUL character' }]);
  });

  it('a whole surrogate pair (an emoji) is fine', async () => {
    const res = await svc.operator.post('/suppliers', { name: 'Keys \ud83d\ude00 Ltd' });
    expect(res.status).toBe(201);
    expect(res.body.supplier.name).toBe('Keys 😀 Ltd');
  });

  it('a NUL in a query filter or a path parameter is 422 naming it', async () => {
    refused(await request(svc.baseUrl, 'GET', '/offers?product_id=%00', { token }), 'query.product_id');
    refused(await request(svc.baseUrl, 'GET', '/offers?product_id=a%00b', { token }), 'query.product_id');
    refused(await request(svc.baseUrl, 'GET', '/offers/%00', { token }), 'params.offer_id');
    refused(await request(svc.baseUrl, 'GET', `/products/x%00y`, { token }), 'params.product_id');
  });

  it('JSON nested deeper than 32 levels is 422, also 10,000 deep in an upload', async () => {
    const before = await events();
    const deep = `{"items":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await request(svc.baseUrl, 'POST', `/offers/${offerId}/inventory`, { token, rawBody: deep });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      { field: 'body', message: 'must not nest arrays and objects deeper than 32 levels' },
    ]);
    // brackets inside strings do not count; 32 levels are fine (the schema then judges them)
    const nested32 = `{"name":"[[[[{{{{","x":${'['.repeat(31)}${']'.repeat(31)}}`;
    const ok = await request(`${svc.origin}/operator/v1`, 'POST', '/suppliers', {
      token: svc.operatorToken,
      rawBody: nested32,
    });
    expect(ok.status).toBe(422);
    expect(ok.body.errors.map((e: any) => e.field)).toEqual(['body']); // the unknown key x, not the depth
    expect(ok.body.errors[0].message).not.toContain('nest');
    expect(await events()).toBe(before);
  });

  it('a body that is not UTF-8 is 400 malformed_json, not decoded with replacement characters', async () => {
    const before = await events();
    const bytes = Buffer.concat([Buffer.from('{"name":"Acme '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await fetch(`${svc.origin}/operator/v1/suppliers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.operatorToken}`, 'content-type': 'application/json' },
      body: bytes,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.code).toBe('malformed_json');
    expect(body.detail).toBe('the body is not valid UTF-8');
    // an encoded lone surrogate (CESU-style ED A0 80) is not UTF-8 either
    const cesu = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    const res2 = await fetch(`${svc.origin}/operator/v1/suppliers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.operatorToken}`, 'content-type': 'application/json' },
      body: cesu,
    });
    expect(res2.status).toBe(400);
    expect(await events()).toBe(before);
  });
});
