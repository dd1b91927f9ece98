import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';

/**
 * Posts that are reads: a price simulation, a file of keys' preview (nothing stored), and a listen
 * session's poll, whose acknowledgements only drop what an earlier poll handed over, so a retried
 * poll hands over the same unacknowledged events again.
 */
const NOT_MUTATING = new Set([
  'POST /api/v1/pricing/simulate',
  'POST /api/v1/offers/{offer_id}/inventory/imports/preview',
  'POST /api/v1/webhook-listen-sessions/{session_id}/poll',
]);
/** Routes whose answer is a key in clear: never kept in the Idempotency-Key table, so they take no key. */
const ANSWER_NEVER_KEPT = new Set(['POST /api/v1/offers/{offer_id}/inventory/{item_id}/reveal']);

describe('Idempotency-Key', () => {
  let svc: TestService;
  const suppliers = async () => (await svc.services.db.selectFrom('suppliers').select('id').execute()).length;
  const events = async () =>
    Number(
      (
        (await svc.services.db
          .selectFrom('es_events' as any)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as any
      ).n,
    );
  beforeAll(async () => {
    svc = await startTestService({ testClockEndpoint: true });
  });
  afterAll(() => svc.stop());

  it('a retry with the same key and body gets the stored answer with Idempotent-Replay, and the operation happens once', async () => {
    const before = await suppliers();
    const eventsBefore = await events();
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
    const written = await events();
    expect(written).toBeGreaterThan(eventsBefore);
    // the retry appended nothing, and neither does a third one
    expect((await svc.operator.post('/suppliers', { name: 'Acme' }, key)).headers.get('idempotent-replay')).toBe(
      'true',
    );
    expect(await events()).toBe(written);
    // the same key on another route is another request: refused, not replayed
    const elsewhere = await svc.operator.post(
      '/products',
      { name: 'Acme', type: 'game_key', platform: 'steam', region: 'EU', status: 'sellable' },
      key,
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.code).toBe('idempotency_key_reused');
    expect(await events()).toBe(written);
  });

  it('every mutating route takes the key: a malformed one is refused before anything else', async () => {
    const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
    const supplier = await svc.newSupplier('Coverage');
    const checked: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))) {
        const route = `${method.toUpperCase()} ${path}`;
        if (NOT_MUTATING.has(route) || ANSWER_NEVER_KEPT.has(route)) continue;
        const res = await request(svc.origin, method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x'), {
          token: path.startsWith('/operator/') ? svc.operatorToken : supplier.token,
          body: {},
          headers: { 'idempotency-key': 'not valid' },
        });
        expect({ route, status: res.status, errors: res.body.errors }).toEqual({
          route,
          status: 422,
          errors: [{ field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
        });
        checked.push(route);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'POST /operator/v1/suppliers',
        'POST /operator/v1/suppliers/{supplier_id}/tokens',
        'DELETE /operator/v1/suppliers/{supplier_id}/tokens/{token_id}',
        'POST /operator/v1/products',
        'PATCH /operator/v1/products/{product_id}',
        'POST /operator/v1/clock/advance',
        'POST /api/v1/offers',
        'PATCH /api/v1/offers/{offer_id}',
        'POST /api/v1/offers/{offer_id}/inventory',
        'POST /api/v1/offers/{offer_id}/activate',
        'PUT /api/v1/offers/{offer_id}/stock',
        'PUT /api/v1/offers/{offer_id}/price',
        'POST /api/v1/offers/{offer_id}/fulfilment/check',
        'POST /api/v1/webhooks',
        'POST /api/v1/webhooks/{webhook_id}/test',
        'POST /api/v1/sandbox/orders',
      ]),
    );
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
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => svc.operator.post('/suppliers', { name: 'Racer' }, key)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).not.toHaveLength(0);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('idempotency_key_in_use');
    expect(await suppliers()).toBe(before + 1);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.supplier.id));
    expect(ids.size).toBe(1);

    // deterministic: a key held in flight (its first request still running) refuses a retry
    const fingerprint = createHmac('sha256', svc.services.commands.secretKey)
      .update(`POST /operator/v1/suppliers\n${JSON.stringify({ name: 'Held' })}`)
      .digest('hex');
    await svc.services.db
      .insertInto('idempotency_keys')
      .values({
        scope: 'operator',
        key: 'held',
        request_hash: fingerprint,
        state: 'in_flight',
        created_at: svc.clock.now(),
        expires_at: new Date(svc.clock.now().getTime() + 60_000),
        response_status: null,
        response_headers: null,
        response_body: null,
        operation_id: 'op-held',
        owner: 'a-request-still-running',
        lease_until: new Date(svc.clock.now().getTime() + 12_000),
      })
      .execute();
    const held = await svc.operator.post('/suppliers', { name: 'Held' }, { headers: { 'idempotency-key': 'held' } });
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('idempotency_key_in_use');
    // told when the holder's lease ends
    expect(held.headers.get('retry-after')).toBe('12');
    expect(await suppliers()).toBe(before + 1);
  });

  it('many identical pairs racing: each operation happens once, the loser waits (409) or replays', async () => {
    const before = await suppliers();
    const pairs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const key = { headers: { 'idempotency-key': `pair-${i}` } };
        return Promise.all([
          svc.operator.post('/suppliers', { name: `Pair ${i}` }, key),
          svc.operator.post('/suppliers', { name: `Pair ${i}` }, key),
        ]);
      }),
    );
    let inUse = 0;
    for (const [x, y] of pairs) {
      const [won, other] = x.headers.get('idempotent-replay') || x.status === 409 ? [y, x] : [x, y];
      expect(won.status).toBe(201);
      expect(won.headers.get('idempotent-replay')).toBeNull();
      if (other.status === 409) {
        inUse++;
        expect(other.body.code).toBe('idempotency_key_in_use');
      } else {
        expect(other.headers.get('idempotent-replay')).toBe('true');
        expect(other.text).toBe(won.text);
      }
    }
    expect(await suppliers()).toBe(before + 12);
    expect(inUse).toBeGreaterThan(0); // registering takes milliseconds, so some pairs did overlap
    // once the first finished, the refused twin's retry gets the stored answer
    const retry = await svc.operator.post(
      '/suppliers',
      { name: 'Pair 0' },
      { headers: { 'idempotency-key': 'pair-0' } },
    );
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.text).toBe(pairs[0]!.find((a) => a.status === 201 && !a.headers.get('idempotent-replay'))!.text);
  });

  it('keys belong to the caller: two suppliers may use the same key', async () => {
    const a = await svc.newSupplier('A');
    const b = await svc.newSupplier('B');
    const product = await svc.newProduct();
    const body = {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 100, currency: 'EUR' },
      external_ref: 'X',
    };
    const ka = await a.api.post('/offers', body, { headers: { 'idempotency-key': 'same' } });
    const kb = await b.api.post('/offers', body, { headers: { 'idempotency-key': 'same' } });
    expect([ka.status, kb.status]).toEqual([201, 201]);
    expect(ka.body.id).not.toBe(kb.body.id);
    expect(kb.headers.get('idempotent-replay')).toBeNull();
    // and the operator's keys are its own too
    const op = await svc.operator.post('/suppliers', { name: 'Same key' }, { headers: { 'idempotency-key': 'same' } });
    expect(op.status).toBe(201);
    expect(op.headers.get('idempotent-replay')).toBeNull();
  });

  it('problem answers of the handler are stored too; validation failures do not take the key', async () => {
    const s = await svc.newSupplier('P');
    const missing = {
      product_id: 'nope',
      stock_mode: 'uploaded',
      price: { amount: 100, currency: 'EUR' },
      external_ref: 'X',
    };
    const first = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'p-1' } });
    expect(first.status).toBe(422);
    const again = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'p-1' } });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    const invalid = await s.api.post('/offers', { nonsense: true }, { headers: { 'idempotency-key': 'p-2' } });
    expect(invalid.status).toBe(422);
    const product = await svc.newProduct({ name: 'Later' });
    const ok = await s.api.post(
      '/offers',
      { ...missing, product_id: product.id },
      { headers: { 'idempotency-key': 'p-2' } },
    );
    expect(ok.status).toBe(201);
    const badKey = await s.api.post('/offers', missing, { headers: { 'idempotency-key': 'with space' } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual([
      { field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
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

  it('the hourly purge keeps keys younger than 24 hours and forgets older ones', async () => {
    const key = { headers: { 'idempotency-key': 'purged-1' } };
    const first = await svc.operator.post('/suppliers', { name: 'Purged' }, key);
    await svc.advance(23 * 3600); // runs the due purges
    const kept = await svc.operator.post('/suppliers', { name: 'Purged' }, key);
    expect(kept.headers.get('idempotent-replay')).toBe('true');
    expect(kept.text).toBe(first.text);
    await svc.advance(2 * 3600);
    expect(
      await svc.services.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'purged-1').execute(),
    ).toEqual([]);
    const before = await suppliers();
    const fresh = await svc.operator.post('/suppliers', { name: 'Purged' }, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replay')).toBeNull();
    expect(await suppliers()).toBe(before + 1);
  });

  it('answered nothing with a 5xx and logged no error', () => {
    expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
});

describe('stored answers', () => {
  it('keep the secrets they show once sealed at rest', async () => {
    const svc = await startTestService();
    try {
      const created = await svc.operator.post(
        '/suppliers',
        { name: 'Sealed' },
        { headers: { 'idempotency-key': 'sealed-1' } },
      );
      const again = await svc.operator.post(
        '/suppliers',
        { name: 'Sealed' },
        { headers: { 'idempotency-key': 'sealed-1' } },
      );
      expect(again.body.token).toBe(created.body.token);
      const rows = JSON.stringify(await svc.services.db.selectFrom('idempotency_keys').selectAll().execute());
      expect(rows).not.toContain(created.body.token);
    } finally {
      await svc.stop();
    }
  });
});
