import { chainedBalanceDecider } from '../domain/balance.js';
import { DomainError } from '../domain/errors.js';
import { inventoryDecider } from '../domain/inventory.js';
import { offerDecider, type OfferState } from '../domain/offer.js';
import { productDecider } from '../domain/product.js';
import { orderDecider, type OrderState, type PlacedItem } from '../domain/order.js';
import { faultPoint } from '../faults.js';
import { deriveId, newId } from '../ids.js';
import { type Caller, type CommandDeps, executeTogether } from './context.js';
import { load } from './handle.js';
import { streamOf, type Writes } from './handle-together.js';
import { salesOf } from './ledger.js';
import { captureOf, keysToTake, placedItem, reservationOf, reserveCommand } from './order-steps.js';
import { balanceStream, inventoryStream, offerStream, orderStream, productStream } from './streams.js';

/**
 * Orders served from uploaded stock: no supplier is called on the way, so each of their
 * steps that belong together is one decision on the offers' inventories, the order and the
 * suppliers' balances, written at once (`executeTogether`), all or nothing. A crash leaves
 * all of such a write or none of it, and a retry (the client's with its Idempotency-Key,
 * or a timer's) writes it whole.
 */

/** A checkout line whose every candidate offer, in routing order, is active and holds uploaded stock. */
export interface UploadedLine {
  productId: string;
  quantity: number;
  offers: OfferState[];
}

/**
 * The lines with their candidate offers (active ones, in routing order), when every one of
 * them holds uploaded stock and no line is a top-up: such a checkout calls no supplier and
 * is one write (`checkoutUploaded`). Null when any line needs a supplier's answer.
 */
export const uploadedLines = async (
  deps: CommandDeps,
  lines: readonly { productId: string; quantity: number; offerIds: readonly string[] }[],
): Promise<UploadedLine[] | null> => {
  const out: UploadedLine[] = [];
  for (const line of lines) {
    const { state: product } = await load(deps.store, productStream(line.productId), productDecider, deps.states);
    if (product?.type === 'topup') return null;
    const offers: OfferState[] = [];
    for (const offerId of line.offerIds) {
      const { state: offer } = await load(deps.store, offerStream(offerId), offerDecider, deps.states);
      if (!offer || offer.status !== 'active') continue;
      if (offer.stockMode !== 'uploaded') return null;
      offers.push(offer);
    }
    out.push({ productId: line.productId, quantity: line.quantity, offers });
  }
  return out;
};

/**
 * Checkout in one write: reserves each line's keys across its offers in routing order (as
 * many as the best offer holds, the rest from the next), places the order, and, as asked,
 * authorizes the payment and provisions it (every key handed over and recorded, the capture
 * and the sale entries). A line the offers cannot cover fails the whole with `out_of_stock`,
 * and nothing is written.
 */
export const checkoutUploaded = (
  deps: CommandDeps,
  input: {
    orderId: string;
    lines: UploadedLine[];
    buyerCountry: string;
    expiresAt: string;
    authorize: boolean;
    /**
     * With `authorize`: hand the keys over and capture in the same write (a request that
     * pays at once), where the store writes it as one transaction.
     */
    provision: boolean;
  },
  caller: Caller,
): Promise<OrderState> => {
  const offers = [...new Map(input.lines.flatMap((l) => l.offers).map((o) => [o.id, o])).values()];
  const order = orderStream(input.orderId);
  // the keys are handed over in the same write only where it is one transaction: written
  // one stream after another (a store without appendMany), a failure after the inventory's
  // part would leave keys handed over to an order never placed. There the order is placed
  // and authorized here, and provisioned as its own step (`provisionOrder`).
  const provision = input.provision && input.authorize && deps.store.appendMany !== undefined;
  const written = executeTogether(
    deps,
    [
      ...offers.map((o) => streamOf(inventoryStream(o.id), inventoryDecider)),
      streamOf(order, orderDecider),
      ...(provision ? balancesOf(offers) : []),
    ],
    (writes, now) => {
      // another run of the same checkout placed it meanwhile (a takeover while the first
      // run still worked): its answer is that order, and nothing more is written
      const placedBefore = writes.peek(order, orderDecider);
      if (placedBefore) return placedBefore;
      const items = reserveLines(writes, input, now);
      const placed = writes.on(order, orderDecider, [
        {
          type: 'PlaceOrder',
          data: { orderId: input.orderId, buyerCountry: input.buyerCountry, items, expiresAt: input.expiresAt, now },
        },
        input.authorize ? { type: 'AuthorizePayment', data: { now } } : null,
      ]).state;
      if (!placed) throw new Error(`order ${input.orderId} missing after its placement`);
      if (!provision || !placed.authorizedAt) return placed;
      for (const item of items) handOver(writes, placed.id, item, now);
      return captureWithSales(writes, placed.id, deps.env, now);
    },
    caller,
  );
  return salesPosted(written);
};

