import { RESERVATION_TTL_MS } from '../domain/contract-timings.js';
import { type InventoryCommand, inventoryDecider } from '../domain/inventory.js';
import { offerDecider } from '../domain/offer.js';
import { orderDecider, type OrderItem, type OrderState, type PlacedItem } from '../domain/order.js';
import { DomainError } from '../domain/errors.js';
import { newId } from '../ids.js';
import type { Caller, CommandDeps } from './context.js';
import { execute } from './context.js';
import type { ReceivedItem } from './declared-items.js';
import { recordOutcome, reserveDeclared } from './declared.js';
import { load } from './handle.js';
import { inventoryStream, offerStream, orderStream } from './streams.js';
import { deliveryOutcome } from '../domain/fulfilment-process.js';
import { onOrder } from './order-command.js';
import { reservationOf } from './order-steps.js';

/** A replacement's reservation is held this long from the reroute at least, as a checkout's is. */
const REROUTE_HOLD_MS = RESERVATION_TTL_MS;

const laterOf = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * The first good `ready` answer is what the buyer gets: its items are sealed and kept,
 * the order item is delivered, and the offer earns its bonus (+3 within 60 s of the first
 * POST /orders, +1 later in the window).
 */
export const deliverDeclared = async (
  deps: CommandDeps,
  order: OrderState,
  item: OrderItem,
  received: ReceivedItem[],
  caller: Caller,
) => {
  const now = deps.clock.now();
  const rows = received.map((r) => ({
    item_id: newId(),
    offer_id: item.offerId,
    kind: 'declared',
    sealed: deps.secretBox.seal(
      JSON.stringify(
        r.kind === 'text'
          ? r
          : {
              kind: 'file',
              file_name: r.fileName,
              content_type: r.contentType,
              content_base64: r.bytes.toString('base64'),
            },
      ),
    ),
    created_at: now,
  }));
  await deps.db.insertInto('inventory_values').values(rows).execute();
  const result = await onOrder(
    deps,
    order.id,
    (at) => ({
      type: 'RecordDelivery',
      data: { orderItemId: item.orderItemId, inventoryItemIds: rows.map((r) => r.item_id), now: at },
    }),
    caller,
  );
  if (result.events.length === 0) {
    // delivered already by an earlier poll: keep only what the buyer got
    await deps.db
      .deleteFrom('inventory_values')
      .where(
        'item_id',
        'in',
        rows.map((r) => r.item_id),
      )
      .execute();
    return;
  }
  await recordOutcome(
    deps,
    item.offerId,
    deliveryOutcome(new Date(item.supplierOrderedAt ?? now.toISOString()), now),
    item.orderItemId,
    caller,
  );
};

/**
 * A cancelled item goes to the next eligible offer of another supplier at no more than
 * the buyer's price, or, when none can take it, stays cancelled (the buyer is not charged
 * for it). Returns the new item, if any.
 */
// eslint-disable-next-line max-lines-per-function -- the reroute rule of the declared-stock contract, step by step
export const rerouteItem = async (
  deps: CommandDeps,
  orderId: string,
  cancelled: OrderItem,
  rank: (productId: string) => Promise<string[]>,
  caller: Caller,
): Promise<OrderItem | null> => {
  const { state: order } = await load(deps.store, orderStream(orderId), orderDecider, deps.states);
  if (!order) return null;
  // rerouted already (this step ran before and crashed before it was done): nothing to do
  const replacement = order.items.find((i) => i.replacesItemId === cancelled.orderItemId);
  if (replacement) return replacement;
  // captured without it, or over: no stock is reserved for a replacement the order refuses
  if (order.paidAt || order.status !== 'placed') return null;
  const tried = new Set(order.items.filter((i) => i.productId === cancelled.productId).map((i) => i.supplierId));
  for (const offerId of await rank(cancelled.productId)) {
    const { state: offer } = await load(deps.store, offerStream(offerId), offerDecider, deps.states);
    if (!offer || offer.status !== 'active' || tried.has(offer.supplierId) || offer.terms.price > cancelled.unitPrice)
      continue;
    const orderItemId = newId();
    let placed: PlacedItem | null = null;
    const base = {
      orderItemId,
      productId: offer.productId,
      offerId: offer.id,
      supplierId: offer.supplierId,
      externalRef: offer.terms.externalRef,
      quantity: cancelled.quantity,
      unitPrice: offer.terms.price,
      inventoryItemIds: [] as string[],
    };
    if (offer.stockMode === 'uploaded') {
      try {
        const reserved = await execute(
          deps,
          inventoryStream(offer.id),
          inventoryDecider,
          (now): InventoryCommand => ({
            type: 'ReserveItems',
            data: {
              offerId: offer.id,
              orderId,
              orderItemId,
              quantity: cancelled.quantity,
              // the order's own time may be over (a paid order waits out a supplier's window):
              // a reservation already expired would be released under the reroute as an orphan
              expiresAt: laterOf(order.expiresAt, new Date(Date.parse(now) + REROUTE_HOLD_MS).toISOString()),
              lowStockThreshold: offer.terms.lowStockThreshold,
              now,
            },
          }),
          caller,
        );
        placed = {
          ...base,
          source: 'uploaded',
          reservationId: null,
          inventoryItemIds: reservationOf(reserved.state, orderItemId).itemIds,
        };
      } catch (error) {
        if (error instanceof DomainError && error.code === 'out_of_stock') continue;
        throw error;
      }
    } else if (cancelled.source !== 'topup') {
      const held = await reserveDeclared(
        deps,
        offer,
        {
          quantity: cancelled.quantity,
          buyerCountry: order.buyerCountry,
          expiresAt: new Date(deps.clock.now().getTime() + REROUTE_HOLD_MS).toISOString(),
        },
        caller,
      );
      if (!held.held) continue;
      placed = { ...base, source: 'declared', reservationId: held.reservationId };
    }
    if (!placed) continue;
    const item = placed;
    const result = await onOrder(
      deps,
      orderId,
      (now) => ({ type: 'RerouteItem', data: { replacesItemId: cancelled.orderItemId, item, now } }),
      caller,
    );
    return result.state.items.find((i) => i.orderItemId === orderItemId) ?? null;
  }
  return null;
};
