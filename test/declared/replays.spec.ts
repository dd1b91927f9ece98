import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, eur, startWorld, type World } from './support.js';
import type { TimerKind } from '../../src/processes/timer-kinds.js';
import { setFaultHook } from '../../src/faults.js';

/**
 * Every step of the supplier contracts runs on a durable timer and may run again: a crash
 * after its work but before its timer row is deleted hands it to the next claim. Running a
 * finished step again must change nothing: no second sale, no second item, no second top-up.
 */
describe('contract steps run twice', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300, orderMs: 300, pollMs: 300, cancelMs: 300, executeMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const again = async (kind: string, key: string, payload: unknown) => {
    // a replay of a step as its timer would run it again: kind and payload as the test names them
    await w.svc.services.timers.schedule(kind as TimerKind, key, w.svc.clock.now(), payload as never);
    await w.svc.drain();
  };

  it('POST /orders, the poll and the capture again after delivery: nothing more happens', async () => {
    const product = await w.gameKey();
    const s = await w.seller(product, 1000);
    const placed = await w.place(product);
    const item = placed.items[0].id;
    await w.pay(placed.id);
    expect((await w.order(placed.id)).status).toBe('completed');
    const before = s.kit.received.length;
    await again('declared.start', placed.id, {});
    await again('declared.order', `${item}:1`, {
      orderId: placed.id,
      orderItemId: item,
      attempt: 1,
      firstAt: w.svc.clock.now().toISOString(),
    });
    await again('declared.poll', item, { orderId: placed.id });
    await again('order.provision', placed.id, {});
    expect(s.kit.received.length).toBe(before);
    expect(await w.entryTypes(placed.id)).toEqual(['sale']);
    expect(await w.events(`order-${placed.id}`, 'OrderPaid')).toHaveLength(1);
  });

  it('a poll that delivered and stopped before its capture: its timer runs again and captures', async () => {
    const product = await w.gameKey();
    await w.seller(product, 1000, { allocationDelayMs: 20_000 });
    const placed = await w.place(product);
    let stopped = false;
    // the poll's step stops after the delivery's health outcome, before its capture
    setFaultHook((point) => {
      if (stopped || point !== 'after-health-outcome') return;
      stopped = true;
      throw new Error('the process stopped here');
    });
    try {
      await w.pay(placed.id);
      for (const seconds of [10, 10, 20]) await w.svc.advance(seconds);
    } finally {
      setFaultHook(undefined);
    }
    expect(stopped).toBe(true);
    // the stop as the timers logged it: expected here, so taken out of the run's server errors
    const logged = w.svc.logs.filter(
      (l) => (l.err as { message?: string } | undefined)?.message === 'the process stopped here',
    );
    expect(logged.map((l) => l.msg)).toEqual(['timer failed; retrying later']);
    for (const l of logged) w.svc.logs.splice(w.svc.logs.indexOf(l), 1);
    expect((await w.order(placed.id)).items.map((i: { status: string }) => i.status)).toEqual(['delivered']);
    // the poll's timer comes due again after its backoff
    for (let i = 0; i < 5; i++) await w.svc.advance(60);
    expect((await w.order(placed.id)).status).toBe('completed');
    expect(await w.entryTypes(placed.id)).toEqual(['sale']);
  });

  it('the cancellation of a missed item again: the item is not rerouted a second time', async () => {
    const product = await w.gameKey();
    const slow = await w.seller(product, 700, { manualAllocation: true });
    const first = await w.seller(product, 700);
    const second = await w.seller(product, 700);
    const placed = await w.place(product);
    expect(placed.items[0].offer_id).toBe(slow.offerId);
    await w.pay(placed.id);
    await w.svc.advance(600);
    let order = await w.order(placed.id);
    expect(order.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [slow.offerId, 'cancelled'],
      [first.offerId, 'delivered'],
    ]);
    await again('declared.cancelled', placed.items[0].id, { orderId: placed.id, reason: 'missed_window' });
    order = await w.order(placed.id);
    expect(order.items.map((i: any) => [i.offer_id, i.status])).toEqual([
      [slow.offerId, 'cancelled'],
      [first.offerId, 'delivered'],
    ]);
    expect(order.totals.gross).toEqual(eur(700));
    expect(calls(second.kit, 'POST /reservations')).toEqual([]);
  });

  it('an executed top-up again: no second execute call', async () => {
    const product = await w.topupProduct();
    const s = await w.seller(product, 500, { topupAccounts: { '123456': { label: 'Ada' } } });
    const placed = await w.place(product, { formFields: { user_id: '123456' } });
    await w.pay(placed.id);
    expect((await w.order(placed.id)).status).toBe('completed');
    await again('topup.start', placed.id, {});
    await again('topup.execute', `${placed.items[0].id}:1`, {
      orderId: placed.id,
      orderItemId: placed.items[0].id,
      attempt: 1,
      firstAt: w.svc.clock.now().toISOString(),
    });
    await again('topup.post-sale', placed.items[0].id, { orderId: placed.id });
    expect(calls(s.kit, 'POST /topup/execute')).toHaveLength(1);
    expect(s.kit.state.topups_performed).toBe(1);
    expect(await w.entryTypes(placed.id)).toEqual(['sale']);
  });
});
