import { describe, expect, it } from 'vitest';
import {
  declaredWorkflow,
  healthcheckWorkflow,
  decideHealthcheck,
  deliveryOutcome,
  type FulfilmentAction,
  type FulfilmentState,
  type OrderAttempt,
  type ProcessItem,
} from '../../src/domain/fulfilment-process.js';
import { givenWorkflow } from './given-workflow.js';

/** The spec's table "Supplier-side timeouts and attempts", declared-stock rows, as decisions. */

const given = givenWorkflow(declaredWorkflow);

const t0 = new Date('2026-01-05T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const s = (seconds: number) => at(seconds * 1000);
const min = 60_000;

const declared = (id: string, extra: Partial<ProcessItem> = {}): ProcessItem => ({
  orderItemId: id,
  offerId: `offer-${id}`,
  source: 'declared',
  status: 'reserved',
  supplierOrderedAt: null,
  ...extra,
});
const order = (...items: ProcessItem[]): FulfilmentState => ({ orderId: 'o1', items });
const ordered = declared('i1', { supplierOrderedAt: t0.toISOString() });

const attempt = (n: number, extra: Partial<OrderAttempt> = {}): OrderAttempt => ({
  orderId: 'o1',
  orderItemId: 'i1',
  attempt: n,
  firstAt: t0.toISOString(),
  ...extra,
});
const scheduleOrder = (p: OrderAttempt, key: string, when: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.order',
  key,
  at: when,
  payload: p,
});
const schedulePoll = (when: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.poll',
  key: 'i1',
  at: when,
  payload: { orderId: 'o1' },
});
const scheduleReturn = (id: string, n: number, when: Date): FulfilmentAction => ({
  kind: 'schedule',
  timer: 'declared.return',
  key: `${id}:${n}`,
  at: when,
  payload: { offerId: `offer-${id}`, orderItemId: id, attempt: n },
});

describe('declared stock: POST /orders (10 s, 3 attempts 5 s apart, from payment authorization)', () => {
  it('orders every declared item still reserved and not yet ordered, at once, as attempt 1 of its cycle', () => {
    given(
      order(
        declared('i1'),
        declared('i2', { supplierOrderedAt: t0.toISOString() }),
        declared('i3', { status: 'cancelled' }),
        { ...declared('i4'), source: 'uploaded' },
        { ...declared('i5'), source: 'topup' },
      ),
    )
      .when({ type: 'PaymentAuthorized', now: s(1) })
      .then([
        scheduleOrder({ attempt: 1, orderId: 'o1', orderItemId: 'i1', firstAt: s(1).toISOString() }, 'i1:1', s(1)),
      ]);
  });

  it("a due attempt calls POST /orders with the cycle's first time as orderedAt", () => {
    given(order(declared('i1')))
      .when({ type: 'OrderAttemptDue', attempt: attempt(2), now: s(5) })
      .then([{ kind: 'placeSupplierOrder', attempt: attempt(2) }]);
  });

  it('a due attempt for an item no longer reserved (or gone) does nothing', () => {
    given(order(declared('i1', { status: 'cancelled' })))
      .when({ type: 'OrderAttemptDue', attempt: attempt(1), now: t0 })
      .then([]);
    given(order())
      .when({ type: 'OrderAttemptDue', attempt: attempt(1), now: t0 })
      .then([]);
  });

  it('an item ordered already (its run died before scheduling the polls) starts polling at once instead of ordering again', () => {
    given(order(ordered))
      .when({ type: 'OrderAttemptDue', attempt: attempt(1), now: s(3) })
      .then([schedulePoll(s(3))]);
  });

  it('accepted (201, 202 pending_stock or a 409 duplicate) starts the polls at +0 s', () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1), answer: 'accepted', now: s(2) })
      .then([schedulePoll(s(2))]);
  });

  it('a failed attempt is retried 5 s later, up to the third attempt', () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1), answer: 'failed', now: s(10) })
      .then([scheduleOrder(attempt(2), 'i1:2', s(15))]);
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(2), answer: 'failed', now: s(25) })
      .then([scheduleOrder(attempt(3), 'i1:3', s(30))]);
  });

  it('the third failed attempt costs the offer a call failure and cancels the item as supplier_order_failed', () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(3), answer: 'failed', now: s(40) })
      .then([
        { kind: 'recordOutcome', offerId: 'offer-i1', reason: 'call_failure', cause: 'i1' },
        { kind: 'cancel', orderItemId: 'i1', reason: 'supplier_order_failed' },
      ]);
  });

  it('410 reservation_expired asks for one fresh reservation, held for 15 minutes', () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(2), answer: 'expired', now: s(7) })
      .then([{ kind: 'reserveAgain', attempt: attempt(2), expiresAt: at(7_000 + 15 * min).toISOString() }]);
  });

  it('with the fresh reservation held, the reservation is renewed and a new order cycle starts at attempt 1', () => {
    given(order(declared('i1')))
      .when({ type: 'FreshReservationAnswered', attempt: attempt(2), reservationId: 'r2', now: s(9) })
      .then([
        { kind: 'renewReservation', orderItemId: 'i1', reservationId: 'r2' },
        scheduleOrder(attempt(1, { renewed: true }), 'i1:r1', s(9)),
      ]);
  });

  it('without a fresh reservation the item is cancelled as reservation_expired (no health outcome: the reservation call counted its own)', () => {
    given(order(declared('i1')))
      .when({ type: 'FreshReservationAnswered', attempt: attempt(1), reservationId: null, now: s(9) })
      .then([{ kind: 'cancel', orderItemId: 'i1', reason: 'reservation_expired' }]);
  });

  it('the renewed cycle retries as its own attempts and a second 410 fails over', () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1, { renewed: true }), answer: 'failed', now: s(20) })
      .then([scheduleOrder(attempt(2, { renewed: true }), 'i1:r2', s(25))]);
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1, { renewed: true }), answer: 'expired', now: s(20) })
      .then([
        { kind: 'recordOutcome', offerId: 'offer-i1', reason: 'call_failure', cause: 'i1' },
        { kind: 'cancel', orderItemId: 'i1', reason: 'reservation_expired' },
      ]);
  });
});

