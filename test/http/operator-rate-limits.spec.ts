import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specLimits } from '../../src/http/limits.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client } from '../support/http.js';

/**
 * "Limits can be raised on request": GET and PUT /operator/v1/suppliers/{id}/rate-limits.
 * A change holds for every instance on the database and across a restart.
 */
describe('operator rate limits per supplier', () => {
  let svc: TestService;
  let other: TestService | undefined;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await other?.stop();
    await svc.stop();
  });

  const spec = {
    reads: specLimits.reads,
    writes: specLimits.writes,
    sync: specLimits.sync,
    bulk: specLimits.bulk,
    simulate: specLimits.simulate,
    test: specLimits.test,
    per_supplier: specLimits.per_supplier,
  };

  it('answers the effective limits, changes only the classes named, and refuses bad input changing nothing', async () => {
    const { id } = await svc.newSupplier('Raised');
    const read = await svc.operator.get(`/suppliers/${id}/rate-limits`);
    expect([read.status, read.body]).toEqual([200, spec]);

    const put = await svc.operator.put(`/suppliers/${id}/rate-limits`, { bulk: 120, per_supplier: 5000 });
    expect([put.status, put.body]).toEqual([200, { ...spec, bulk: 120, per_supplier: 5000 }]);
    const again = await svc.operator.put(`/suppliers/${id}/rate-limits`, { reads: 3000 });
    expect(again.body).toEqual({ ...spec, reads: 3000, bulk: 120, per_supplier: 5000 });

    for (const bad of [{ reads: 0 }, { reads: 1.5 }, { reads: '600' }, { operator: 10 }, { unauthenticated: 100 }]) {
      const res = await svc.operator.put(`/suppliers/${id}/rate-limits`, bad);
      expect([res.status, res.body.code], JSON.stringify(bad)).toEqual([422, 'validation_failed']);
    }
    expect((await svc.operator.get(`/suppliers/${id}/rate-limits`)).body).toEqual({
      ...spec,
      reads: 3000,
      bulk: 120,
      per_supplier: 5000,
    });

    const unknown = await svc.operator.put('/suppliers/01NOSUCHSUPPLIER000000000/rate-limits', { reads: 1000 });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    expect((await svc.operator.get('/suppliers/01NOSUCHSUPPLIER000000000/rate-limits')).status).toBe(404);

    // a supplier token cannot change its own limits
    const { api } = await svc.newSupplier('Self-serving');
    expect((await api.put(`/suppliers/${id}/rate-limits`, { reads: 9999 })).status).toBe(404);
  });

  it('a lowered or raised limit is what the supplier is counted against, on another instance and after a restart', async () => {
    svc.clock.advance(300); // earlier windows weigh nothing
    const { id, api, token } = await svc.newSupplier('Counted');
    await svc.operator.put(`/suppliers/${id}/rate-limits`, { reads: 3 });
    for (let i = 0; i < 3; i++) expect((await api.get('/whoami')).headers.get('x-ratelimit-limit')).toBe('3');
    const refused = await api.get('/whoami');
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limited']);

    // a second instance on the same database, started afresh, applies the same limit to the
    // shared budget: the three requests the first admitted are spent there too
    other = await startTestService({
      databaseUrl: svc.databaseUrl,
      clock: svc.clock,
      operatorToken: svc.operatorToken,
    });
    const onOther = client(other.baseUrl, token);
    const shared = await onOther.get('/whoami');
    expect([shared.status, shared.body.code, shared.headers.get('x-ratelimit-limit')]).toEqual([
      429,
      'rate_limited',
      '3',
    ]);

    // raised on one instance, every instance counts against the new limit within a second
    await svc.operator.put(`/suppliers/${id}/rate-limits`, { reads: 10 });
    await new Promise((r) => setTimeout(r, 1100)); // the token cache's one second (real time, not a spec duration)
    const after = await onOther.get('/whoami');
    expect([after.status, after.headers.get('x-ratelimit-limit')]).toEqual([200, '10']);
    expect((await other.operator.get(`/suppliers/${id}/rate-limits`)).body.reads).toBe(10);
  });
});
