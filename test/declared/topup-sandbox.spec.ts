import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, calls, startWorld, type Seller, type World } from './support.js';

/**
 * The sandbox's fixed top-up paths on `user_id` (POST /sandbox/orders), against the kit's
 * real endpoints: 100001 validates and executes cleanly; 999999 is refused with
 * invalid_user_id by the service itself (no validate reaches the supplier); 888888 validates
 * for real, then the service records the execute as failed without calling it (refund, -25,
 * cooldown); 777777 has its first execute answer discarded and the retry is a replay: one
 * top-up. And exactly one top-up when an answer is lost after the supplier carried it out.
 */
describe('sandbox top-up paths and exactly-once execution', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ validateMs: 300, executeMs: 300, statusMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const sandboxOrder = (s: Seller, userId: string) =>
    s.api.post('/sandbox/orders', {
      offer_id: s.offerId,
      quantity: 1,
      buyer_country: 'DE',
      form_fields: { user_id: userId },
    });
  const contractCalls = (s: Seller) =>
    s.kit.received.filter((r) => r.route !== 'GET /healthcheck').map((r) => `${r.route} ${r.status}`);

  it('100001: validates and executes cleanly through the supplier endpoints', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await sandboxOrder(s, '100001');
    expect(res.status, res.text).toBe(201);
    expect(res.body.items[0].fulfilment.account_label).toBe('Sandbox player 100001');
    await w.svc.drain();
    const order = (await s.api.get(`/orders/${res.body.id}`)).body;
    const op = res.body.items[0].fulfilment.operation_id;
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual([
      'completed',
      s.kit.state.operations[op]!.receipt_ref,
    ]);
    expect(contractCalls(s)).toEqual(['POST /topup/validate 200', 'POST /topup/execute 201']);
    expect([s.kit.state.operations[op]!.executions, s.kit.state.topups_performed]).toEqual([1, 1]);
  });

  it('999999: refused with invalid_user_id, and no validate reaches the supplier', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await sandboxOrder(s, '999999');
    expect([res.status, res.body.code, res.body.supplier_code]).toEqual([422, 'topup_invalid', 'invalid_user_id']);
    // the storefront checkout in the sandbox takes the same path
    const checkout = await w.checkout((await w.offer(s)).product_id, { formFields: { user_id: '999999' } });
    expect([checkout.status, checkout.body.supplier_code]).toEqual([422, 'invalid_user_id']);
    await w.svc.drain();
    expect(contractCalls(s)).toEqual([]);
    expect((await w.health(s)).score).toBe(100);
    const orders = (await s.api.get('/orders')).body.data;
    expect(orders).toEqual([]);
  });

  it('888888: validate reaches the supplier, execute does not; the buyer is refunded, -25 and a cooldown', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await sandboxOrder(s, '888888');
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    const order = (await s.api.get(`/orders/${res.body.id}`)).body;
    expect([order.status, order.items[0].status]).toEqual(['refunded', 'refunded']);
    expect(contractCalls(s)).toEqual(['POST /topup/validate 200']);
    expect(s.kit.state.operations).toEqual({});
    expect(await w.health(s)).toEqual({
      score: 75,
      routing_eligible: false,
      cooldown_until: new Date(w.svc.clock.now().getTime() + 2 * 3600_000).toISOString(),
    });
    const failed = await w.events(`order-${res.body.id}`, 'OrderItemTopupFailed');
    expect(failed.map((e) => e.data.code)).toEqual(['topup_failed']);
    expect(await w.entryTypes(res.body.id)).toEqual([]);
  });

  it('777777: the first execute answer is discarded, the retry 10 s later is a replay; the top-up happens exactly once', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await sandboxOrder(s, '777777');
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    const op = res.body.items[0].fulfilment.operation_id;
    expect((await s.api.get(`/orders/${res.body.id}`)).body.status).toBe('paid');
    await w.svc.advance(10);
    const order = (await s.api.get(`/orders/${res.body.id}`)).body;
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual([
      'completed',
      s.kit.state.operations[op]!.receipt_ref,
    ]);
    const executes = calls(s.kit, 'POST /topup/execute');
    expect(executes.map((r) => [r.status, bodyOf(r).operation_id])).toEqual([
      [201, op],
      [200, op],
    ]);
    expect(executes[1]!.at - executes[0]!.at).toBe(10_000);
    expect(s.kit.state.operations[op]!.executions).toBe(1);
    expect(s.kit.state.operations[op]!.calls).toBe(2);
    expect(s.kit.state.topups_performed).toBe(1);
    expect((await w.health(s)).score).toBe(100);
  });

  it('exactly one top-up when the answer is lost after the supplier carried it out (the execute times out on our side)', async () => {
    const s = await w.seller(await w.topupProduct(), 500, { topupAccounts: { '123456': { label: 'Ada' } } });
    s.kit.faults.set('POST /topup/execute', { kind: 'hang', process: true, times: 1 });
    const placed = await w.place((await w.offer(s)).product_id, { formFields: { user_id: '123456' } });
    await w.pay(placed.id);
    const op = placed.items[0].fulfilment.operation_id;
    expect([s.kit.state.operations[op]!.status, s.kit.state.operations[op]!.executions]).toEqual(['completed', 1]);
    expect((await w.order(placed.id)).status).toBe('paid');
    await w.svc.advance(10);
    expect(calls(s.kit, 'POST /topup/execute').map((r) => r.status)).toEqual([undefined, 200]);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual([
      'completed',
      s.kit.state.operations[op]!.receipt_ref,
    ]);
    expect([s.kit.state.operations[op]!.executions, s.kit.state.topups_performed]).toEqual([1, 1]);
    expect(await w.entryTypes(placed.id)).toEqual(['sale']);
  });
});
