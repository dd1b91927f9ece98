import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

describe('Idempotency-Key', () => {
  let svc: TestService;
  const suppliers = async () => (await svc.services.db.selectFrom('suppliers').select('id').execute()).length;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('a retry with the same key and body gets the stored answer with Idempotent-Replay, and the operation happens once', async () => {
    const before = await suppliers();
    const key = { headers: { 'idempotency-key': 'create-acme-1' } };
    const first = await svc.operator.post('/suppliers', { name: 'Acme' }, key);
    const again = await svc.operator.post('/suppliers', { name: 'Acme' }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await suppliers()).toBe(before + 1);
  });

  it('the same key with another body is 422 idempotency_key_reused, and nothing happens', async () => {
    const key = { headers: { 'idempotency-key': 'create-2' } };
    expect((await svc.operator.post('/suppliers', { name: 'One' }, key)).status).toBe(201);
    const before = await suppliers();
    const other = await svc.operator.post('/suppliers', { name: 'Two' }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await suppliers()).toBe(before);
  });

  it('a second request while the first is in flight gets 409 idempotency_key_in_use; the operation still happens once', async () => {
    const before = await suppliers();
    const key = { headers: { 'idempotency-key': 'race-1' } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => svc.operator.post('/suppliers', { name: 'Racer' }, key)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).not.toHaveLength(0);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('idempotency_key_in_use');
    expect(await suppliers()).toBe(before + 1);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.supplier.id));
    expect(ids.size).toBe(1);

    // deterministic: a key held in flight (its first request still running) refuses a retry
    const fingerprint = createHash('sha256').update(`POST /operator/v1/suppliers\n${JSON.stringify({ name: 'Held' })}`).digest('hex');
    await svc.services.db
      .insertInto('idempotency_keys')
      .values({ scope: 'operator', key: 'held', request_hash: fingerprint, state: 'in_flight', created_at: svc.clock.now(), expires_at: new Date(svc.clock.now().getTime() + 60_000), response_status: null, response_headers: null, response_body: null })
      .execute();
    const held = await svc.operator.post('/suppliers', { name: 'Held' }, { headers: { 'idempotency-key': 'held' } });
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('idempotency_key_in_use');
    expect(await suppliers()).toBe(before + 1);
  });

  it('keys belong to the caller: two suppliers may use the same key', async () => {
    const a = await svc.newSupplier('A');
    const b = await svc.newSupplier('B');
    const product = await svc.newProduct();
    const body = { product_id: product.id, stock_mode: 'uploaded', price: { amount: 100, currency: 'EUR' }, external_ref: 'X' };
    const ka = await a.api.post('/offers', body, { headers: { 'idempotency-key': 'same' } });
    const kb = await b.api.post('/offers', body, { headers: { 'idempotency-key': 'same' } });
    expect([ka.status, kb.status]).toEqual([201, 201]);
    expect(ka.body.id).not.toBe(kb.body.id);
    expect(kb.headers.get('idempotent-replay')).toBeNull();
  });

  it('problem answers of the handler are stored too; validation failures do not take the key', async () => {
    const s = await svc.newSupplier('P');
    const missing = { product_id: 'nope', stock_mode: 'uploaded', price: { amount: 100, currency: 'EUR' }, external_ref: 'X' };
    const first = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'p-1' } });
    expect(first.status).toBe(422);
    const again = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'p-1' } });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    const invalid = await s.api.post('/offers', { nonsense: true }, { headers: { 'idempotency-key': 'p-2' } });
    expect(invalid.status).toBe(422);
    const product = await svc.newProduct({ name: 'Later' });
    const ok = await s.api.post('/offers', { ...missing, product_id: product.id }, { headers: { 'idempotency-key': 'p-2' } });
    expect(ok.status).toBe(201);
    const badKey = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'with space' } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual([{ field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }]);
  });

  it('keys are kept 24 hours, then usable afresh', async () => {
    const key = { headers: { 'idempotency-key': 'day-1' } };
    const first = await svc.operator.post('/suppliers', { name: 'Day' }, key);
    svc.clock.advance(23 * 3600);
    expect((await svc.operator.post('/suppliers', { name: 'Day' }, key)).headers.get('idempotent-replay')).toBe('true');
    svc.clock.advance(3600 + 1);
    const fresh = await svc.operator.post('/suppliers', { name: 'Day' }, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replay')).toBeNull();
    expect(fresh.body.supplier.id).not.toBe(first.body.supplier.id);
  });
});