describe('declared stock: what an answer changes (evolve)', () => {
  it("the supplier's acceptance records the cycle's first time as the item's supplierOrderedAt, which the polls count from", () => {
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1), answer: 'accepted', now: s(2) })
      .then([schedulePoll(s(2))])
      .state(order(declared('i1', { supplierOrderedAt: t0.toISOString() })));
    // the poll that falls due next polls: the item is ordered now
    given(order(declared('i1')), {
      type: 'SupplierOrderAnswered',
      attempt: attempt(1),
      answer: 'accepted',
      now: s(2),
    })
      .when({ type: 'PollDue', orderItemId: 'i1', now: s(2) })
      .then([{ kind: 'pollItems', orderItemId: 'i1' }]);
  });

  it('an item the order records as ordered already keeps its first time; a failed or expired answer changes nothing', () => {
    const earlier = declared('i1', { supplierOrderedAt: at(-60_000).toISOString() });
    given(order(earlier))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1), answer: 'accepted', now: s(2) })
      .then([schedulePoll(s(2))])
      .state(order(earlier));
    given(order(declared('i1')))
      .when({ type: 'SupplierOrderAnswered', attempt: attempt(1), answer: 'failed', now: s(10) })
      .then([scheduleOrder(attempt(2), 'i1:2', s(15))])
      .state(order(declared('i1')));
  });

  it('every other input leaves the state as it is', () => {
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'ready', now: s(15) })
      .then([{ kind: 'deliver', orderItemId: 'i1' }, { kind: 'capture' }])
      .state(order(ordered));
  });
});

