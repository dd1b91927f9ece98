import { inventoryDecider } from '../domain/inventory.js';
import { orderDecider, type OrderState, type PlacedItem } from '../domain/order.js';
import { faultPoint } from '../faults.js';
import { type Caller, type CommandDeps, executeTogether } from './context.js';
import { streamOf, type Writes } from './handle-together.js';
import { salesOf } from './ledger.js';
import { captureOf, reservationOf } from './order-steps.js';
import { balanceStream, inventoryStream, orderStream } from './streams.js';

/**
 * The hand-over of uploaded keys: no supplier is called on the way, so the steps that
 * belong together (the inventory's delivery, the order's record of it, the capture and the
 * sale entries) are one decision on the offer's inventory, the order and the suppliers'
 * balances, written at once (`executeTogether`), all or nothing. A checkout from uploaded
 * stock that pays at once takes these steps in its own write (src/commands/checkout.ts).
 */

/** The inventory hands an item's reserved keys over, and the order records them. */
export const handOver = (
  writes: Writes,
  orderId: string,
  item: Pick<PlacedItem, 'offerId' | 'orderItemId'>,
  now: string,
) => {
  const delivered = writes.on(inventoryStream(item.offerId), inventoryDecider, [
    { type: 'DeliverReservation', data: { orderItemId: item.orderItemId, now } },
  ]);
  const keys = reservationOf(delivered.state, item.orderItemId).itemIds;
  writes.on(orderStream(orderId), orderDecider, [
    { type: 'RecordDelivery', data: { orderItemId: item.orderItemId, inventoryItemIds: keys, now } },
  ]);
};

/** Capture (or cancel) once nothing waits, and the sale entries of a capture. */
export const captureWithSales = (
  writes: Writes,
  orderId: string,
  deps: Pick<CommandDeps, 'env' | 'ledger'>,
  now: string,
): OrderState => {
  const after = writes.on(orderStream(orderId), orderDecider, [(o) => o && captureOf(o, now)]).state;
  if (!after) throw new Error(`order ${orderId} missing at its capture`);
  for (const sale of salesOf(after, deps.env))
    writes.on(balanceStream(sale.supplierId), deps.ledger.decider, [sale.credit(now)]);
  return after;
};

/**
 * The last uploaded item's hand-over: the inventory's delivery, the order's record of it
 * with the capture (or cancellation) it allows, and, once paid, the sale entries: one write
 * to the inventory's, the order's and the suppliers' balance streams.
 */
export const deliverLast = (
  deps: CommandDeps,
  order: OrderState,
  item: PlacedItem,
  caller: Caller,
): Promise<OrderState> =>
  salesPosted(
    executeTogether(
      deps,
      [
        streamOf(inventoryStream(item.offerId), inventoryDecider),
        streamOf(orderStream(order.id), orderDecider),
        ...balancesOf(deps, order.items),
      ],
      (writes, now) => {
        handOver(writes, order.id, item, now);
        return captureWithSales(writes, order.id, deps, now);
      },
      caller,
    ),
  );

/** The balance streams of these suppliers, each once: where a capture's sale entries go. */
export const balancesOf = (deps: Pick<CommandDeps, 'ledger'>, sellers: readonly { supplierId: string }[]) =>
  [...new Set(sellers.map((s) => s.supplierId))].map((s) => streamOf(balanceStream(s), deps.ledger.decider));

/**
 * A write that may post the sale entries, once it is stored: the `after-sale-credited`
 * fault point falls here, where the entries are written, whoever asked for the write.
 */
export const salesPosted = async (written: Promise<OrderState>): Promise<OrderState> => {
  const order = await written;
  if (order.paidAt) faultPoint('after-sale-credited');
  return order;
};
