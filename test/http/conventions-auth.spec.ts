import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client, request } from '../support/http.js';

describe('bearer authentication', () => {
  let sandbox: TestService;
  let production: TestService;
  beforeAll(async () => {
    [sandbox, production] = await Promise.all([startTestService(), startTestService({ env: 'production' })]);
  });
  afterAll(() => Promise.all([sandbox.stop(), production.stop()]));

  const unauthorized = (res: { status: number; body: any; headers: Headers }) => {
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  };

  it('sandbox tokens are svc_test_, production tokens svc_live_; whoami answers the supplier and the environment', async () => {
    const s = await sandbox.newSupplier('Sandbox Co');
    const p = await production.newSupplier('Live Co');
    expect(s.token).toMatch(/^svc_test_[0-9a-f]{40}$/);
    expect(p.token).toMatch(/^svc_live_[0-9a-f]{40}$/);
    expect((await s.api.get('/whoami')).body).toEqual({ supplier: { id: s.id, name: 'Sandbox Co' }, environment: 'sandbox', token_id: expect.any(String) });
    expect((await p.api.get('/whoami')).body).toEqual({ supplier: { id: p.id, name: 'Live Co' }, environment: 'production', token_id: expect.any(String) });
    // a token of the other environment is refused, even a valid one
    unauthorized(await client(sandbox.baseUrl, p.token).get('/whoami'));
    unauthorized(await client(production.baseUrl, s.token).get('/whoami'));
  });

  it('stores tokens as hashes only', async () => {
    const s = await sandbox.newSupplier('Hashed');
    const rows = await sandbox.services.db.selectFrom('supplier_tokens').selectAll().where('supplier_id', '=', s.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(s.token));
    const everything = JSON.stringify(await sandbox.services.db.selectFrom('es_events' as any).selectAll().execute());
    expect(everything).not.toContain(s.token);
  });

  it('missing, malformed, unknown and revoked tokens are 401; operator and supplier tokens stay on their side', async () => {
    const s = await sandbox.newSupplier('Revoked');
    const anonymous = await request(sandbox.baseUrl, 'GET', '/whoami');
    unauthorized(anonymous);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBe('30'); // counted per IP, as unauthenticated
    unauthorized(await request(sandbox.baseUrl, 'GET', '/whoami', { headers: { authorization: 'Basic abc' } }));
    unauthorized(await client(sandbox.baseUrl, `svc_test_${'0'.repeat(40)}`).get('/whoami'));
    unauthorized(await client(sandbox.baseUrl, sandbox.operatorToken).get('/whoami'));
    unauthorized(await client(`${sandbox.origin}/operator/v1`, s.token).post('/suppliers', { name: 'x' }));

    const second = await sandbox.operator.post(`/suppliers/${s.id}/tokens`);
    expect(second.status).toBe(201);
    const other = client(sandbox.baseUrl, second.body.token);
    expect((await other.get('/whoami')).status).toBe(200);
    const revoke = await sandbox.operator.delete(`/suppliers/${s.id}/tokens/${second.body.token_id}`);
    expect(revoke.status).toBe(204);
    unauthorized(await other.get('/whoami'));
    expect((await s.api.get('/whoami')).status).toBe(200); // the first token still works
  });
});