describe('declared stock: polls at +0, +5, +15, +30 s, then every 60 s, inside the 10-minute allocation window', () => {
  it('a due poll calls GET /orders/{id}/items only for an ordered item still reserved', () => {
    given(order(ordered))
      .when({ type: 'PollDue', orderItemId: 'i1', now: t0 })
      .then([{ kind: 'pollItems', orderItemId: 'i1' }]);
    given(order(declared('i1')))
      .when({ type: 'PollDue', orderItemId: 'i1', now: t0 })
      .then([]);
    given(order({ ...ordered, status: 'cancelled' }))
      .when({ type: 'PollDue', orderItemId: 'i1', now: t0 })
      .then([]);
    // delivered by a run of this poll that stopped before its capture: the capture is owed
    given(order({ ...ordered, status: 'delivered' }))
      .when({ type: 'PollDue', orderItemId: 'i1', now: t0 })
      .then([{ kind: 'capture' }]);
    given(order()).when({ type: 'PollDue', orderItemId: 'i1', now: t0 }).then([]);
  });

  it('ready items are delivered, then the payment is captured if every item is provisioned', () => {
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'ready', now: s(15) })
      .then([{ kind: 'deliver', orderItemId: 'i1' }, { kind: 'capture' }]);
  });

  it("while pending, each poll schedules the next at the spec offsets, the last on the window's end", () => {
    const dueTimes: number[] = [];
    let now = t0;
    for (;;) {
      const [action] = declaredWorkflow.decide(
        { type: 'ItemsPolled', orderItemId: 'i1', answer: 'pending', now },
        order(ordered),
      );
      if (action?.kind !== 'pollAgain') break;
      dueTimes.push((action.at.getTime() - t0.getTime()) / 1000);
      now = action.at;
    }
    expect(dueTimes).toEqual([5, 15, 30, 90, 150, 210, 270, 330, 390, 450, 510, 570, 600]);
  });

  it('a late poll (the timer ran behind) takes the next offset still ahead', () => {
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'pending', now: s(7) })
      .then([{ kind: 'pollAgain', at: s(15) }]);
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'pending', now: s(595) })
      .then([{ kind: 'pollAgain', at: s(600) }]);
  });

  it('an unusable answer (an error, a bad item list) is one more pending poll', () => {
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'bad', now: s(30) })
      .then([{ kind: 'pollAgain', at: s(90) }]);
  });

  it('no items when the window closes: the offer takes missed_window and the item is cancelled', () => {
    const missed: FulfilmentAction[] = [
      { kind: 'recordOutcome', offerId: 'offer-i1', reason: 'missed_window', cause: 'i1' },
      { kind: 'cancel', orderItemId: 'i1', reason: 'missed_window' },
    ];
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'pending', now: at(10 * min) })
      .then(missed);
    given(order(ordered))
      .when({ type: 'ItemsPolled', orderItemId: 'i1', answer: 'bad', now: at(10 * min + 1) })
      .then(missed);
  });

  it('items ready within 60 s of the first POST /orders earn fast_delivery, later ones delivery', () => {
    expect(deliveryOutcome(t0, at(0))).toBe('fast_delivery');
    expect(deliveryOutcome(t0, at(60_000))).toBe('fast_delivery');
    expect(deliveryOutcome(t0, at(60_001))).toBe('delivery');
    expect(deliveryOutcome(t0, at(9 * min))).toBe('delivery');
  });
});

describe('declared stock: cancel, return (DELETE, 3 attempts over an hour) and reroute', () => {
  const cancelled = (item: ProcessItem, reason: string) =>
    given(order(item)).when({ type: 'ItemCancelled', orderItemId: item.orderItemId, reason, now: s(1) });

  it('a missed window returns the stock at the supplier, reroutes the item and captures what is left', () => {
    cancelled({ ...ordered, status: 'cancelled' }, 'missed_window').then([
      scheduleReturn('i1', 1, s(1)),
      { kind: 'reroute', orderItemId: 'i1' },
      { kind: 'capture' },
    ]);
  });

  it('after every POST /orders failed the DELETE is sent anyway (a timeout says nothing about the sale)', () => {
    cancelled(declared('i1', { status: 'cancelled' }), 'supplier_order_failed').then([
      scheduleReturn('i1', 1, s(1)),
      { kind: 'reroute', orderItemId: 'i1' },
      { kind: 'capture' },
    ]);
  });

  it('an item never ordered from its supplier has nothing to return', () => {
    cancelled(declared('i1', { status: 'cancelled' }), 'reservation_expired').then([
      { kind: 'reroute', orderItemId: 'i1' },
      { kind: 'capture' },
    ]);
  });

  it('an expired order is not rerouted; a top-up is never rerouted or returned; uploaded items are rerouted', () => {
    cancelled({ ...ordered, status: 'cancelled' }, 'order_expired').then([
      scheduleReturn('i1', 1, s(1)),
      { kind: 'capture' },
    ]);
    cancelled({ ...declared('i1'), source: 'topup', status: 'cancelled' }, 'supplier_order_failed').then([
      { kind: 'capture' },
    ]);
    cancelled({ ...declared('i1'), source: 'uploaded', status: 'cancelled' }, 'missed_window').then([
      { kind: 'reroute', orderItemId: 'i1' },
      { kind: 'capture' },
    ]);
    given(order())
      .when({ type: 'ItemCancelled', orderItemId: 'i1', reason: 'missed_window', now: s(1) })
      .then([]);
  });

  it('a rerouted item goes to its new offer: uploaded keys at once, declared stock through a new order cycle', () => {
    given(order({ ...declared('i2'), source: 'uploaded' }))
      .when({ type: 'ItemRerouted', orderItemId: 'i2', now: s(2) })
      .then([{ kind: 'provision' }]);
    given(order(declared('i2')))
      .when({ type: 'ItemRerouted', orderItemId: 'i2', now: s(2) })
      .then([
        scheduleOrder({ attempt: 1, orderId: 'o1', orderItemId: 'i2', firstAt: s(2).toISOString() }, 'i2:1', s(2)),
      ]);
    given(order(declared('i2', { status: 'cancelled' })))
      .when({ type: 'ItemRerouted', orderItemId: 'i2', now: s(2) })
      .then([]);
  });

  it('a due return calls DELETE /orders/{id}/items', () => {
    const p = { offerId: 'offer-i1', orderItemId: 'i1', attempt: 1 };
    given()
      .when({ type: 'ReturnDue', return: p })
      .then([{ kind: 'returnItems', return: p }]);
  });

  it('a return answered (200, 404 or 405) is done', () => {
    given()
      .when({
        type: 'ReturnAnswered',
        return: { offerId: 'offer-i1', orderItemId: 'i1', attempt: 1 },
        returned: true,
        dueAt: t0,
      })
      .then([]);
  });

  it('an unanswered return is tried at +30 and +60 minutes from the first attempt, then given up', () => {
    given()
      .when({
        type: 'ReturnAnswered',
        return: { offerId: 'offer-i1', orderItemId: 'i1', attempt: 1 },
        returned: false,
        dueAt: t0,
      })
      .then([scheduleReturn('i1', 2, at(30 * min))]);
    // the second attempt ran 5 s late: the third still counts from the first
    given()
      .when({
        type: 'ReturnAnswered',
        return: { offerId: 'offer-i1', orderItemId: 'i1', attempt: 2 },
        returned: false,
        dueAt: at(30 * min + 5_000),
      })
      .then([scheduleReturn('i1', 3, at(60 * min + 5_000))]);
    given()
      .when({
        type: 'ReturnAnswered',
        return: { offerId: 'offer-i1', orderItemId: 'i1', attempt: 3 },
        returned: false,
        dueAt: at(60 * min),
      })
      .then([]);
  });

  it('a refund tells the supplier of each refunded declared item to withhold its keys', () => {
    given(
      order(declared('i1', { status: 'delivered' }), declared('i2', { status: 'delivered' }), {
        ...declared('i3'),
        source: 'uploaded',
      }),
    )
      .when({ type: 'Refunded', orderItemIds: ['i1', 'i3'], now: s(4) })
      .then([scheduleReturn('i1', 1, s(4))]);
  });
});

