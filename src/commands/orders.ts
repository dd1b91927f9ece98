import { RESERVATION_TTL_MS } from '../domain/contract-timings.js';
import { DomainError } from '../domain/errors.js';
import { type InventoryCommand, inventoryDecider } from '../domain/inventory.js';
import { offerDecider } from '../domain/offer.js';
import { orderDecider, type OrderState, type PlacedItem } from '../domain/order.js';
import { rankOffers } from '../domain/routing.js';
import { type Candidate, routingReceiptDecider } from '../domain/routing-receipt.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import { comparePositions, type Position } from '../eventstore/port.js';
import { changedWrites, overriding } from '../eventstore/overriding.js';
import type { ProjectionRunner } from '../projections/runner.js';
import { releaseSupplierReservation } from './declared.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { postRefunds, postSales } from './ledger.js';
import { checkout } from './checkout.js';
import { deliverLast } from './uploaded-stock.js';
import { captureOf, reservationOf } from './order-steps.js';
import { inventoryStream, offerStream, orderStream, routingStream } from './streams.js';
import { onOrder, onOrderSteps } from './order-command.js';

export interface OrderLine {
  productId: string;
  quantity: number;
}

const onInventory = (deps: CommandDeps, offerId: string, command: (now: string) => InventoryCommand, caller: Caller) =>
  execute(deps, inventoryStream(offerId), inventoryDecider, command, caller);

export const loadOrder = async (deps: CommandDeps, orderId: string): Promise<OrderState> => {
  const state = await stateOf(deps, orderStream(orderId), orderDecider);
  if (!state) throw new DomainError('not_found', `order ${orderId} not found`);
  return state;
};

const releaseItems = async (
  deps: CommandDeps,
  items: Pick<PlacedItem, 'offerId' | 'orderItemId' | 'source' | 'reservationId'>[],
  caller: Caller,
) => {
  for (const item of items) {
    if (item.source === 'uploaded')
      await onInventory(
        deps,
        item.offerId,
        (now) => ({ type: 'ReleaseReservation', data: { orderItemId: item.orderItemId, now } }),
        caller,
      );
    // early release at the supplier: best effort, the reservation expires on its own anyway
    if (item.source === 'declared' && item.reservationId)
      await releaseSupplierReservation(deps, item.offerId, item.reservationId);
  }
};

/**
 * Checkout: routes each line (offer ids in routing order from `rank(productId)`), holds its
 * stock for the reservation TTL and records the order in one write (`checkout`). Emits
 * OrderPlaced (order.created).
 */
export const placeOrder = async (
  deps: CommandDeps,
  input: {
    /** The order's id, from the request's Idempotency-Key: a checkout run again finds the order it placed. */
    orderId?: string;
    /** May an earlier run of this operation have placed it (a takeover)? Assumed so when an id is given without it. */
    resumed?: boolean;
    lines: OrderLine[];
    buyerCountry: string;
    formFields?: Record<string, string>;
    /**
     * The offers of a product in the order they are tried: from the market (`market`: every
     * active offer, ranked here by the routing rule) or as given (`rank`: a sandbox order's
     * own offer).
     */
    rank?: (productId: string) => Promise<string[]>;
    market?: (productId: string) => Promise<Candidate[]>;
    /** Authorize the payment in the same write as the placement (a request that pays at once). */
    authorize?: boolean;
    /**
     * With `authorize`: where every item is uploaded keys, hand them over and capture in the
     * same write too (`checkout`). Elsewhere provisioning follows as its own step
     * (`provisionOrder`).
     */
    provision?: boolean;
  },
  caller: Caller,
): Promise<OrderState> => {
  const orderId = input.orderId ?? newId();
  if (input.orderId && input.resumed !== false) {
    const placed = await stateOf(deps, orderStream(orderId), orderDecider);
    if (placed) return placed; // the first run placed it and its answer was lost
  } else {
    deps.states.created(orderStream(orderId), orderDecider);
    deps.states.created(routingStream(orderId), routingReceiptDecider);
  }
  const expiresAt = new Date(deps.clock.now().getTime() + RESERVATION_TTL_MS).toISOString();
  const lines = await Promise.all(input.lines.map((line) => rankedLine(deps, line, input)));
  const authorize = input.authorize === true;
  return checkout(
    deps,
    {
      orderId,
      lines,
      buyerCountry: input.buyerCountry,
      ...(input.formFields && { formFields: input.formFields }),
      expiresAt,
      authorize,
      provision: authorize && input.provision === true,
    },
    caller,
  );
};

