import type { CommandDeps } from '../commands/context.js';
import { postRefunds, postSales, settleSale } from '../commands/ledger.js';
import { expireOrder, provisionOrder, releaseOrphanReservation } from '../commands/orders.js';
import type { BalanceEvent } from '../domain/balance.js';
import type { InventoryEvent } from '../domain/inventory.js';
import type { OrderEvent } from '../domain/order.js';
import { projector } from '../projections/projector.js';
import { scheduleTimer, settles } from './schedule.js';
import { timerCaller } from './caller.js';
import type { Timers } from './timers.js';

/** A reservation is released this long after its TTL if no order claims it (a checkout that crashed midway). */
const ORPHAN_GRACE_MS = 60_000;

/**
 * Provisioning of uploaded stock, the sale entries and the refund entries are done inline
 * by the request that paid or refunded; their timers are watchdogs, due this long after the
 * event, that finish what a crash left undone. Were they due at once, the background loop
 * would claim them while the request still works, and a crash then would leave them
 * behind a timer lease (30 s) instead of a few seconds.
 */
export const WATCHDOG_DELAY_MS = 5_000;
const watchdog = (at: string) => new Date(new Date(at).getTime() + WATCHDOG_DELAY_MS);

/**
 * The order pipeline's reactions: each event schedules the next step as a durable timer,
 * in the same transaction as this process's checkpoint. The steps run outside it, are
 * idempotent, and survive a crash anywhere.
 */
export const orderProcess = projector<OrderEvent | InventoryEvent | BalanceEvent>({
  name: 'order-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    OrderPlaced: (db, e) =>
      scheduleTimer('order.expire', e.data.orderId, e.data.expiresAt, {}, { settledBy: paid(e.data.orderId) }),
    InventoryReserved: (db, e) =>
      scheduleTimer(
        'inventory.reservation-expiry',
        `${e.data.offerId}:${e.data.orderItemId}`,
        new Date(new Date(e.data.expiresAt).getTime() + ORPHAN_GRACE_MS),
        {
          offerId: e.data.offerId,
          orderId: e.data.orderId,
          orderItemId: e.data.orderItemId,
        },
        { settledBy: handedOver(e.data.offerId, e.data.orderItemId) },
      ),
    InventoryDelivered: (db, e) => settles(handedOver(e.data.offerId, e.data.orderItemId)),
    OrderPaymentAuthorized: (db, e) =>
      scheduleTimer('order.provision', e.data.orderId, watchdog(e.data.at), {}, { settledBy: paid(e.data.orderId) }),
    OrderPaid: (db, e) =>
      scheduleTimer(
        'ledger.post-sales',
        e.data.orderId,
        watchdog(e.data.at),
        {},
        { settledBy: salesWith(e.data.orderId, e.position.commit), settles: [paid(e.data.orderId)] },
      ),
    OrderRefunded: (db, e) =>
      scheduleTimer('ledger.post-refunds', e.data.refundId, watchdog(e.data.at), {
        orderId: e.data.orderId,
        items: e.data.items
          .filter((i) => i.delivered)
          .map((i) => ({ supplierId: i.supplierId, orderItemId: i.orderItemId })),
      }),
    SaleCredited: (db, e) =>
      scheduleTimer(
        'ledger.settle',
        e.data.orderItemId,
        e.data.availableAt,
        { supplierId: e.data.supplierId },
        { settles: [salesWith(e.data.orderId, e.position.commit)] },
      ),
  },
});

/*
 * The marks that settle the watchdogs above when their work shows done in the same batch:
 * - paid: the order is paid, so it neither expires nor waits for provisioning;
 * - handed over: the reservation's keys were delivered, so it is no orphan;
 * - sales with the payment: a sale entry written in the payment's own transaction. Only the
 *   writes that capture and post every sale entry at once (`captureWithSales`,
 *   src/commands/uploaded-stock.ts) put the two in one transaction, so one such entry shows
 *   all of them posted; entries posted after the capture, in writes of their own, settle
 *   nothing, and the ledger.post-sales watchdog still looks.
 */
const paid = (orderId: string) => `paid:${orderId}`;
const handedOver = (offerId: string, orderItemId: string) => `handed-over:${offerId}:${orderItemId}`;
const salesWith = (orderId: string, commit: bigint) => `sales:${orderId}@${commit}`;

export const registerOrderTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on('order.expire', async (t) => void (await expireOrder(deps, t.key, timerCaller(t))));
  timers.on('order.provision', async (t) => void (await provisionOrder(deps, t.key, timerCaller(t))));
  timers.on('inventory.reservation-expiry', async (t) => {
    const { offerId, orderId, orderItemId } = t.payload;
    await releaseOrphanReservation(deps, offerId, orderId, orderItemId, timerCaller(t));
  });
  timers.on('ledger.post-sales', async (t) => postSales(deps, t.key, timerCaller(t)));
  timers.on('ledger.post-refunds', async (t) => {
    const { orderId, items } = t.payload;
    // the refund reverses a sale entry: post it first if a crash left it unposted
    if (orderId) await postSales(deps, orderId, timerCaller(t));
    await postRefunds(deps, items, timerCaller(t));
  });
  timers.on('ledger.settle', async (t) => void (await settleSale(deps, t.payload.supplierId, t.key, timerCaller(t))));
};