/** Each line's reservations, in routing order; the n-th item of the order on an offer keeps its id on every run. */
const reserveLines = (
  writes: Writes,
  input: { orderId: string; lines: UploadedLine[]; expiresAt: string },
  now: string,
): PlacedItem[] => {
  const items: PlacedItem[] = [];
  let seq = 0;
  for (const line of input.lines) {
    let remaining = line.quantity;
    for (const offer of line.offers) {
      if (remaining === 0) break;
      const inventory = inventoryStream(offer.id);
      // every offer reached counts, as in a step-by-step checkout: an interrupted run of
      // either finds its reservations under the same ids
      let orderItemId = deriveId(input.orderId, seq++, offer.id);
      const take = keysToTake(writes.peek(inventory, inventoryDecider), orderItemId, remaining);
      if (take === 0) continue;
      const reserve = (orderItemId: string) => {
        const { orderId, expiresAt } = input;
        const command = reserveCommand(offer, { orderId, orderItemId, quantity: take, expiresAt }, now);
        return reservationOf(writes.on(inventory, inventoryDecider, [command]).state, orderItemId);
      };
      let reserved = reserve(orderItemId);
      if (reserved.state !== 'reserved' || reserved.itemIds.length !== take) {
        // a reservation of an earlier run (a step-by-step one, or one written stream by
        // stream) that has since ended or holds another count: a fresh one
        orderItemId = newId();
        reserved = reserve(orderItemId);
      }
      items.push(placedItem(offer, orderItemId, take, reserved.itemIds));
      remaining -= take;
    }
    if (remaining > 0)
      throw new DomainError(
        'out_of_stock',
        `not enough stock for product ${line.productId}: ${line.quantity - remaining} of ${line.quantity} available`,
        { product_id: line.productId },
      );
  }
  return items;
};

/** The inventory hands an item's reserved keys over, and the order records them. */
const handOver = (writes: Writes, orderId: string, item: Pick<PlacedItem, 'offerId' | 'orderItemId'>, now: string) => {
  const delivered = writes.on(inventoryStream(item.offerId), inventoryDecider, [
    { type: 'DeliverReservation', data: { orderItemId: item.orderItemId, now } },
  ]);
  const keys = reservationOf(delivered.state, item.orderItemId).itemIds;
  writes.on(orderStream(orderId), orderDecider, [
    { type: 'RecordDelivery', data: { orderItemId: item.orderItemId, inventoryItemIds: keys, now } },
  ]);
};

/** Capture (or cancel) once nothing waits, and the sale entries of a capture. */
const captureWithSales = (writes: Writes, orderId: string, env: CommandDeps['env'], now: string): OrderState => {
  const after = writes.on(orderStream(orderId), orderDecider, [(o) => o && captureOf(o, now)]).state;
  if (!after) throw new Error(`order ${orderId} missing at its capture`);
  for (const sale of salesOf(after, env))
    writes.on(balanceStream(sale.supplierId), chainedBalanceDecider, [sale.credit(now)]);
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
        ...balancesOf(order.items),
      ],
      (writes, now) => {
        handOver(writes, order.id, item, now);
        return captureWithSales(writes, order.id, deps.env, now);
      },
      caller,
    ),
  );

/** The balance streams of these suppliers, each once: where a capture's sale entries go. */
const balancesOf = (sellers: readonly { supplierId: string }[]) =>
  [...new Set(sellers.map((s) => s.supplierId))].map((s) => streamOf(balanceStream(s), chainedBalanceDecider));

/**
 * A write that may post the sale entries, once it is stored: the `after-sale-credited`
 * fault point falls here, where the entries are written, whoever asked for the write.
 */
const salesPosted = async (written: Promise<OrderState>): Promise<OrderState> => {
  const order = await written;
  if (order.paidAt) faultPoint('after-sale-credited');
  return order;
};