/** A line with its offers in the order they are tried, and what the routing receipt records of them. */
const rankedLine = async (
  deps: CommandDeps,
  line: OrderLine,
  input: { rank?: (productId: string) => Promise<string[]>; market?: (productId: string) => Promise<Candidate[]> },
) => {
  if (input.market) {
    const candidates = await input.market(line.productId);
    const rankedAt = deps.clock.now();
    const offerIds = rankOffers(candidates, rankedAt).map((o) => o.offerId);
    return { ...line, offerIds, rule: 'lowest_price' as const, candidates, rankedAt: rankedAt.toISOString() };
  }
  const offerIds = input.rank ? await input.rank(line.productId) : [];
  return { ...line, offerIds, rule: 'own_offer' as const };
};

/**
 * Provisioning after authorization: hand over each item's reserved keys, then capture.
 * Every step is idempotent, so the process that resumes after a crash (or runs beside
 * the request that started it) repeats nothing.
 */
export const provisionOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  const order = await loadOrder(deps, orderId);
  if (!order.authorizedAt) return order;
  if (order.paidAt) {
    // a pay run again after its answer was lost (the database went away after the capture)
    // finishes the sale entries now instead of leaving them to the watchdog
    await postSales(deps, orderId, caller);
    return order;
  }
  const uploaded = order.items.filter((i) => i.status === 'reserved' && i.source === 'uploaded');
  const last = uploaded.pop();
  for (const item of uploaded) {
    const delivered = await onInventory(
      deps,
      item.offerId,
      (now) => ({ type: 'DeliverReservation', data: { orderItemId: item.orderItemId, now } }),
      caller,
    );
    faultPoint('after-deliver-reservation');
    const keys = reservationOf(delivered.state, item.orderItemId).itemIds;
    await onOrder(
      deps,
      orderId,
      (now) => ({ type: 'RecordDelivery', data: { orderItemId: item.orderItemId, inventoryItemIds: keys, now } }),
      caller,
    );
    faultPoint('after-record-delivery');
  }
  if (last) {
    // the last hand-over, its delivery, the capture it allows and the sale entries it earns are one write
    faultPoint('before-capture');
    return deliverLast(deps, order, last, caller);
  }
  // declared items are ordered and polled by their own process (src/processes/fulfilment.ts)
  return captureIfProvisioned(deps, orderId, caller);
};

/** Capture (or cancel) once every key item is delivered or cancelled (see `captureOf`). */
export const captureIfProvisioned = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  const order = await loadOrder(deps, orderId);
  const command = captureOf(order, deps.clock.now().toISOString());
  if (!command) return order;
  if (command.type === 'CapturePayment') faultPoint('before-capture');
  const after = (await onOrderSteps(deps, orderId, (now) => [(o) => o && captureOf(o, now)], caller)).state;
  // the sale entries follow capture at once; the ledger.post-sales timer only finishes
  // what a crash between the two left undone
  if (after.paidAt) await postSales(deps, orderId, caller);
  return after;
};

/** Pay = authorize, provision, capture. Uploaded stock completes before this returns. */
export const payOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  await onOrder(deps, orderId, (now) => ({ type: 'AuthorizePayment', data: { now } }), caller);
  return provisionOrder(deps, orderId, caller);
};

/** The reservation TTL passed unpaid: expire the order, put its keys back. */
export const expireOrder = async (deps: CommandDeps, orderId: string, caller: Caller): Promise<OrderState> => {
  const order = (await onOrder(deps, orderId, (now) => ({ type: 'ExpireOrder', data: { now } }), caller)).state;
  if (order.status === 'expired') await releaseItems(deps, order.items, caller);
  return order;
};

