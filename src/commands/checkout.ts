import { inventoryDecider } from '../domain/inventory.js';
import { offerDecider, type OfferState } from '../domain/offer.js';
import { orderDecider, type OrderState, type PlacedItem } from '../domain/order.js';
import { itemOf, provisionsAtOnce } from '../domain/order-plan.js';
import { productDecider } from '../domain/product.js';
import { type LineToRoute, routeLine, type Share, type SupplierAnswer } from '../domain/routing.js';
import {
  type Candidate,
  type LineReceipt,
  type PassedOverWhy,
  type RoutingRule,
  routingReceiptDecider,
} from '../domain/routing-receipt.js';
import type { InventoryState } from '../domain/inventory.js';
import { checkFormFields } from '../domain/topup.js';
import { invalidInput } from '../domain/errors.js';
import { deriveId, newId } from '../ids.js';
import { type Caller, type CommandDeps, executeTogether } from './context.js';
import { releaseSupplierReservation, reserveDeclared } from './declared.js';
import { stateOf } from './handle.js';
import { streamOf, type Writes } from './handle-together.js';
import { keysToTake, reservationOf, reserveCommand } from './order-steps.js';
import { balancesOf, captureWithSales, handOver, salesPosted } from './uploaded-stock.js';
import { inventoryStream, offerStream, orderStream, productStream, routingStream } from './streams.js';
import { topupRefused, validateTopup } from './topup.js';

/**
 * Checkout, whichever kind of stock serves it: each line is routed (src/domain/routing.ts),
 * and the order's steps (the uploaded keys' reservations, the placement, as asked the
 * authorization, and where every item is uploaded keys the hand-over, the capture and the
 * sale entries) are decided together and written once (`executeTogether`), all or nothing.
 * A share of declared stock or a top-up needs its supplier's answer first: the decision
 * stops at it, the supplier is asked, and the decision runs again with the answer. A crash
 * leaves all of the write or none of it; what a supplier holds for a checkout that fails,
 * or that a later decision no longer needs, is released at the supplier.
 */

export interface CheckoutInput {
  orderId: string;
  /**
   * Each line's candidate offers' ids, in routing order, by `rule`; `candidates`: every
   * active offer of the product as the ranking saw it (for the routing receipt), or none
   * when only the offers ranked are candidates (a sandbox order's own offer).
   */
  lines: readonly {
    productId: string;
    quantity: number;
    offerIds: readonly string[];
    rule: RoutingRule;
    candidates?: readonly Candidate[];
    /** When the ranking read the candidates (the checkout's moment when not given). */
    rankedAt?: string;
  }[];
  buyerCountry: string;
  formFields?: Record<string, string>;
  expiresAt: string;
  authorize: boolean;
  /**
   * With `authorize`: hand uploaded keys over and capture in the same write (a request that
   * pays at once), where the store writes it as one transaction.
   */
  provision: boolean;
}

/** The decision reached a share its supplier has not answered for yet. */
class AnswerNeeded extends Error {
  constructor(
    readonly offer: OfferState,
    readonly quantity: number,
    readonly line: LineToRoute,
  ) {
    super(`offer ${offer.id} must answer for ${quantity}`);
  }
}

export const checkout = async (deps: CommandDeps, input: CheckoutInput, caller: Caller): Promise<OrderState> => {
  const lines = await linesToRoute(deps, input);
  const answers: SupplierAnswer[] = [];
  const order = await withAnswers(deps, answers, async () => {
    for (;;) {
      const written = await writeCheckout(deps, input, lines, answers, caller).catch((error: unknown) => {
        if (error instanceof AnswerNeeded) return error;
        throw error;
      });
      if (!(written instanceof AnswerNeeded)) return written;
      answers.push(await askSupplier(deps, input, written, caller));
    }
  });
  await releaseHolds(deps, answers, order.items);
  return order;
};

/** Runs `work`; when it fails, what the suppliers hold for it is released. */
const withAnswers = async <T>(deps: CommandDeps, answers: SupplierAnswer[], work: () => Promise<T>) => {
  try {
    return await work();
  } catch (error) {
    await releaseHolds(deps, answers, []);
    throw error;
  }
};

/** Each line with its product's kind and its candidate offers; a top-up's form fields are checked first. */
const linesToRoute = async (deps: CommandDeps, input: CheckoutInput): Promise<LineToRoute[]> => {
  const lines: LineToRoute[] = [];
  for (const line of input.lines) {
    const product = await stateOf(deps, productStream(line.productId), productDecider);
    const topup = product?.type === 'topup';
    if (topup) {
      const errors = checkFormFields(product.formFields, input.formFields ?? {});
      if (errors.length > 0) throw invalidInput(errors);
    }
    const offers: OfferState[] = [];
    for (const offerId of line.offerIds) {
      const offer = await stateOf(deps, offerStream(offerId), offerDecider);
      if (offer) offers.push(offer);
    }
    lines.push({ productId: line.productId, quantity: line.quantity, topup, offers });
  }
  return lines;
};

