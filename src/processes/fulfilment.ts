import { faultPoint } from '../faults.js';
import type { Caller, CommandDeps } from '../commands/context.js';
import { deliverDeclared, rerouteItem } from '../commands/declared-flow.js';
import { orderFromSupplier, pollSupplierItems, recordOutcome, reserveDeclared, returnSupplierItems } from '../commands/declared.js';
import { load } from '../commands/handle.js';
import { postSales } from '../commands/ledger.js';
import { endpointOf } from '../commands/offers.js';
import { captureIfProvisioned, loadOrder, provisionOrder, refundOrder } from '../commands/orders.js';
import { nextPollAt, SCHEDULE } from '../outbound/supplier-timeouts.js';
import { executeTopup, topupStatus, validateTopup } from '../commands/topup.js';
import { execute } from '../commands/context.js';
import { HEALTHCHECK_EVERY_MS, HEALTHCHECK_IN_COOLDOWN_EVERY_MS } from '../domain/offer-health.js';
import { type OfferCommand, type OfferEvent, offerDecider } from '../domain/offer.js';
import { type OrderCommand, type OrderEvent, orderDecider, type OrderItem } from '../domain/order.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { projector } from '../projections/projector.js';
import { probeHealthcheck } from '../outbound/fulfilment-client.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';
import { offerStream } from '../commands/streams.js';

type O<T extends OrderEvent['type']> = RecordedEvent<Extract<OrderEvent, { type: T }>['data']>;
type F<T extends OfferEvent['type']> = RecordedEvent<Extract<OfferEvent, { type: T }>['data']>;

const later = (at: string, ms: number) => new Date(new Date(at).getTime() + ms);

/**
 * The supplier-hosted contracts as a process: declared stock (order, poll, allocation
 * window, return, reroute), top-ups (execute, status polls, failure refunds) and the
 * healthchecks behind offer health. Every step is a durable timer; every timing is the
 * spec's (src/outbound/supplier-timeouts.ts).
 */
export const fulfilmentProcess = projector({
  name: 'fulfilment-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    OrderPaymentAuthorized: (db, e: O<'OrderPaymentAuthorized'>) => scheduleTimer(db, 'declared.start', e.data.orderId, e.data.at),
    OrderItemRerouted: (db, e: O<'OrderItemRerouted'>) =>
      scheduleTimer(db, 'declared.rerouted', e.data.item.orderItemId, e.data.at, { orderId: e.data.orderId }),
    OrderItemCancelled: (db, e: O<'OrderItemCancelled'>) =>
      scheduleTimer(db, 'declared.cancelled', e.data.orderItemId, e.data.at, { orderId: e.data.orderId, reason: e.data.reason }),
    OrderPaid: (db, e: O<'OrderPaid'>) => scheduleTimer(db, 'topup.start', e.data.orderId, e.data.at),
    OrderItemTopupCompleted: (db, e: O<'OrderItemTopupCompleted'>) =>
      scheduleTimer(db, 'topup.post-sale', e.data.orderItemId, e.data.at, { orderId: e.data.orderId }),
    OrderItemTopupFailed: (db, e: O<'OrderItemTopupFailed'>) =>
      scheduleTimer(db, 'topup.failed', e.data.orderItemId, e.data.at, { orderId: e.data.orderId, executeFailed: e.data.stage !== 'revalidation' }),
    OrderRefunded: (db, e: O<'OrderRefunded'>) =>
      scheduleTimer(db, 'declared.refunded', e.data.refundId, e.data.at, { orderId: e.data.orderId, orderItemIds: e.data.items.map((i) => i.orderItemId) }),
    OfferActivated: (db, e: F<'OfferActivated'>) => scheduleTimer(db, 'offer.healthcheck', e.data.offerId, later(e.data.at, HEALTHCHECK_EVERY_MS)),
  },
});

interface ItemPayload {
  orderId: string;
  orderItemId: string;
  attempt: number;
  firstAt: string;
  renewed?: boolean;
}

