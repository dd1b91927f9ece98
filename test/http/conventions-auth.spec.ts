import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, keyedTokenHash } from '../../src/crypto/tokens.js';
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
    expect((await s.api.get('/whoami')).body).toEqual({
      supplier: { id: s.id, name: 'Sandbox Co' },
      environment: 'sandbox',
      token_id: expect.any(String),
    });
    expect((await p.api.get('/whoami')).body).toEqual({
      supplier: { id: p.id, name: 'Live Co' },
      environment: 'production',
      token_id: expect.any(String),
    });
    // a token of the other environment is refused, even a valid one
    unauthorized(await client(sandbox.baseUrl, p.token).get('/whoami'));
    unauthorized(await client(production.baseUrl, s.token).get('/whoami'));
  });

  it('stores tokens as keyed hashes only', async () => {
    const s = await sandbox.newSupplier('Hashed');
    const second = (await sandbox.operator.post(`/suppliers/${s.id}/tokens`)).body.token as string;
    const rows = await sandbox.services.db
      .selectFrom('supplier_tokens')
      .selectAll()
      .where('supplier_id', '=', s.id)
      .orderBy('created_at')
      .execute();
    const key = sandbox.services.commands.secretKey;
    expect(rows.map((r) => r.token_hash).sort()).toEqual(
      [s.token, second].map((t) => keyedTokenHash(key, hashToken(t))).sort(),
    );
    expect(rows.map((r) => r.token_hash)).toEqual([
      expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
      expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
    ]);
    const tables = JSON.stringify(await sandbox.services.db.selectFrom('supplier_tokens').selectAll().execute());
    const events = JSON.stringify(
      await sandbox.services.db
        .selectFrom('es_events' as any)
        .selectAll()
        .execute(),
    );
    for (const token of [s.token, second]) {
      expect(tables).not.toContain(token);
      expect(tables).not.toContain(token.slice('svc_test_'.length)); // not even without its prefix
      expect(events).not.toContain(token);
    }
  });

  it('a token is known only to the service that issued it, also beside another service in one process', async () => {
    const elsewhere = await startTestService();
    try {
      const s = await sandbox.newSupplier('Here');
      expect((await s.api.get('/whoami')).status).toBe(200); // now known to this service
      unauthorized(await client(elsewhere.baseUrl, s.token).get('/whoami'));
      unauthorized(await client(elsewhere.baseUrl, s.token).get('/products'));
    } finally {
      await elsewhere.stop();
    }
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
    unauthorized(await other.get('/products')); // refused on every route, not only whoami
    unauthorized(await other.post('/offers', {}));
  });

  it('whoami names the token; the scheme is case-insensitive; revocation answers 404 for a token the supplier does not have', async () => {
    const s = await sandbox.newSupplier('Owner');
    const t = await sandbox.operator.post(`/suppliers/${s.id}/tokens`);
    const who = await client(sandbox.baseUrl, t.body.token).get('/whoami');
    expect(who.body).toEqual({
      supplier: { id: s.id, name: 'Owner' },
      environment: 'sandbox',
      token_id: t.body.token_id,
    });
    expect(
      (await request(sandbox.baseUrl, 'GET', '/whoami', { headers: { authorization: `bearer ${t.body.token}` } }))
        .status,
    ).toBe(200);

    const stranger = await sandbox.newSupplier('Stranger');
    const cross = await sandbox.operator.delete(`/suppliers/${stranger.id}/tokens/${t.body.token_id}`);
    expect(cross.status).toBe(404);
    expect(cross.body.code).toBe('not_found');
    expect((await sandbox.operator.delete(`/suppliers/${s.id}/tokens/unknown`)).status).toBe(404);
    expect((await sandbox.operator.delete(`/suppliers/unknown/tokens/${t.body.token_id}`)).status).toBe(404);
    expect((await client(sandbox.baseUrl, t.body.token).get('/whoami')).status).toBe(200); // none of that revoked it
    // revoking twice is no error
    expect((await sandbox.operator.delete(`/suppliers/${s.id}/tokens/${t.body.token_id}`)).status).toBe(204);
    expect((await sandbox.operator.delete(`/suppliers/${s.id}/tokens/${t.body.token_id}`)).status).toBe(204);
    unauthorized(await client(sandbox.baseUrl, t.body.token).get('/whoami'));
  });

  it('answered nothing with a 5xx and logged no error', () => {
    for (const svc of [sandbox, production])
      expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
});