/**
 * The supplier's answer for a share: a declared reservation, or a top-up's validation. An
 * account the supplier calls invalid refuses the checkout; any other failure passes the
 * offer over.
 */
const askSupplier = async (
  deps: CommandDeps,
  input: CheckoutInput,
  { offer, quantity, line }: AnswerNeeded,
  caller: Caller,
): Promise<SupplierAnswer> => {
  const answer = { offerId: offer.id, quantity };
  if (!line.topup) {
    const request = { quantity, buyerCountry: input.buyerCountry, expiresAt: input.expiresAt };
    const held = await reserveDeclared(deps, offer, request, caller);
    return { ...answer, hold: held.held ? { source: 'declared', reservationId: held.reservationId } : null };
  }
  const formFields = input.formFields ?? {};
  const validation = await validateTopup(
    deps,
    offer,
    { quantity, buyerCountry: input.buyerCountry, formFields },
    caller,
  );
  if (validation.kind === 'invalid') throw topupRefused(validation.code, validation.message);
  if (validation.kind === 'unavailable') return { ...answer, hold: null };
  const { operationId, accountLabel } = validation;
  const validatedAt = deps.clock.now().toISOString();
  return {
    ...answer,
    hold: { source: 'topup', topup: { operationId, accountLabel, formFields, validatedAt, receiptRef: null } },
  };
};

/** Early release of the declared reservations `items` do not hold: best effort, they expire on their own anyway. */
const releaseHolds = async (deps: CommandDeps, answers: readonly SupplierAnswer[], items: readonly PlacedItem[]) => {
  for (const { offerId, hold } of answers)
    if (hold?.source === 'declared' && !items.some((i) => i.reservationId === hold.reservationId))
      await releaseSupplierReservation(deps, offerId, hold.reservationId);
};

/** The order's steps, decided on the streams they touch and written once. */
const writeCheckout = (
  deps: CommandDeps,
  input: CheckoutInput,
  lines: readonly LineToRoute[],
  answers: readonly SupplierAnswer[],
  caller: Caller,
): Promise<OrderState> => {
  const offers = lines.flatMap((l) => l.offers).filter((o) => o.status === 'active' && o.stockMode === 'uploaded');
  const uploaded = [...new Map(offers.map((o) => [o.id, o])).values()];
  // the keys are handed over in the same write only where it is one transaction: written
  // one stream after another (a store without appendMany), a failure after the inventory's
  // part would leave keys handed over to an order never placed. There the order is placed
  // and authorized here, and provisioned as its own step (`provisionOrder`).
  const provision = input.provision && input.authorize && deps.store.appendMany !== undefined;
  return salesPosted(
    executeTogether(
      deps,
      [
        ...uploaded.map((o) => streamOf(inventoryStream(o.id), inventoryDecider)),
        streamOf(orderStream(input.orderId), orderDecider),
        streamOf(routingStream(input.orderId), routingReceiptDecider),
        ...(provision ? balancesOf(deps, uploaded) : []),
      ],
      (writes, now) => decideCheckout(writes, { ...input, provision }, lines, answers, deps, now),
      caller,
    ),
  );
};

const decideCheckout = (
  writes: Writes,
  input: CheckoutInput,
  lines: readonly LineToRoute[],
  answers: readonly SupplierAnswer[],
  deps: Pick<CommandDeps, 'env' | 'ledger'>,
  now: string,
): OrderState => {
  const order = orderStream(input.orderId);
  // another run of the same checkout placed it meanwhile (a takeover while the first
  // run still worked): its answer is that order, and nothing more is written
  const placedBefore = writes.peek(order, orderDecider);
  if (placedBefore) return placedBefore;
  const { items, receipts } = reserveLines(writes, input, lines, answers, now);
  const { orderId, buyerCountry, expiresAt } = input;
  const placed = writes.on(order, orderDecider, [
    { type: 'PlaceOrder', data: { orderId, buyerCountry, items, expiresAt, now } },
    input.authorize ? { type: 'AuthorizePayment', data: { now } } : null,
  ]).state;
  if (!placed) throw new Error(`order ${orderId} missing after its placement`);
  writes.on(routingStream(orderId), routingReceiptDecider, [
    { type: 'RecordRouting', data: { orderId, at: now, lines: receipts } },
  ]);
  if (!input.provision || !placed.authorizedAt || !provisionsAtOnce(items)) return placed;
  for (const item of items) handOver(writes, orderId, item, now);
  return captureWithSales(writes, orderId, deps, now);
};