export const registerFulfilmentTimers = (timers: Timers, deps: CommandDeps, rank: (productId: string) => Promise<string[]>) => {
  const caller = (kind: string, key: string): Caller => ({ correlationId: `${kind}:${key}` });
  const now = () => deps.clock.now();
  const itemOf = async (orderId: string, orderItemId: string) => {
    const order = await loadOrder(deps, orderId);
    return { order, item: order.items.find((i) => i.orderItemId === orderItemId) };
  };
  const orderItem = (p: Omit<ItemPayload, 'attempt'> & { attempt?: number }, at: Date = now()) =>
    timers.schedule('declared.order', `${p.orderItemId}:${p.renewed ? 'r' : ''}${p.attempt ?? 1}`, at, { attempt: 1, ...p });

  /** After authorization: ask each declared item's supplier to convert its reservation. */
  timers.on('declared.start', async (t) => {
    const order = await loadOrder(deps, t.key);
    for (const item of order.items)
      if (item.source === 'declared' && item.status === 'reserved' && !item.supplierOrderedAt)
        await orderItem({ orderId: order.id, orderItemId: item.orderItemId, firstAt: now().toISOString() });
  });

  /** POST /orders: 10 s, 3 attempts 5 s apart; 410 gets one fresh reservation plus order cycle. */
  timers.on('declared.order', async (t) => {
    const p = t.payload as ItemPayload;
    const { order, item } = await itemOf(p.orderId, p.orderItemId);
    if (!item || item.status !== 'reserved') return;
    // ordered already, by a run that died before scheduling the polls: schedule them now (keyed, so harmless twice)
    if (item.supplierOrderedAt) return void (await timers.schedule('declared.poll', item.orderItemId, now(), { orderId: order.id }));
    const result = await orderFromSupplier(deps, order, item, p.firstAt, caller(t.kind, t.key));
    faultPoint('after-supplier-call');
    if (result === 'accepted') return void (await timers.schedule('declared.poll', item.orderItemId, now(), { orderId: order.id }));
    if (result === 'expired' && !p.renewed) {
      const { state: offer } = await load(deps.store, offerStream(item.offerId), offerDecider, deps.states);
      const held = offer
        ? await reserveDeclared(deps, offer, { quantity: item.quantity, buyerCountry: order.buyerCountry, expiresAt: later(now().toISOString(), 15 * 60_000).toISOString() }, caller(t.kind, t.key))
        : { held: false as const };
      if (held.held) {
        await execute(deps, `order-${order.id}`, orderDecider, (at): OrderCommand => ({ type: 'RenewReservation', data: { orderItemId: item.orderItemId, reservationId: held.reservationId, now: at } }), caller(t.kind, t.key));
        return void (await orderItem({ ...p, attempt: 1, renewed: true }));
      }
      return void (await cancel(order.id, item, 'reservation_expired'));
    }
    if (result === 'failed' && p.attempt < SCHEDULE.orderAttempts)
      return void (await orderItem({ ...p, attempt: p.attempt + 1 }, new Date(now().getTime() + SCHEDULE.orderRetryMs)));
    await recordOutcome(deps, item.offerId, 'call_failure', item.orderItemId, caller(t.kind, t.key));
    await cancel(order.id, item, result === 'expired' ? 'reservation_expired' : 'supplier_order_failed');
  });

  const cancel = (orderId: string, item: OrderItem, reason: string) =>
    execute(deps, `order-${orderId}`, orderDecider, (at): OrderCommand => ({ type: 'CancelItem', data: { orderItemId: item.orderItemId, reason, now: at } }), {
      correlationId: `cancel:${item.orderItemId}`,
    });

  /** Polls at +0, +5, +15, +30 s, then every 60 s, inside the 10-minute window. */
  timers.on('declared.poll', async (t) => {
    const { orderId } = t.payload as { orderId: string };
    const { order, item } = await itemOf(orderId, t.key);
    if (!item || item.status !== 'reserved' || !item.supplierOrderedAt) return;
    const orderedAt = new Date(item.supplierOrderedAt).getTime();
    const result = await pollSupplierItems(deps, item);
    if (result.kind === 'ready') {
      await deliverDeclared(deps, order, item, result.items, caller(t.kind, t.key));
      await captureIfProvisioned(deps, orderId, caller(t.kind, t.key));
      return;
    }
    const next = nextPollAt(orderedAt, now().getTime());
    if (next !== null) return { runAgainAt: new Date(next) };
    // the allocation window closed without items
    await recordOutcome(deps, item.offerId, 'missed_window', item.orderItemId, caller(t.kind, t.key));
    await cancel(orderId, item, 'missed_window');
  });

  /** A cancelled declared item: take the stock back at the supplier, then reroute or let the buyer off. */
  timers.on('declared.cancelled', async (t) => {
    const { orderId, reason } = t.payload as { orderId: string; reason: string };
    const { item } = await itemOf(orderId, t.key);
    if (!item) return;
    // after POST /orders failed on every attempt the supplier may still have recorded the
    // sale (a timeout says nothing): the DELETE tells it to withhold the keys either way
    if (item.source === 'declared' && (item.supplierOrderedAt || reason === 'supplier_order_failed'))
      await timers.schedule('declared.return', `${item.orderItemId}:1`, now(), { offerId: item.offerId, orderItemId: item.orderItemId, attempt: 1 });
    if (item.source !== 'topup' && reason !== 'order_expired') await rerouteItem(deps, orderId, item, rank, caller(t.kind, t.key));
    await captureIfProvisioned(deps, orderId, caller(t.kind, t.key));
  });

  /** A rerouted item: uploaded keys are handed over at once, declared ones go through the contract. */
  timers.on('declared.rerouted', async (t) => {
    const { orderId } = t.payload as { orderId: string };
    const { item } = await itemOf(orderId, t.key);
    if (!item || item.status !== 'reserved') return;
    if (item.source === 'uploaded') await provisionOrder(deps, orderId, caller(t.kind, t.key));
    else await orderItem({ orderId, orderItemId: item.orderItemId, firstAt: now().toISOString() });
  });

  /** DELETE /orders/{id}/items: 10 s, 3 attempts over an hour; 405 is an answer too. */
  timers.on('declared.return', async (t) => {
    const p = t.payload as { offerId: string; orderItemId: string; attempt: number };
    if (await returnSupplierItems(deps, p.offerId, p.orderItemId)) return;
    const offset = SCHEDULE.cancelAttemptOffsetsMs[p.attempt];
    if (offset === undefined) return; // best effort: given up after the last attempt
    const first = t.dueAt.getTime() - SCHEDULE.cancelAttemptOffsetsMs[p.attempt - 1]!;
    await timers.schedule('declared.return', `${p.orderItemId}:${p.attempt + 1}`, new Date(first + offset), { ...p, attempt: p.attempt + 1 });
  });

  /** A refund of declared keys tells the supplier to withhold them. */
  timers.on('declared.refunded', async (t) => {
    const { orderId, orderItemIds } = t.payload as { orderId: string; orderItemIds: string[] };
    const order = await loadOrder(deps, orderId);
    for (const item of order.items)
      if (orderItemIds.includes(item.orderItemId) && item.source === 'declared')
        await timers.schedule('declared.return', `${item.orderItemId}:1`, now(), { offerId: item.offerId, orderItemId: item.orderItemId, attempt: 1 });
  });

  /** After capture: execute each top-up with its latest validation (re-validated when stale). */
  timers.on('topup.start', async (t) => {
    const order = await loadOrder(deps, t.key);
    for (const item of order.items)
      if (item.source === 'topup' && item.status === 'reserved')
        await timers.schedule('topup.execute', `${item.orderItemId}:1`, now(), { orderId: order.id, orderItemId: item.orderItemId, attempt: 1, firstAt: now().toISOString() });
  });

  const failTopup = (orderId: string, item: OrderItem, code: string, message: string, stage?: 'revalidation') =>
    execute(
      deps,
      `order-${orderId}`,
      orderDecider,
      (at): OrderCommand => ({ type: 'FailTopup', data: { orderItemId: item.orderItemId, operationId: item.topup!.operationId, code, message, ...(stage && { stage }), now: at } }),
      { correlationId: `topup:${item.orderItemId}` },
    );
  const completeTopup = (orderId: string, item: OrderItem, receiptRef: string) =>
    execute(
      deps,
      `order-${orderId}`,
      orderDecider,
      (at): OrderCommand => ({ type: 'CompleteTopup', data: { orderItemId: item.orderItemId, operationId: item.topup!.operationId, receiptRef, now: at } }),
      { correlationId: `topup:${item.orderItemId}` },
    );

  /** POST /topup/execute: 30 s, 3 attempts 10 s apart, then status polls until 15 minutes. */
  timers.on('topup.execute', async (t) => {
    const p = t.payload as ItemPayload;
    let { order, item } = await itemOf(p.orderId, p.orderItemId);
    if (!item?.topup || item.status !== 'reserved') return;
    if (p.attempt === 1 && now().getTime() - new Date(item.topup.validatedAt).getTime() > SCHEDULE.staleValidationMs) {
      const { state: offer } = await load(deps.store, offerStream(item.offerId), offerDecider, deps.states);
      const fresh = offer
        ? await validateTopup(deps, offer, { quantity: item.quantity, buyerCountry: order.buyerCountry, formFields: item.topup.formFields }, caller(t.kind, t.key))
        : ({ kind: 'unavailable' } as const);
      if (fresh.kind !== 'valid')
        return void (await failTopup(order.id, item, fresh.kind === 'invalid' ? fresh.code : 'validation_unavailable', 'the account could not be validated again before execution', 'revalidation'));
      await execute(deps, `order-${order.id}`, orderDecider, (at): OrderCommand => ({ type: 'RevalidateTopup', data: { orderItemId: item!.orderItemId, operationId: fresh.operationId, accountLabel: fresh.accountLabel, now: at } }), caller(t.kind, t.key));
      ({ order, item } = await itemOf(p.orderId, p.orderItemId));
      if (!item?.topup) return;
    }
    const result = await executeTopup(deps, order.id, item, p.attempt);
    if (result.kind === 'completed') return void (await completeTopup(order.id, item, result.receiptRef));
    if (result.kind === 'failed') return void (await failTopup(order.id, item, result.code, result.message));
    if (result.kind === 'unknown' && p.attempt < SCHEDULE.executeAttempts)
      return void (await timers.schedule('topup.execute', `${item.orderItemId}:${p.attempt + 1}`, new Date(now().getTime() + SCHEDULE.executeRetryMs), { ...p, attempt: p.attempt + 1 }));
    await timers.schedule('topup.status', item.orderItemId, new Date(now().getTime() + SCHEDULE.statusEarlyEveryMs), { orderId: order.id, firstAt: p.firstAt });
  });

  /** GET /topup/operations/{id}: every 10 s for a minute, then every 30 s; unresolved at 15 minutes is a failure. */
  timers.on('topup.status', async (t) => {
    const { orderId, firstAt } = t.payload as { orderId: string; firstAt: string };
    const { item } = await itemOf(orderId, t.key);
    if (!item?.topup || item.status !== 'reserved') return;
    const result = await topupStatus(deps, item);
    if (result.kind === 'completed') return void (await completeTopup(orderId, item, result.receiptRef));
    if (result.kind === 'failed') return void (await failTopup(orderId, item, result.code, result.message));
    const elapsed = now().getTime() - new Date(firstAt).getTime();
    if (elapsed >= SCHEDULE.topupWindowMs) return void (await failTopup(orderId, item, 'unresolved', 'no result within 15 minutes'));
    const every = elapsed < SCHEDULE.statusEarlyForMs ? SCHEDULE.statusEarlyEveryMs : SCHEDULE.statusLateEveryMs;
    return { runAgainAt: new Date(Math.min(now().getTime() + every, new Date(firstAt).getTime() + SCHEDULE.topupWindowMs)) };
  });

  timers.on('topup.post-sale', async (t) => postSales(deps, (t.payload as { orderId: string }).orderId, caller(t.kind, t.key)));

  /**
   * A definitive top-up failure: the buyer is refunded, the offer takes -25 and a cooldown.
   * A re-validation the supplier refused (or could not answer) refunds too, but no execute
   * failed: its validate outcome already counted (-2 for a timeout or 5xx, nothing for invalid).
   */
  timers.on('topup.failed', async (t) => {
    const { orderId, executeFailed = true } = t.payload as { orderId: string; executeFailed?: boolean };
    const { item } = await itemOf(orderId, t.key);
    if (!item) return;
    await refundOrder(deps, orderId, [item.orderItemId], caller(t.kind, t.key));
    if (executeFailed) await recordOutcome(deps, item.offerId, 'topup_execute_failed', item.orderItemId, caller(t.kind, t.key));
  });

  /** Healthchecks: every 5 minutes while active, every 10 in cooldown; the offer decides what a result means. */
  timers.on('offer.healthcheck', async (t) => {
    const { state: offer } = await load(deps.store, offerStream(t.key), offerDecider, deps.states);
    if (!offer || offer.stockMode !== 'declared' || offer.status !== 'active') return;
    const probe = await probeHealthcheck(endpointOf(deps, offer, now()), { clock: deps.clock, policy: deps.targets, timeoutMs: deps.timeouts.healthcheckMs, metrics: deps.metrics });
    faultPoint('after-supplier-call');
    const result = await execute(deps, offerStream(offer.id), offerDecider, (at): OfferCommand => ({ type: 'RecordScheduledHealthcheck', data: { probe, runId: t.dueAt.toISOString(), now: at } }), caller(t.kind, t.key));
    const after = result.state;
    if (!after || after.status !== 'active') return;
    const inCooldown = after.cooldownUntil !== null;
    return { runAgainAt: new Date(now().getTime() + (inCooldown ? HEALTHCHECK_IN_COOLDOWN_EVERY_MS : HEALTHCHECK_EVERY_MS)) };
  });
};
