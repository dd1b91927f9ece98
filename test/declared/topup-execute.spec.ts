import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, calls, eur, secondsAfter, startWorld, type Seller, type World } from './support.js';

const PLAYER = { user_id: '123456' };

/**
 * After capture, POST /topup/execute (30 s per attempt, lowered here; 3 attempts 10 s
 * apart; idempotent on operation_id): 201 completed with receipt_ref; 200 replay; 202
 * processing, then GET /topup/operations/{id} every 10 s for a minute and every 30 s until
 * 15 minutes; `failed` refunds the buyer, -25 and a cooldown; unresolved at 15 minutes is a
 * failure. A validation older than 15 minutes is redone with a fresh operation_id.
 */
describe('POST /topup/execute and the status polls', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ validateMs: 300, executeMs: 300, statusMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const topupSeller = (product: string, price = 500) =>
    w.seller(product, price, { topupAccounts: { '123456': { label: 'Ada' } }, declaredStock: 100 });
  const operationsOf = (s: Seller) =>
    Object.values(s.kit.state.operations).map((o) => ({ status: o.status, executions: o.executions, calls: o.calls }));
  const entries = (orderId: string) => w.entryTypes(orderId);
  /** A failed top-up: the buyer refunded, no sale, -25 and a 2-hour cooldown from `at`. */
  const expectFailed = async (s: Seller, orderId: string, at: number, score = 75) => {
    const order = (await s.api.get(`/orders/${orderId}`)).body;
    expect([order.status, order.items.map((i: any) => i.status), order.items[0].fulfilment.receipt_ref]).toEqual([
      'refunded',
      ['refunded'],
      null,
    ]);
    expect(await entries(orderId)).toEqual([]);
    expect(await w.health(s)).toEqual({
      score,
      routing_eligible: false,
      cooldown_until: new Date(at + 2 * 3600_000).toISOString(),
    });
  };

  it('201 completed: the receipt is stored and shown, the sale is posted; validate and execute carry the same operation_id', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER, quantity: 3 });
    const paidAt = w.svc.clock.now().getTime();
    await w.pay(placed.id);
    const [execute] = calls(s.kit, 'POST /topup/execute');
    expect([execute!.status, execute!.at - paidAt, bodyOf(execute!)]).toEqual([
      201,
      0,
      {
        operation_id: placed.items[0].fulfilment.operation_id,
        order_id: placed.id,
        offer_id: s.offerId,
        external_ref: s.externalRef,
        quantity: 3,
        form_fields: PLAYER,
      },
    ]);
    const receipt = s.kit.state.operations[placed.items[0].fulfilment.operation_id]!.receipt_ref!;
    expect(receipt).toMatch(/^RCPT-[0-9A-F]{20}$/i);
    for (const view of [(await s.api.get(`/orders/${placed.id}`)).body, await w.order(placed.id)]) {
      expect([
        view.status,
        view.items[0].status,
        view.items[0].fulfilment.receipt_ref,
        view.items[0].fulfilment.account_label,
      ]).toEqual(['completed', 'delivered', receipt, 'Ada']);
    }
    expect(operationsOf(s)).toEqual([{ status: 'completed', executions: 1, calls: 1 }]);
    expect(await entries(placed.id)).toEqual(['sale']);
    expect((await s.api.get('/balance')).body.pending).toEqual(eur(1500 - 128));
  });

  it('a receipt_ref over 128 characters is not a completion: retried, then polled', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    const op = placed.items[0].fulfilment.operation_id;
    s.kit.faults.set('POST /topup/execute', {
      kind: 'status',
      status: 201,
      body: { operation_id: op, status: 'completed', receipt_ref: 'R'.repeat(129) },
      times: 1,
    });
    await w.pay(placed.id);
    expect((await w.order(placed.id)).items[0].fulfilment.receipt_ref).toBeNull();
    await w.svc.advance(10);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual([
      'completed',
      s.kit.state.operations[op]!.receipt_ref,
    ]);
    expect(calls(s.kit, 'POST /topup/execute').map((r) => r.status)).toEqual([201, 201]);
  });

  it('three attempts 10 s apart (timeout, 503, then 201)', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    s.kit.faults.set('POST /topup/execute', { kind: 'hang', times: 1 });
    const started = performance.now();
    await w.pay(placed.id);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    s.kit.faults.set('POST /topup/execute', { kind: 'status', status: 503, times: 1 });
    await w.svc.advance(10);
    await w.svc.advance(10);
    const attempts = calls(s.kit, 'POST /topup/execute');
    expect(attempts.map((r) => r.status)).toEqual([undefined, 503, 201]);
    expect(secondsAfter(attempts[0]!.at, attempts)).toEqual([0, 10, 20]);
    expect(new Set(attempts.map((r) => bodyOf(r).operation_id)).size).toBe(1);
    expect((await w.order(placed.id)).status).toBe('completed');
    expect(operationsOf(s)).toEqual([{ status: 'completed', executions: 1, calls: 1 }]);
    expect((await w.health(s)).score).toBe(100);
  });

  it('200 replay: an answer lost after the top-up happened (a crash between execute and its recorded result); the retry is a replay, one top-up', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    s.kit.faults.set('POST /topup/execute', { kind: 'status', status: 502, process: true, times: 1 });
    await w.pay(placed.id);
    expect(operationsOf(s)).toEqual([{ status: 'completed', executions: 1, calls: 1 }]);
    expect((await w.order(placed.id)).status).toBe('paid');
    await w.svc.advance(10);
    expect(calls(s.kit, 'POST /topup/execute').map((r) => r.status)).toEqual([502, 200]);
    const op = s.kit.state.operations[placed.items[0].fulfilment.operation_id]!;
    expect([op.executions, op.calls, s.kit.state.topups_performed]).toEqual([1, 2, 1]);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual(['completed', op.receipt_ref]);
  });

  it('202 processing: polled every 10 s for a minute, then every 30 s; completed by a poll', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    s.kit.faults.set('POST /topup/execute', { kind: 'topup_processing', times: 1 });
    const placed = await w.place(product, { formFields: PLAYER });
    await w.pay(placed.id);
    const executedAt = calls(s.kit, 'POST /topup/execute')[0]!.at;
    expect((await w.order(placed.id)).status).toBe('paid');
    for (let t = 0; t < 150; t += 5) await w.svc.advance(5);
    const polls = calls(s.kit, 'GET /topup/operations/:id');
    expect(secondsAfter(executedAt, polls)).toEqual([10, 20, 30, 40, 50, 60, 90, 120, 150]);
    expect(
      polls.every((r) => r.path === `/topup/operations/${placed.items[0].fulfilment.operation_id}` && r.status === 200),
    ).toBe(true);
    s.kit.settleOperation(placed.items[0].fulfilment.operation_id);
    await w.svc.advance(30);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].fulfilment.receipt_ref]).toEqual([
      'completed',
      s.kit.state.operations[placed.items[0].fulfilment.operation_id]!.receipt_ref,
    ]);
    expect(calls(s.kit, 'POST /topup/execute')).toHaveLength(1);
    expect(await entries(placed.id)).toEqual(['sale']);
    await w.svc.advance(300);
    expect(calls(s.kit, 'GET /topup/operations/:id')).toHaveLength(10);
  });

  it('202 processing, then failed: the buyer is refunded, -25 and a cooldown', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    s.kit.faults.set('POST /topup/execute', {
      kind: 'topup_processing',
      settleAfterMs: 25_000,
      outcome: { code: 'account_banned', message: 'banned' },
      times: 1,
    });
    const placed = await w.place(product, { formFields: PLAYER });
    await w.pay(placed.id);
    await w.svc.advance(10);
    await w.svc.advance(10);
    expect((await w.order(placed.id)).status).toBe('paid');
    await w.svc.advance(10);
    await expectFailed(s, placed.id, w.svc.clock.now().getTime());
    expect(secondsAfter(calls(s.kit, 'POST /topup/execute')[0]!.at, calls(s.kit, 'GET /topup/operations/:id'))).toEqual(
      [10, 20, 30],
    );
    expect(s.kit.state.topups_performed).toBe(0);
  });

  it('failed answered by execute (201 or 200): refunded at once, -25 and a cooldown, no retry', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const second = await topupSeller(product, 600);
    for (const status of [201, 200] as const) {
      s.kit.faults.set('POST /topup/execute', {
        kind: 'topup_failed',
        code: 'account_banned',
        message: 'banned',
        status,
        times: 1,
      });
      const placed = await w.place(product, { formFields: PLAYER });
      expect(placed.items[0].offer_id).toBe(s.offerId);
      await w.pay(placed.id);
      await expectFailed(s, placed.id, w.svc.clock.now().getTime(), status === 201 ? 75 : 45);
      expect(calls(s.kit, 'POST /topup/execute').at(-1)!.status).toBe(status);
      await w.svc.advance(60);
      expect(
        calls(s.kit, 'POST /topup/execute').filter(
          (r) => bodyOf(r).operation_id === placed.items[0].fulfilment.operation_id,
        ),
      ).toHaveLength(1);
      // in its cooldown the offer is skipped; the next order goes elsewhere
      expect((await w.place(product, { formFields: PLAYER })).items[0].offer_id).toBe(second.offerId);
      await w.svc.advance(2 * 3600);
      if (status === 201)
        expect(await w.health(s)).toEqual({ score: 70, routing_eligible: true, cooldown_until: null });
    }
    expect(s.kit.state.topups_performed).toBe(0);
  });

  it('every attempt failing and the status unresolved at 15 minutes: failed, refunded, -25 and a cooldown', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    s.kit.faults.set('POST /topup/execute', { kind: 'status', status: 503 });
    const placed = await w.place(product, { formFields: PLAYER });
    await w.pay(placed.id);
    const firstAt = calls(s.kit, 'POST /topup/execute')[0]!.at;
    // 10-second steps through the first two minutes, then 30-second ones
    for (let t = 10; t <= 120; t += 10) await w.svc.advance(10);
    for (let t = 150; t < 900; t += 30) await w.svc.advance(30);
    expect((await w.order(placed.id)).status).toBe('paid');
    await w.svc.advance(30);
    expect(secondsAfter(firstAt, calls(s.kit, 'POST /topup/execute'))).toEqual([0, 10, 20]);
    const polls = calls(s.kit, 'GET /topup/operations/:id');
    const expected = [30, 40, 50, 60];
    for (let t = 90; t <= 900; t += 30) expected.push(t);
    expect(secondsAfter(firstAt, polls)).toEqual(expected);
    expect(polls.every((r) => r.status === 404)).toBe(true); // the supplier never took it
    await expectFailed(s, placed.id, firstAt + 900_000);
    s.kit.faults.clear();
    await w.svc.advance(600);
    expect(calls(s.kit, 'POST /topup/execute')).toHaveLength(3);
  });

  it('a validation older than 15 minutes is redone with a fresh operation_id; only the latest one is executed', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    const firstOp = placed.items[0].fulfilment.operation_id;
    w.svc.clock.advance(14 * 60);
    await w.svc.operator.post(`/orders/${placed.id}/pay`);
    w.svc.clock.advance(60 + 1); // the execute runs more than 15 minutes after validation
    await w.svc.drain();
    const validates = calls(s.kit, 'POST /topup/validate').map((r) => bodyOf(r).operation_id);
    expect(validates).toHaveLength(2);
    expect(validates[0]).toBe(firstOp);
    expect(validates[1]).not.toBe(firstOp);
    expect(calls(s.kit, 'POST /topup/execute').map((r) => bodyOf(r).operation_id)).toEqual([validates[1]]);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].fulfilment.operation_id]).toEqual(['completed', validates[1]]);
    expect(Object.keys(s.kit.state.operations)).toEqual([validates[1]]);
  });

  it('exactly 15 minutes is not yet stale: no second validation', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    w.svc.clock.advance(14 * 60);
    await w.svc.operator.post(`/orders/${placed.id}/pay`);
    w.svc.clock.advance(60);
    await w.svc.drain();
    expect(calls(s.kit, 'POST /topup/validate')).toHaveLength(1);
    expect(calls(s.kit, 'POST /topup/execute').map((r) => bodyOf(r).operation_id)).toEqual([
      placed.items[0].fulfilment.operation_id,
    ]);
  });

  it('a re-validation the supplier refuses refunds the buyer without an execute; the supplier is not charged an execute failure', async () => {
    const product = await w.topupProduct();
    const s = await topupSeller(product);
    const placed = await w.place(product, { formFields: PLAYER });
    w.svc.clock.advance(14 * 60);
    await w.svc.operator.post(`/orders/${placed.id}/pay`);
    w.svc.clock.advance(2 * 60);
    s.kit.faults.set('POST /topup/validate', { kind: 'validate_invalid', code: 'account_ineligible', times: 1 });
    await w.svc.drain();
    expect(calls(s.kit, 'POST /topup/execute')).toEqual([]);
    const order = await w.order(placed.id);
    expect([order.status, order.items[0].status]).toEqual(['refunded', 'refunded']);
    expect(await w.health(s)).toEqual({ score: 100, routing_eligible: true, cooldown_until: null });
  });
});