/** A reservation whose order never got written (a crash in checkout) must not hold keys forever. */
export const releaseOrphanReservation = async (
  deps: CommandDeps,
  offerId: string,
  orderId: string,
  orderItemId: string,
  caller: Caller,
) => {
  const order = await stateOf(deps, orderStream(orderId), orderDecider);
  // an order placed by a later run of its checkout (after a crash) may not hold this item
  if (order && order.items.some((i) => i.orderItemId === orderItemId)) return expireOrder(deps, orderId, caller);
  await onInventory(deps, offerId, (now) => ({ type: 'ReleaseReservation', data: { orderItemId, now } }), caller);
  return null;
};

/**
 * Refund, then its reversing ledger entries at once (the ledger.post-refunds timer only
 * finishes what a crash left undone). Items never delivered earned no sale and reverse
 * nothing. A sale a crash left unposted is posted first, so the reversal has its entry.
 */
export const refundOrder = async (
  deps: CommandDeps,
  orderId: string,
  orderItemIds: string[] | undefined,
  caller: Caller,
) => {
  const result = await onOrder(
    deps,
    orderId,
    (now) => ({ type: 'RefundOrder', data: { refundId: newId(), ...(orderItemIds && { orderItemIds }), now } }),
    caller,
  );
  const refunded = new Set(
    result.events.flatMap((e) => (e.type === 'OrderRefunded' ? e.data.items.map((i) => i.orderItemId) : [])),
  );
  const reversed = result.state.items.filter((i) => refunded.has(i.orderItemId) && i.deliveredAt !== null);
  if (reversed.length > 0) {
    await postSales(deps, orderId, caller);
    await postRefunds(deps, reversed, caller);
  }
  return result.state;
};

export const disputeOrder = async (
  deps: CommandDeps,
  orderId: string,
  orderItemIds: string[] | undefined,
  reason: string | null,
  caller: Caller,
) =>
  (
    await onOrder(
      deps,
      orderId,
      (now) => ({ type: 'DisputeOrder', data: { ...(orderItemIds && { orderItemIds }), reason, now } }),
      caller,
    )
  ).state;

/** Staff invalidation of one key (a bad or leaked key): an available key leaves stock. */
export const invalidateItem = async (
  deps: CommandDeps,
  offerId: string,
  itemId: string,
  reason: string | null,
  caller: Caller,
) => {
  const offer = await stateOf(deps, offerStream(offerId), offerDecider);
  if (!offer) throw new DomainError('not_found', `inventory item ${itemId} not found`);
  return onInventory(
    deps,
    offerId,
    (now) => ({
      type: 'InvalidateItem',
      data: {
        offerId,
        supplierId: offer.supplierId,
        itemId,
        reason,
        lowStockThreshold: offer.terms.lowStockThreshold,
        now,
      },
    }),
    caller,
  );
};

/**
 * Runs the steps of one request (checkout, pay, refund, a sandbox scenario) without waiting
 * for the read models after every step, then waits once for the last position written:
 * later positions cover earlier ones, so the caller's next read still sees every step, and
 * the request pays one wait instead of one per event. No step here reads a read model
 * written by an earlier step of the same request. Its appends are quiet (see `AppendOptions`).
 */
export const withOneReadModelWait = async <T>(
  deps: CommandDeps,
  work: (deps: CommandDeps) => Promise<T>,
): Promise<T> => {
  let last: Position | undefined;
  const projections = Object.create(deps.projections, {
    waitFor: {
      value: async (position: Position) => {
        if (!last || comparePositions(position, last) > 0) last = position;
        return true;
      },
    },
  }) as ProjectionRunner;
  // the feed reads the request's events once, after its last append: woken at its first, it
  // would start a batch that the last append then waits behind (a sandbox order at
  // concurrency 1 took 2.2 batches and waited 12.6 ms for them; now 1 batch and 10.5 ms)
  const store = overriding(deps.store, changedWrites(deps.store, { options: () => ({ quiet: true }) }));
  try {
    return await work({ ...deps, projections, store });
  } finally {
    deps.store.wake();
    if (last) await deps.projections.waitFor(last);
  }
};
