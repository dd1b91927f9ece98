import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { verifySignature } from '../../src/sdk/index.js';
import { request } from '../support/http.js';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { allPages, buy, eur, keys, type Supplier, uploadedOffer, withDb, troubles } from '../orders/fixtures.js';

/**
 * Payouts over HTTP: created from available, moved by the operator along
 * pending -> in_transit -> paid (or failed / cancelled, giving the amount back), each move a
 * balanced set in the supplier's ledger, each announced by webhook; and the ledger rules for
 * refunds and disputes after a payout.
 */
describe('payouts', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let productA: string;
  let secret: string;
  let raced: number;
  const orders: Record<string, string> = {};

  const balance = async (s: Supplier) => {
    const b = (await s.api.get('/balance')).body;
    return { available: b.available.amount, pending: b.pending.amount };
  };
  const payoutEvents = () => receiver.received.filter((r) => String(r.body.type).startsWith('payout.'));
  const clean = async () => expect((await auditLedger(svc.services.store, svc.services.db)).differences).toEqual([]);

  beforeAll(async () => {
    svc = await startTestService();
    receiver = await startReceiver();
    alpha = await svc.newSupplier('Paid Alpha');
    beta = await svc.newSupplier('Paid Beta');
    const hook = await alpha.api.post('/webhooks', {
      url: receiver.url,
      events: ['payout.created', 'payout.paid', 'payout.failed'],
    });
    expect(hook.status, hook.text).toBe(201);
    secret = hook.body.secret;
    productA = (await svc.newProduct({ name: 'Payout A' })).id;
    const productB = (await svc.newProduct({ name: 'Payout B' })).id;
    await uploadedOffer(alpha, productA, { price: 2000, values: keys('PA', 10) }); // 2000: 170, 1830
    await uploadedOffer(beta, productB, { price: 3000, values: keys('PB', 10) }); // 3000: 255, 2745
    orders.a1 = (await buy(svc, [{ product_id: productA, quantity: 2 }])).id; // net 3660
    orders.a2 = (await buy(svc, [{ product_id: productA, quantity: 1 }])).id; // net 1830
    await buy(svc, [{ product_id: productB, quantity: 1 }]); // beta: net 2745
    await svc.advance(600); // all settle
    expect(await balance(alpha)).toEqual({ available: 5490, pending: 0 });
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
    await receiver.close();
  });

  it('refuses a payout below the minimum, above available, not positive, in another currency or by another method, and changes nothing', async () => {
    const refusals: [unknown, number, string][] = [
      [{ amount: eur(1999) }, 422, 'payout_below_minimum'],
      [{ amount: eur(5491) }, 409, 'insufficient_available_balance'],
      [{ amount: eur(0) }, 422, 'validation_failed'],
      [{ amount: eur(-2500) }, 422, 'validation_failed'],
      [{ amount: { amount: 2500, currency: 'USD' } }, 422, 'validation_failed'],
      [{ amount: eur(2500), method: 'cash' }, 422, 'validation_failed'],
      [{ amount: eur(2500.5) }, 422, 'validation_failed'],
      [{ amount: eur(2500), extra: 1 }, 422, 'validation_failed'],
      [{}, 422, 'validation_failed'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await alpha.api.post('/payouts', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const over = await alpha.api.post('/payouts', { amount: eur(5491) });
    expect(over.body.available).toEqual(eur(5490));
    expect(await balance(alpha)).toEqual({ available: 5490, pending: 0 });
    expect((await alpha.api.get('/payouts')).body).toEqual({ data: [], next_cursor: null });
  });

  it('refuses Money with an unknown field or an amount past 1,000,000.00 EUR, naming the field, in payouts and schedules alike; changes nothing', async () => {
    const extra = { amount: 2000, currency: 'EUR', x: 1 };
    const unknownKey = 'Unrecognized key: "x"';
    const tooBig = 'Too big: expected number to be <=100000000';
    const cases: [string, string, unknown, { field: string; message: string }[]][] = [
      ['POST', '/payouts', { amount: extra }, [{ field: 'body.amount', message: unknownKey }]],
      ['POST', '/payouts', { amount: eur(100_000_001) }, [{ field: 'body.amount.amount', message: tooBig }]],
      ['POST', '/payouts', { amount: eur(1e15) }, [{ field: 'body.amount.amount', message: tooBig }]],
      [
        'PUT',
        '/payouts/schedule',
        { interval: 'daily', minimum_amount: extra },
        [{ field: 'body.minimum_amount', message: unknownKey }],
      ],
      [
        'PUT',
        '/payouts/schedule',
        { interval: 'daily', minimum_amount: eur(1e15) },
        [{ field: 'body.minimum_amount.amount', message: tooBig }],
      ],
    ];
    for (const [method, path, body, errors] of cases) {
      const res = method === 'POST' ? await beta.api.post(path, body) : await beta.api.put(path, body);
      expect([method, path, res.status, res.body.code, res.body.errors]).toEqual([
        method,
        path,
        422,
        'validation_failed',
        errors,
      ]);
    }
    // the largest amount is taken as far as the schema goes: the balance refuses it
    const largest = await beta.api.post('/payouts', { amount: eur(100_000_000) });
    expect([largest.status, largest.body.code]).toEqual([409, 'insufficient_available_balance']);
    expect(await balance(beta)).toEqual({ available: 2745, pending: 0 });
    expect((await beta.api.get('/payouts')).body).toEqual({ data: [], next_cursor: null });
    expect((await beta.api.get('/payouts/schedule')).body).toEqual({
      interval: 'manual',
      minimum_amount: eur(2000),
      method: 'sepa_bank_transfer',
      updated_at: null,
      next_payout_at: null,
      payout_minimum: eur(2000),
      holding_period_seconds: 600,
    });
    const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
    const bodyOf = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema.properties;
    const money = {
      type: 'object',
      properties: {
        amount: {
          type: 'integer',
          minimum: 1,
          maximum: 100_000_000,
          description: 'minor units: 1 to 100000000 (1,000,000.00 EUR)',
        },
        currency: { type: 'string', enum: ['EUR'] },
      },
      required: ['amount', 'currency'],
      additionalProperties: false,
    };
    expect(bodyOf('/api/v1/payouts', 'post').amount).toEqual(money);
    expect(bodyOf('/api/v1/payouts/schedule', 'put').minimum_amount).toEqual({
      ...money,
      description: 'default and lowest: 2000',
    });
    expect(bodyOf('/api/v1/offers', 'post').price).toEqual(money);
  });

  let paidId: string;
  it('creates a payout from available (once per Idempotency-Key), then in_transit and paid: balanced entries and webhooks', async () => {
    const headers = { 'idempotency-key': 'payout-1' };
    const created = await alpha.api.post('/payouts', { amount: eur(3000) }, { headers });
    expect(created.status, created.text).toBe(201);
    paidId = created.body.id;
    const t0 = svc.clock.now().toISOString();
    const entry = {
      id: `payout-${paidId}:available`,
      type: 'payout',
      amount: eur(-3000),
      account: 'available',
      order_id: null,
      order_item_id: null,
      payout_id: paidId,
      created_at: t0,
      available_at: null,
    };
    expect(created.body).toEqual({
      id: expect.stringMatching(/^po_/),
      amount: eur(3000),
      method: 'sepa_bank_transfer',
      status: 'pending',
      trigger: 'manual',
      destination: null,
      failure_code: null,
      created_at: t0,
      in_transit_at: null,
      paid_at: null,
      failed_at: null,
      cancelled_at: null,
      balance_entries: [entry],
    });
    const again = await alpha.api.post('/payouts', { amount: eur(3000) }, { headers });
    expect([again.status, again.body.id]).toEqual([201, paidId]);
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    await svc.drain();
    expect(payoutEvents().map((r) => [r.body.type, r.body.data.payout.id, r.body.data.payout.status])).toEqual([
      ['payout.created', paidId, 'pending'],
    ]);
    expect(payoutEvents()[0]!.body.data.payout).toEqual(created.body);
    // the same envelope, headers and signature as every other event
    const first = payoutEvents()[0]!;
    expect(first.body).toEqual({
      id: expect.any(String),
      type: 'payout.created',
      mode: 'test',
      api_version: 'v1',
      test_fire: false,
      created_at: t0,
      data: { payout: created.body },
    });
    expect(first.headers['x-svc-event']).toBe('payout.created');
    expect(first.headers['x-svc-event-id']).toBe(first.body.id);
    const ts = Number(first.headers['x-svc-timestamp']);
    expect(verifySignature(first.raw, first.headers as Record<string, string>, [secret], { now: () => ts })).toEqual({
      ok: true,
      timestamp: ts,
    });

    await svc.advance(60);
    const moving = await svc.operator.post(`/payouts/${paidId}/in_transit`);
    expect(moving.status, moving.text).toBe(200);
    expect(moving.body).toMatchObject({
      supplier_id: alpha.id,
      status: 'in_transit',
      in_transit_at: svc.clock.now().toISOString(),
    });
    await svc.advance(3600);
    const paid = await svc.operator.post(`/payouts/${paidId}/paid`);
    expect(paid.body).toMatchObject({ status: 'paid', paid_at: svc.clock.now().toISOString() });
    // the moves between payout accounts touch neither pending nor available
    expect(paid.body.balance_entries).toEqual([entry]);
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    await svc.drain();
    const { supplier_id: _s, ...supplierView } = paid.body;
    expect((await alpha.api.get(`/payouts/${paidId}`)).body).toEqual(supplierView);
    expect(payoutEvents().map((r) => r.body.type)).toEqual(['payout.created', 'payout.paid']);
    expect(payoutEvents()[1]!.body.data.payout).toEqual(supplierView);

    // every state change is a balanced set over the payout accounts
    const events = (await svc.services.store.readStream(`balance-${alpha.id}`)).filter((e) =>
      e.type.startsWith('Payout'),
    );
    expect(events.map((e) => [e.type, (e.data as any).postings])).toEqual([
      [
        'PayoutCreated',
        [
          { account: 'supplier_available', amount: -3000 },
          { account: 'payouts_pending', amount: 3000 },
        ],
      ],
      [
        'PayoutInTransit',
        [
          { account: 'payouts_pending', amount: -3000 },
          { account: 'payouts_in_transit', amount: 3000 },
        ],
      ],
      [
        'PayoutPaid',
        [
          { account: 'payouts_in_transit', amount: -3000 },
          { account: 'paid_out', amount: 3000 },
        ],
      ],
    ]);
    await clean();
  });

  it('refuses moves the lifecycle does not allow, an unknown payout, and another supplier reading it', async () => {
    for (const move of ['in_transit', 'failed', 'cancel']) {
      const res = await svc.operator.post(`/payouts/${paidId}/${move}`);
      expect([res.status, res.body.code, res.body.payout_status], move).toEqual([409, 'invalid_state', 'paid']);
    }
    // repeating the move it is in is harmless
    expect((await svc.operator.post(`/payouts/${paidId}/paid`)).status).toBe(200);
    expect((await svc.operator.post('/payouts/po_unknown/paid')).status).toBe(404);
    expect((await svc.operator.post(`/payouts/${paidId}/failed`, { failure_code: 'Not A Code' })).status).toBe(422);
    expect((await beta.api.get(`/payouts/${paidId}`)).status).toBe(404);
    expect((await alpha.api.get('/payouts/po_unknown')).status).toBe(404);
    expect((await alpha.api.withToken(undefined).get('/payouts')).status).toBe(401);
    // a supplier token does not move payouts
    expect((await svc.operator.withToken(alpha.token).post(`/payouts/${paidId}/paid`)).status).toBe(401);
  });

  it('a failed payout (from in_transit) and a cancelled one (from pending) give the amount back to available', async () => {
    const failing = (await alpha.api.post('/payouts', { amount: eur(2490), method: 'paypal' })).body;
    expect(await balance(alpha)).toEqual({ available: 0, pending: 0 });
    // nothing left to pay out while it is under way
    expect((await alpha.api.post('/payouts', { amount: eur(2000) })).body.code).toBe('insufficient_available_balance');
    await svc.operator.post(`/payouts/${failing.id}/in_transit`);
    await svc.advance(60);
    const failed = await svc.operator.post(`/payouts/${failing.id}/failed`, { failure_code: 'account_closed' });
    expect(failed.status, failed.text).toBe(200);
    const tf = svc.clock.now().toISOString();
    expect(failed.body).toMatchObject({
      status: 'failed',
      failure_code: 'account_closed',
      failed_at: tf,
      method: 'paypal',
    });
    expect(failed.body.balance_entries.map((e: any) => [e.id, e.type, e.amount.amount, e.account])).toEqual([
      [`payout-${failing.id}:available`, 'payout', -2490, 'available'],
      [`payout-failure-${failing.id}:available`, 'payout_reversal', 2490, 'available'],
    ]);
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    await svc.drain();
    const failedHook = payoutEvents().find((r) => r.body.type === 'payout.failed')!;
    expect(failedHook.body.data.payout).toMatchObject({
      id: failing.id,
      status: 'failed',
      failure_code: 'account_closed',
    });

    const cancelling = (await alpha.api.post('/payouts', { amount: eur(2000) })).body;
    const cancelled = await svc.operator.post(`/payouts/${cancelling.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: svc.clock.now().toISOString() });
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    expect((await svc.operator.post(`/payouts/${cancelling.id}/in_transit`)).status).toBe(409);
    await svc.drain();
    // a cancellation is not announced (the supplier's or staff's own act); creation was
    expect(payoutEvents().map((r) => r.body.type)).toEqual([
      'payout.created',
      'payout.paid',
      'payout.created',
      'payout.failed',
      'payout.created',
    ]);
    await clean();
  });

  it('two payouts at once never spend the same money: one is created, the other refused', async () => {
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    const answers = await Promise.all([
      alpha.api.post('/payouts', { amount: eur(2000) }),
      alpha.api.post('/payouts', { amount: eur(2100) }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const won = answers.find((a) => a.status === 201)!.body;
    expect((await svc.operator.post(`/payouts/${won.id}/cancel`)).status).toBe(200);
    expect(await balance(alpha)).toEqual({ available: 2490, pending: 0 });
    await svc.drain();
    receiver.received.length = 0; // the race's payout.created is not part of the lifecycle tests below
    raced = won.amount.amount;
  });

  it('lists payouts newest first, a page at a time, filtered by status', async () => {
    const { items, pages } = await allPages(alpha.api, '/payouts?limit=1');
    expect(pages).toBe(4);
    expect(items.map((p) => [p.status, p.amount.amount])).toEqual([
      ['cancelled', raced],
      ['cancelled', 2000],
      ['failed', 2490],
      ['paid', 3000],
    ]);
    expect(items.every((p) => !('balance_entries' in p))).toBe(true);
    expect((await alpha.api.get('/payouts?status=cancelled')).body.data.map((p: any) => p.amount.amount)).toEqual([
      raced,
      2000,
    ]);
    expect((await alpha.api.get('/payouts?status=failed')).body.data.map((p: any) => p.amount.amount)).toEqual([2490]);
    expect((await alpha.api.get('/payouts?status=lost')).status).toBe(422);
    expect((await alpha.api.get('/payouts?cursor=abc')).status).toBe(422);
    expect((await beta.api.get('/payouts')).body.data).toEqual([]);
    // payout entries are in the entries list and filter by type
    const entries = (await allPages(alpha.api, '/balance/entries?type=payout_reversal')).items;
    expect(entries.map((e) => e.amount.amount)).toEqual([2490, 2000, raced]);
  });

  it('a refund after a payout takes available below zero (a reversal may; a payout never does), a dispute moves nothing, and the audit stays clean', async () => {
    const all = await alpha.api.post('/payouts', { amount: eur(2490) });
    expect(all.status).toBe(201);
    await svc.operator.post(`/payouts/${all.body.id}/in_transit`);
    await svc.operator.post(`/payouts/${all.body.id}/paid`);
    expect(await balance(alpha)).toEqual({ available: 0, pending: 0 });
    const disputed = await svc.operator.post(`/orders/${orders.a2}/dispute`, { reason: 'not received' });
    expect(disputed.status, disputed.text).toBe(200);
    await svc.drain();
    expect(await balance(alpha)).toEqual({ available: 0, pending: 0 });
    const refunded = await svc.operator.post(`/orders/${orders.a1}/refund`, {});
    expect(refunded.status, refunded.text).toBe(200);
    await svc.drain();
    expect(await balance(alpha)).toEqual({ available: -3660, pending: 0 });
    const refused = await alpha.api.post('/payouts', { amount: eur(2000) });
    expect([refused.status, refused.body.code, refused.body.available]).toEqual([
      409,
      'insufficient_available_balance',
      eur(-3660),
    ]);
    // new sales pay the debt back before anything can be paid out again
    await buy(svc, [{ product_id: productA, quantity: 3 }]); // net 5490
    await svc.advance(600);
    expect(await balance(alpha)).toEqual({ available: 1830, pending: 0 });
    expect((await alpha.api.post('/payouts', { amount: eur(1830) })).body.code).toBe('payout_below_minimum');
    await clean();
  });

  it('a daily schedule pays out the whole available balance at 00:00 UTC when it reaches the minimum; manual stops it', async () => {
    const refusedMinimum = await beta.api.put('/payouts/schedule', { interval: 'daily', minimum_amount: eur(1000) });
    expect([refusedMinimum.status, refusedMinimum.body.code]).toEqual([422, 'payout_below_minimum']);
    expect((await beta.api.put('/payouts/schedule', { interval: 'hourly' })).status).toBe(422);
    expect((await beta.api.get('/payouts/schedule')).body).toEqual({
      interval: 'manual',
      minimum_amount: eur(2000),
      method: 'sepa_bank_transfer',
      updated_at: null,
      next_payout_at: null,
      payout_minimum: eur(2000),
      holding_period_seconds: 600,
    });

    const set = await beta.api.put('/payouts/schedule', { interval: 'daily', minimum_amount: eur(3000) });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({
      interval: 'daily',
      minimum_amount: eur(3000),
      method: 'sepa_bank_transfer',
      updated_at: svc.clock.now().toISOString(),
      next_payout_at: new Date(
        Math.floor(svc.clock.now().getTime() / 86_400_000) * 86_400_000 + 86_400_000,
      ).toISOString(),
      payout_minimum: eur(2000),
      holding_period_seconds: 600,
    });
    expect(await balance(beta)).toEqual({ available: 2745, pending: 0 });
    const midnight = (d: Date) => new Date(Math.floor(d.getTime() / 86_400_000) * 86_400_000 + 86_400_000);
    // first run: 2745 is below the minimum 3000, so no payout
    const first = midnight(svc.clock.now());
    await svc.advance((first.getTime() - svc.clock.now().getTime()) / 1000 + 1);
    expect((await beta.api.get('/payouts')).body.data).toEqual([]);
    const timer = await svc.services.db
      .selectFrom('timers')
      .selectAll()
      .where('kind', '=', 'payout.schedule')
      .where('key', '=', beta.id)
      .executeTakeFirstOrThrow();
    expect(timer.due_at.toISOString()).toBe(new Date(first.getTime() + 86_400_000).toISOString());

    await buy(svc, [{ product_id: (await beta.api.get('/offers')).body.data[0].product_id, quantity: 1 }]); // +2745
    await svc.advance(600);
    expect(await balance(beta)).toEqual({ available: 5490, pending: 0 });
    await svc.advance((timer.due_at.getTime() - svc.clock.now().getTime()) / 1000);
    const listed = (await beta.api.get('/payouts')).body.data;
    expect(listed).toEqual([
      expect.objectContaining({
        id: `po_daily_${timer.due_at.toISOString().slice(0, 10).replace(/-/g, '')}_${beta.id}`,
        amount: eur(5490),
        status: 'pending',
        trigger: 'daily',
        created_at: timer.due_at.toISOString(),
      }),
    ]);
    expect(await balance(beta)).toEqual({ available: 0, pending: 0 });

    expect((await beta.api.put('/payouts/schedule', { interval: 'manual' })).body.interval).toBe('manual');
    await svc.drain();
    expect(
      await svc.services.db.selectFrom('timers').selectAll().where('kind', '=', 'payout.schedule').execute(),
    ).toEqual([]);
    await clean();
  });

  it('ledger audit names a payout whose read model differs from the ledger', async () => {
    const payout = (await alpha.api.get('/payouts?status=paid')).body.data[0];
    await withDb(svc, (db) => db.query(`update payouts set status = 'failed' where id = $1`, [payout.id]));
    try {
      expect((await auditLedger(svc.services.store, svc.services.db, { supplierId: alpha.id })).differences).toEqual([
        `supplier ${alpha.id}: payout ${payout.id} is failed ${payout.amount.amount} in the read model, paid ${payout.amount.amount} in the ledger`,
      ]);
    } finally {
      await withDb(svc, (db) => db.query(`update payouts set status = 'paid' where id = $1`, [payout.id]));
    }
    await clean();
  });

  it('documents every payout route in the OpenAPI document with its schemas and problems', async () => {
    const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    expect(Object.keys(op('/api/v1/payouts', 'post').responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '429',
    ]);
    expect(op('/api/v1/payouts', 'post').requestBody.content['application/json'].schema).toBeDefined();
    expect(
      op('/api/v1/payouts', 'get')
        .parameters.map((p: any) => p.name)
        .sort(),
    ).toEqual(['cursor', 'limit', 'status']);
    expect(op('/api/v1/payouts/{payout_id}', 'get').responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PayoutWithEntries',
    });
    expect(op('/api/v1/payouts/schedule', 'put').requestBody).toBeDefined();
    expect(op('/api/v1/payouts/schedule', 'get')).toBeDefined();
    for (const move of ['in_transit', 'paid', 'failed', 'cancel'])
      expect(Object.keys(op(`/operator/v1/payouts/{payout_id}/${move}`, 'post').responses), move).toEqual(
        expect.arrayContaining(['200', '404', '409']),
      );
    expect(op('/api/v1/balance', 'get').parameters.map((p: any) => p.name)).toEqual(['as_of']);
    expect(op('/api/v1/balance/entries', 'get').parameters.map((p: any) => p.name)).toContain('as_of');
    expect(op('/api/v1/balance/proof', 'get').responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/BalanceProof',
    });
    expect(op('/api/v1/balance/statements/{month}', 'get').responses['200'].content['application/json'].schema).toEqual(
      { $ref: '#/components/schemas/BalanceStatement' },
    );
    expect(doc.components.schemas.BalanceEntry.properties.type.enum).toEqual([
      'sale',
      'settlement',
      'refund',
      'payout',
      'payout_reversal',
    ]);
    expect(Object.keys(doc.webhooks)).toEqual(
      expect.arrayContaining(['payout.created', 'payout.paid', 'payout.failed']),
    );
  });
});
