import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitFault, KitRoute } from '../../src/sdk/kit/index.js';
import { startWorld, type Seller, type World } from '../declared/support.js';
import { startSpecSupplier } from './spec-supplier.js';

/**
 * POST /offers/{id}/certification against real suppliers over real HTTP: the reference kit
 * (clean, then in each fault mode), and a supplier written here from the spec alone.
 */

const DECLARED_CHECKS = [
  'healthcheck',
  'signature_rejected',
  'reservation',
  'reservation_replay',
  'order',
  'order_duplicate',
  'items_ready',
  'items_stable',
  'items_returned',
  'items_withheld',
  'out_of_stock',
  'reservation_expired',
];
const TOPUP_CHECKS = [
  'healthcheck',
  'signature_rejected',
  'validate_valid',
  'validate_invalid_user',
  'execute_completed',
  'execute_replay',
  'status_poll',
  'execute_failed',
  'execute_retried',
];

const TIMEOUT_MS = 1_000;
const keys = (n: number) => Array.from({ length: n }, (_, i) => `CERT-KEY-${i + 1}`);
const outcomes = (report: any) => Object.fromEntries(report.checks.map((c: any) => [c.name, c.outcome]));

describe('go-live certification', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({
      reservationMs: TIMEOUT_MS,
      orderMs: TIMEOUT_MS,
      pollMs: TIMEOUT_MS,
      cancelMs: TIMEOUT_MS,
      healthcheckMs: TIMEOUT_MS,
      validateMs: TIMEOUT_MS,
      executeMs: TIMEOUT_MS,
      statusMs: TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const certify = async (s: { api: Seller['api']; offerId: string }) => {
    const res = await s.api.post(`/offers/${s.offerId}/certification`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const declared = async () => w.seller(await w.gameKey(), 1234, { stock: { '*': keys(20) } });
  const topup = async () => w.seller(await w.topupProduct(), 500);

  it('the reference kit passes every declared-stock check; the report shows each request and answer, never a secret', async () => {
    const s = await declared();
    const healthBefore = await w.health(s);
    const offerEventsBefore = (await w.events(`offer-${s.offerId}`)).length;
    const report = await certify(s);

    expect(report.checks.map((c: any) => c.name)).toEqual(DECLARED_CHECKS);
    expect(report.checks.filter((c: any) => !c.passed).map((c: any) => `${c.name}: ${c.detail}`)).toEqual([]);
    expect(report).toMatchObject({
      kind: 'declared',
      base_url: s.kit.url,
      offer_id: s.offerId,
      passed: true,
      summary: { passed: 12, failed: 0, skipped: 0 },
    });

    const byName = Object.fromEntries(report.checks.map((c: any) => [c.name, c]));
    const reserve = byName.reservation.exchanges[0];
    expect(reserve).toMatchObject({
      method: 'POST',
      path: '/reservations',
      signed_with: 'offer_secret',
      response: { status: 201 },
      failure: null,
      timeout_ms: TIMEOUT_MS,
      within_timeout: true,
    });
    expect(reserve.body).toMatchObject({
      offer_id: s.offerId,
      external_ref: s.externalRef,
      quantity: 2,
      buyer_country: 'DE',
    });
    expect(byName.reservation_replay.exchanges[0].response).toEqual({ status: 200, body: reserve.response.body });
    expect(byName.signature_rejected.exchanges[0]).toMatchObject({
      signed_with: 'wrong_secret',
      response: { status: 401, body: { code: 'invalid_signature' } },
    });
    const order = byName.order.exchanges[0];
    expect(order.body.unit_price).toEqual({ amount: 1234, currency: 'EUR' });
    expect(byName.order_duplicate.exchanges[0].response).toEqual({ status: 409, body: order.response.body });
    expect(byName.items_ready.exchanges.at(-1).response.body.items).toHaveLength(2);
    expect(byName.items_returned.exchanges[0].response).toEqual({
      status: 200,
      body: { order_id: order.body.order_id, returned: 2 },
    });
    expect(byName.out_of_stock.exchanges[0].response).toEqual({ status: 409, body: { code: 'out_of_stock' } });
    expect(byName.out_of_stock.exchanges[0].body.quantity).toBe(1_000_001);
    expect(byName.reservation_expired.exchanges.map((e: any) => e.response.status)).toEqual([201, 410]);
    expect(byName.healthcheck.exchanges[0].timeout_ms).toBe(TIMEOUT_MS);

    const text = JSON.stringify(report);
    expect(text).not.toContain(s.secret);
    expect(text).not.toContain('svcsec_');
    expect(text).not.toMatch(/x-svc-signature|v1=/i);

    // the real offer is untouched: no health outcome, no order, no ledger entry; the kit's keys are all back
    expect(await w.health(s)).toEqual(healthBefore);
    expect((await w.events(`offer-${s.offerId}`)).length).toBe(offerEventsBefore);
    expect(await w.svc.services.db.selectFrom('orders').select('id').execute()).toEqual([]);
    const ledger = await w.svc.services.db
      .selectFrom('es_events' as any)
      .select('stream_id' as any)
      .where('stream_id' as any, 'like', 'ledger%')
      .execute();
    expect(ledger).toEqual([]);
    expect(s.kit.state.stock['*']).toHaveLength(20);
    const recorded = await w.events(`certifications-${s.supplierId}`);
    expect(recorded.map((e) => [e.type, e.data.passed, e.data.baseUrl, e.data.kind])).toEqual([
      ['CertificationCompleted', true, s.kit.url, 'declared'],
    ]);
  });

  it('the reference kit passes every top-up check with the sandbox users', async () => {
    const s = await topup();
    const report = await certify(s);
    expect(report.checks.filter((c: any) => !c.passed).map((c: any) => `${c.name}: ${c.detail}`)).toEqual([]);
    expect(report.checks.map((c: any) => c.name)).toEqual(TOPUP_CHECKS);
    expect(report).toMatchObject({ kind: 'topup', passed: true });
    const byName = Object.fromEntries(report.checks.map((c: any) => [c.name, c]));
    expect(byName.validate_invalid_user.exchanges[0].response.body).toMatchObject({
      valid: false,
      code: 'invalid_user_id',
    });
    expect(byName.execute_failed.exchanges.map((e: any) => e.response.body.status ?? e.response.body.valid)).toEqual([
      true,
      'failed',
    ]);
    expect(byName.execute_replay.exchanges[0].response.status).toBe(200);
    // every execute of the run performed at most one top-up
    expect(Object.values(s.kit.state.operations).every((op: any) => op.executions <= 1)).toBe(true);
    expect(s.kit.state.topups_performed).toBe(2); // 100001 and 777777; 888888 failed
  });

  const declaredFaults: [string, KitRoute, KitFault, string][] = [
    ['a failing healthcheck', 'GET /healthcheck', { kind: 'status', status: 503 }, 'healthcheck'],
    ['a hanging healthcheck', 'GET /healthcheck', { kind: 'hang' }, 'healthcheck'],
    ['a 503 reservation', 'POST /reservations', { kind: 'status', status: 503, times: 1 }, 'reservation'],
    [
      'a reservation slower than its timeout',
      'POST /reservations',
      { kind: 'delay', ms: TIMEOUT_MS + 500, times: 1 },
      'reservation',
    ],
    [
      'a reservation answered with a body that is not JSON',
      'POST /reservations',
      { kind: 'malformed', status: 201, times: 1 },
      'reservation',
    ],
    ['an order refused as expired', 'POST /orders', { kind: 'reservation_expired', times: 1 }, 'order'],
    ['an order answered 500', 'POST /orders', { kind: 'status', status: 500, times: 1 }, 'order'],
    [
      'an order answer without order_id',
      'POST /orders',
      { kind: 'status', status: 201, body: { status: 'accepted' }, process: true, times: 1 },
      'order',
    ],
    ['items with one too many', 'GET /orders/:id/items', { kind: 'wrong_count', delta: 1 }, 'items_ready'],
    ['items with one too few', 'GET /orders/:id/items', { kind: 'wrong_count', delta: -1 }, 'items_ready'],
    ['items that stay pending', 'GET /orders/:id/items', { kind: 'stay_pending' }, 'items_ready'],
    ['a hanging items poll', 'GET /orders/:id/items', { kind: 'hang' }, 'items_ready'],
    ['a failing item return', 'DELETE /orders/:id/items', { kind: 'status', status: 500 }, 'items_returned'],
  ];

  for (const [name, route, fault, failing] of declaredFaults)
    it(`the kit with ${name} (${route} ${fault.kind}) fails ${failing}`, async () => {
      const s = await declared();
      s.kit.faults.set(route, fault);
      const report = await certify(s);
      expect(report.passed).toBe(false);
      const failed = report.checks.filter((c: any) => c.outcome === 'fail').map((c: any) => c.name);
      expect(failed[0]).toBe(failing);
      const check = report.checks.find((c: any) => c.name === failing);
      expect(check.detail).toEqual(expect.any(String));
      if (fault.kind === 'hang' || fault.kind === 'delay')
        expect(check.exchanges.some((e: any) => e.within_timeout === false && e.failure?.reason === 'timeout')).toBe(
          true,
        );
      // checks that depend on the failed one are reported as skipped, not run
      if (failing === 'reservation')
        expect(outcomes(report)).toMatchObject({
          reservation_replay: 'skipped',
          order: 'skipped',
          reservation_expired: 'skipped',
          out_of_stock: 'pass',
        });
    });

  it('a duplicate POST /orders answered with another body than the original fails order_duplicate', async () => {
    let kit: Seller['kit'] | undefined; // eslint-disable-line prefer-const -- assigned once the seller exists, read by its hook
    // armed once the first POST /orders was answered, so only the duplicate gets the other body
    const s = await w.seller(await w.gameKey(), 1234, {
      stock: { '*': keys(20) },
      onRequest: (r) => {
        if (r.route === 'POST /orders' && r.status === 201)
          kit!.faults.set('POST /orders', { kind: 'status', status: 409, body: { code: 'duplicate' }, times: 1 });
      },
    });
    kit = s.kit;
    const report = await certify(s);
    expect(outcomes(report)).toMatchObject({ order: 'pass', order_duplicate: 'fail' });
    expect(report.checks.find((c: any) => c.name === 'order_duplicate').exchanges[0].response).toEqual({
      status: 409,
      body: { code: 'duplicate' },
    });
  });

  it('a pending_stock answer (202) is a legal order answer: the run passes', async () => {
    const s = await declared();
    s.kit.faults.set('POST /orders', { kind: 'pending_stock', times: 1 });
    const report = await certify(s);
    expect(report.checks.filter((c: any) => !c.passed).map((c: any) => c.name)).toEqual([]);
    expect(report.checks.find((c: any) => c.name === 'order').exchanges[0].response.status).toBe(202);
  });

  const topupFaults: [string, KitRoute, KitFault, string][] = [
    [
      'validate refusing 100001',
      'POST /topup/validate',
      { kind: 'validate_invalid', code: 'account_ineligible', times: 1 },
      'validate_valid',
    ],
    ['a validate answered 500', 'POST /topup/validate', { kind: 'status', status: 500, times: 1 }, 'validate_valid'],
    ['an execute that fails', 'POST /topup/execute', { kind: 'topup_failed', times: 1 }, 'execute_completed'],
    [
      'an execute slower than its timeout',
      'POST /topup/execute',
      { kind: 'delay', ms: TIMEOUT_MS + 500, times: 1 },
      'execute_completed',
    ],
    [
      'an execute whose answer is lost (processed, 500)',
      'POST /topup/execute',
      { kind: 'status', status: 500, process: true, times: 1 },
      'execute_completed',
    ],
    ['a healthcheck that is not JSON', 'GET /healthcheck', { kind: 'malformed' }, 'healthcheck'],
  ];
  for (const [name, route, fault, failing] of topupFaults)
    it(`the kit with ${name} (${route} ${fault.kind}) fails ${failing}`, async () => {
      const s = await topup();
      s.kit.faults.set(route, fault);
      const report = await certify(s);
      expect(report.passed).toBe(false);
      expect(report.checks.filter((c: any) => c.outcome === 'fail').map((c: any) => c.name)[0]).toBe(failing);
    });

  it('an asynchronous execute (202, then processing) passes through the status polls', async () => {
    const s = await topup();
    s.kit.faults.set('POST /topup/execute', { kind: 'topup_processing', settleAfterMs: 2_500, times: 1 });
    const report = await certify(s);
    expect(report.checks.filter((c: any) => !c.passed).map((c: any) => `${c.name}: ${c.detail}`)).toEqual([]);
    const execute = report.checks.find((c: any) => c.name === 'execute_completed');
    expect(execute.exchanges.map((e: any) => `${e.method} ${e.response.status} ${e.response.body.status}`)).toEqual([
      'POST 202 processing',
      'GET 200 processing',
      'GET 200 processing',
      'GET 200 completed',
    ]);
  });

  it('an async execute whose status endpoint fails fails execute_completed', async () => {
    const s = await topup();
    s.kit.faults.set('POST /topup/execute', { kind: 'topup_processing', settleAfterMs: 60_000, times: 1 });
    s.kit.faults.set('GET /topup/operations/:id', { kind: 'status', status: 500 });
    const report = await certify(s);
    expect(outcomes(report)).toMatchObject({
      execute_completed: 'fail',
      execute_replay: 'skipped',
      status_poll: 'skipped',
    });
  });

  describe('a supplier written from the spec alone', () => {
    const specSeller = async (options: { verifySignatures?: boolean; unlimited?: boolean } = {}) => {
      const server = await startSpecSupplier({
        secret: 'none yet',
        now: () => w.svc.clock.now().getTime(),
        stock: 10,
        ...options,
      });
      const supplier = await w.svc.newSupplier('Spec Supplier');
      const offer = await supplier.api.post('/offers', {
        product_id: await w.gameKey(),
        stock_mode: 'declared',
        price: { amount: 999, currency: 'EUR' },
        external_ref: 'SPEC-1',
        fulfilment: { base_url: server.url },
        declared_stock: 10,
      });
      expect(offer.status, offer.text).toBe(201);
      server.setSecret(offer.body.fulfilment.secret);
      return { server, api: supplier.api, offerId: offer.body.id as string };
    };

    it('passes every check, and its stock is whole again afterwards', async () => {
      const { server, api, offerId } = await specSeller();
      try {
        const report = await certify({ api, offerId });
        expect(report.checks.filter((c: any) => !c.passed).map((c: any) => `${c.name}: ${c.detail}`)).toEqual([]);
        expect(report.passed).toBe(true);
        expect(server.stock()).toBe(10);
      } finally {
        await server.close();
      }
    });

    it('one that skips signature verification fails signature_rejected', async () => {
      const { server, api, offerId } = await specSeller({ verifySignatures: false });
      try {
        const report = await certify({ api, offerId });
        expect(report.checks.filter((c: any) => !c.passed).map((c: any) => c.name)).toEqual(['signature_rejected']);
        expect(report.checks[1].detail).toMatch(/HTTP 201: a wrongly signed request was accepted/);
        // the accepted reservation was released again
        expect(
          report.checks[1].exchanges.map((e: any) => `${e.method} ${e.path.split('/')[1]} ${e.response.status}`),
        ).toEqual(['POST reservations 201', 'DELETE reservations 200']);
        expect(server.stock()).toBe(10);
      } finally {
        await server.close();
      }
    });

    it('one that never runs out of stock fails out_of_stock', async () => {
      const { server, api, offerId } = await specSeller({ unlimited: true });
      try {
        const report = await certify({ api, offerId });
        expect(report.checks.filter((c: any) => !c.passed).map((c: any) => c.name)).toEqual(['out_of_stock']);
      } finally {
        await server.close();
      }
    });
  });

  it("refuses an uploaded offer (409 stock_mode_mismatch) and another supplier's offer (404), recording nothing", async () => {
    const s = await declared();
    const other = await w.svc.newSupplier('Other');
    const foreign = await other.api.post(`/offers/${s.offerId}/certification`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const uploaded = await other.api.post('/offers', {
      product_id: await w.gameKey(),
      stock_mode: 'uploaded',
      price: { amount: 100, currency: 'EUR' },
      external_ref: 'U-1',
    });
    const res = await other.api.post(`/offers/${uploaded.body.id}/certification`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('stock_mode_mismatch');
    expect(await w.events(`certifications-${other.id}`)).toEqual([]);
    expect(s.kit.received).toEqual([expect.objectContaining({ route: 'GET /healthcheck' })]); // the activation probe only
  });

  it('an Idempotency-Key replay answers the first report without calling the supplier again', async () => {
    const s = await declared();
    const first = await s.api.post(`/offers/${s.offerId}/certification`, undefined, {
      headers: { 'idempotency-key': 'cert-key-1' },
    });
    const calls = s.kit.received.length;
    const again = await s.api.post(`/offers/${s.offerId}/certification`, undefined, {
      headers: { 'idempotency-key': 'cert-key-1' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(s.kit.received.length).toBe(calls);
  });
});