/**
 * Each line routed and its uploaded keys reserved, line after line (a later line sees what
 * an earlier one took). The n-th offer reached in the order keeps its item's id on every
 * run, so a run finds a reservation an earlier one made under it.
 */
const reserveLines = (
  writes: Writes,
  input: CheckoutInput,
  lines: readonly LineToRoute[],
  answers: readonly SupplierAnswer[],
  now: string,
): { items: PlacedItem[]; receipts: LineReceipt[] } => {
  const items: PlacedItem[] = [];
  const receipts: LineReceipt[] = [];
  let reachedBefore = 0;
  for (const [n, line] of lines.entries()) {
    const idOf = (offer: OfferState, reached: number) => deriveId(input.orderId, reachedBefore + reached, offer.id);
    const inventoryOf = (offer: OfferState) => writes.peek(inventoryStream(offer.id), inventoryDecider);
    // the receipt's stock signal is the one routing read, before this line took keys
    const receipt = receiptOf(input.lines[n]!, line, answers, inventoryOf, now);
    const route = routeLine(line, answers, (offer, reached, remaining) =>
      keysToTake(inventoryOf(offer), idOf(offer, reached), remaining),
    );
    if (route.kind === 'ask') throw new AnswerNeeded(route.offer, route.quantity, line);
    if (route.kind === 'short') throw route.error;
    for (const share of route.shares) {
      const orderItemId = idOf(share.offer, share.reached);
      items.push(share.hold ? itemOf(share, orderItemId, []) : reserveShare(writes, input, share, orderItemId, now));
    }
    receipts.push(receipt(route.shares));
    reachedBefore += line.offers.length;
  }
  return { items, receipts };
};

/**
 * What a line's receipt records: its candidates (as the ranking read them, or the offers
 * ranked as they stand), the offers that served it, and those reached before the last
 * server that gave nothing (keys gone meanwhile, a supplier that held nothing).
 */
const receiptOf = (
  input: CheckoutInput['lines'][number],
  line: LineToRoute,
  answers: readonly SupplierAnswer[],
  inventoryOf: (offer: OfferState) => Pick<InventoryState, 'available'>,
  now: string,
) => {
  const candidates = input.candidates ?? line.offers.map((o) => candidateOf(o, inventoryOf));
  return (shares: readonly Share[]): LineReceipt => {
    const last = shares.at(-1)?.reached ?? -1;
    const passedOver = line.offers
      .slice(0, last + 1)
      .filter((o) => !shares.some((s) => s.offer.id === o.id))
      .map((o) => ({ offerId: o.id, why: passedOverWhy(o, answers) }));
    return {
      productId: line.productId,
      quantity: line.quantity,
      rule: input.rule,
      rankedAt: input.rankedAt ?? now,
      candidates: [...candidates],
      served: shares.map((s) => ({ offerId: s.offer.id, quantity: s.quantity })),
      passedOver,
    };
  };
};

const passedOverWhy = (o: OfferState, answers: readonly SupplierAnswer[]): PassedOverWhy =>
  o.status !== 'active'
    ? 'not_active'
    : o.stockMode === 'declared' && answers.some((a) => a.offerId === o.id && a.hold === null)
      ? 'supplier_declined'
      : 'no_keys';

/** An offer as routing sees it, from its stream and its inventory (only an active uploaded one's is in the write). */
const candidateOf = (
  o: OfferState,
  inventoryOf: (offer: OfferState) => Pick<InventoryState, 'available'>,
): Candidate => ({
  offerId: o.id,
  supplierId: o.supplierId,
  status: o.status,
  price: o.terms.price,
  health: o.health,
  cooldownUntil: o.cooldownUntil,
  stock: o.stockMode === 'declared' ? (o.declaredStock ?? 0) : o.status === 'active' ? inventoryOf(o).available : 0,
  activatedAt: o.activatedAt,
  stockMode: o.stockMode,
});

/** An uploaded share's keys, reserved in its offer's inventory for the order item. */
const reserveShare = (writes: Writes, input: CheckoutInput, share: Share, orderItemId: string, now: string) => {
  const { offer, quantity } = share;
  const reserve = (orderItemId: string) => {
    const command = reserveCommand(
      offer,
      { orderId: input.orderId, orderItemId, quantity, expiresAt: input.expiresAt },
      now,
    );
    return reservationOf(writes.on(inventoryStream(offer.id), inventoryDecider, [command]).state, orderItemId);
  };
  let id = orderItemId;
  let reserved = reserve(id);
  if (reserved.state !== 'reserved' || reserved.itemIds.length !== quantity) {
    // a reservation of an earlier run (one written stream by stream, or by an earlier
    // version's step-by-step checkout) that has since ended or holds another count: a fresh one
    id = newId();
    reserved = reserve(id);
  }
  return itemOf(share, id, reserved.itemIds);
};
