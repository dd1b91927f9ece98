import { RESERVATION_TTL_MS } from '../domain/contract-timings.js';
import { type InventoryCommand, inventoryDecider } from '../domain/inventory.js';
import { offerDecider, type OfferState } from '../domain/offer.js';
import { orderDecider, type OrderItem, type OrderState, type PlacedItem } from '../domain/order.js';
import { DomainError } from '../domain/errors.js';
import { newId } from '../ids.js';
import type { Caller, CommandDeps } from './context.js';
import { execute } from './context.js';
import type { ReceivedItem } from './declared-items.js';
import { recordOutcome, reserveDeclared } from './declared.js';
import { stateOf } from './handle.js';
import { inventoryStream, offerStream, orderStream } from './streams.js';
import { deliveryOutcome } from '../domain/fulfilment-process.js';
import { onOrder } from './order-command.js';
import { reservationOf, reserveCommand } from './order-steps.js';
import { itemOf } from '../domain/order-plan.js';

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
export const rerouteItem = async (
  deps: CommandDeps,
  orderId: string,
  cancelled: OrderItem,
  rank: (productId: string) => Promise<string[]>,
  caller: Caller,
): Promise<OrderItem | null> => {
  const order = await stateOf(deps, orderStream(orderId), orderDecider);
  if (!order) return null;
  // rerouted already (this step ran before and crashed before it was done): nothing to do
  const replacement = order.items.find((i) => i.replacesItemId === cancelled.orderItemId);
  if (replacement) return replacement;
  // captured without it, or over: no stock is reserved for a replacement the order refuses
  if (order.paidAt || order.status !== 'placed') return null;
  const tried = new Set(order.items.filter((i) => i.productId === cancelled.productId).map((i) => i.supplierId));
  for (const offerId of await rank(cancelled.productId)) {
    const offer = await stateOf(deps, offerStream(offerId), offerDecider);
    if (!offer || !mayReplace(offer, cancelled, tried)) continue;
    const placed = await holdReplacement(deps, order, cancelled, offer, caller);
    if (placed) return recordReroute(deps, orderId, cancelled, placed, caller);
  }
  return null;
};

/** An active offer of a supplier the order has not tried for the product, at no more than the buyer's price. */
const mayReplace = (offer: OfferState, cancelled: OrderItem, tried: ReadonlySet<string>) =>
  offer.status === 'active' && !tried.has(offer.supplierId) && offer.terms.price <= cancelled.unitPrice;

/** The replacement's stock, held at `offer`: uploaded keys reserved, or a supplier's reservation; null when none. */
const holdReplacement = async (
  deps: CommandDeps,
  order: OrderState,
  cancelled: OrderItem,
  offer: OfferState,
  caller: Caller,
): Promise<PlacedItem | null> => {
  const share = { offer, quantity: cancelled.quantity };
  if (offer.stockMode === 'uploaded') return reserveUploaded(deps, order, share, caller);
  if (cancelled.source === 'topup') return null;
  const expiresAt = new Date(deps.clock.now().getTime() + REROUTE_HOLD_MS).toISOString();
  const held = await reserveDeclared(
    deps,
    offer,
    { quantity: cancelled.quantity, buyerCountry: order.buyerCountry, expiresAt },
    caller,
  );
  return held.held
    ? itemOf({ ...share, hold: { source: 'declared', reservationId: held.reservationId } }, newId(), [])
    : null;
};

/** Uploaded keys for a replacement, reserved at least as long as a checkout's; null when the offer has too few. */
const reserveUploaded = async (
  deps: CommandDeps,
  order: OrderState,
  share: { offer: OfferState; quantity: number },
  caller: Caller,
): Promise<PlacedItem | null> => {
  const { offer, quantity } = share;
  const orderItemId = newId();
  try {
    const reserved = await execute(
      deps,
      inventoryStream(offer.id),
      inventoryDecider,
      (now): InventoryCommand =>
        // the order's own time may be over (a paid order waits out a supplier's window):
        // a reservation already expired would be released under the reroute as an orphan
        reserveCommand(
          offer,
          {
            orderId: order.id,
            orderItemId,
            quantity,
            expiresAt: laterOf(order.expiresAt, new Date(Date.parse(now) + REROUTE_HOLD_MS).toISOString()),
          },
          now,
        ),
      caller,
    );
    return itemOf({ ...share, hold: null }, orderItemId, reservationOf(reserved.state, orderItemId).itemIds);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'out_of_stock') return null;
    throw error;
  }
};

/** The order records the replacement; returns it as the order holds it. */
const recordReroute = async (
  deps: CommandDeps,
  orderId: string,
  cancelled: OrderItem,
  item: PlacedItem,
  caller: Caller,
): Promise<OrderItem | null> => {
  const result = await onOrder(
    deps,
    orderId,
    (now) => ({ type: 'RerouteItem', data: { replacesItemId: cancelled.orderItemId, item, now } }),
    caller,
  );
  return result.state.items.find((i) => i.orderItemId === item.orderItemId) ?? null;
};