describe('healthchecks (5 s, every 5 minutes while active, every 10 in cooldown)', () => {
  const active = { stockMode: 'declared' as const, status: 'active' as const, cooldownUntil: null };

  it('only an active declared-stock offer is probed', () => {
    expect(decideHealthcheck({ type: 'HealthcheckDue', offer: active })).toEqual([{ kind: 'probeHealthcheck' }]);
    expect(decideHealthcheck({ type: 'HealthcheckDue', offer: { ...active, stockMode: 'uploaded' } })).toEqual([]);
    expect(decideHealthcheck({ type: 'HealthcheckDue', offer: { ...active, status: 'inactive' } })).toEqual([]);
    expect(decideHealthcheck({ type: 'HealthcheckDue', offer: null })).toEqual([]);
  });

  it('the next run is 5 minutes on, 10 in cooldown, none once the offer is no longer active', () => {
    expect(decideHealthcheck({ type: 'HealthcheckRecorded', offer: active, now: t0 })).toEqual([
      { kind: 'pollAgain', at: at(5 * min) },
    ]);
    expect(
      decideHealthcheck({
        type: 'HealthcheckRecorded',
        offer: { ...active, cooldownUntil: at(120 * min).toISOString() },
        now: t0,
      }),
    ).toEqual([{ kind: 'pollAgain', at: at(10 * min) }]);
    expect(
      decideHealthcheck({ type: 'HealthcheckRecorded', offer: { ...active, status: 'inactive' }, now: t0 }),
    ).toEqual([]);
  });
});

describe('healthchecks as a workflow: each input carries the offer as read or as its result left it', () => {
  const active = { stockMode: 'declared' as const, status: 'active' as const, cooldownUntil: null };
  const healthchecks = givenWorkflow(healthcheckWorkflow);

  it('a due check probes the active offer it read, and the state is that offer', () => {
    healthchecks()
      .when({ type: 'HealthcheckDue', offer: active })
      .then([{ kind: 'probeHealthcheck' }])
      .state(active);
  });

  it("the recorded result's offer replaces the one read: a cooldown it started spaces the next run 10 minutes", () => {
    const cooling = { ...active, cooldownUntil: at(120 * min).toISOString() };
    healthchecks(null, { type: 'HealthcheckDue', offer: active })
      .when({ type: 'HealthcheckRecorded', offer: cooling, now: t0 })
      .then([{ kind: 'pollAgain', at: at(10 * min) }])
      .state(cooling);
  });
});
