import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WebhookEventType } from '../domain/webhook-endpoint.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { readOrders } from '../resources/order-resource.js';
import { readPayout } from '../resources/payout-resource.js';
import { SOURCES } from '../domain/webhook-sources.js';

/**
 * For which suppliers a webhook event is, with what `data` (docs/webhooks.md). Order events
 * carry the supplier-scoped order exactly as `GET /orders/{order_id}` returns it when the
 * event is fanned out. Which domain event becomes which webhook event: domain/webhook-sources.ts.
 */

export interface Outgoing {
  type: WebhookEventType;
  /** Per supplier: the `data` of the envelope it receives. */
  bySupplier: Map<string, Record<string, unknown>>;
  /** An endpoint that must not receive it (the one just disabled). */
  exceptEndpoint?: string;
}

type OfferOwner = { supplier_id: string; product_id: string; external_ref: string } | undefined;

/** Reads the events of one fan-out batch share: an offer's owner is read once per batch. */
export type SharedReads = Map<string, Promise<OfferOwner>>;

const offerOwner = (db: Kysely<Database>, offerId: string, shared: SharedReads) => {
  const read =
    shared.get(offerId) ??
    db
      .selectFrom('offers')
      .select(['supplier_id', 'product_id', 'external_ref'])
      .where('id', '=', offerId)
      .executeTakeFirst();
  shared.set(offerId, read);
  return read;
};

/** The fields the source events of webhooks carry (domain/webhook-sources.ts names them), each as its event types spell it. */
interface SourceData {
  supplierIds: string[];
  supplierId: string;
  orderId: string;
  items: { orderItemId: string; supplierId: string }[];
  orderItemIds: string[];
  reason: string;
  offerId: string;
  available: number;
  threshold: number;
  price: number;
  previousPrice: number;
  itemId: string;
  previousStatus: string;
  payoutId: string;
  endpointId: string;
  consecutiveFailures: number;
  consequence: string;
  failedCalls: number | null;
  failedHealthchecks: number | null;
  message: string;
  health: number;
  importId: string;
  batchId: string;
  added: number;
  refused: number;
  at: string;
}

// eslint-disable-next-line max-lines-per-function -- one case per webhook event type, the spec's list
export const outgoingFor = async (
  db: Kysely<Database>,
  event: RecordedEvent<unknown>,
  shared: SharedReads = new Map(),
): Promise<Outgoing | null> => {
  const type = SOURCES[event.type];
  if (!type) return null;
  // which fields are present follows from the event's type, checked case by case below
  const d = event.data as SourceData;
  const bySupplier = new Map<string, Record<string, unknown>>();
  if (type.startsWith('order.')) {
    for (const supplierId of d.supplierIds) {
      const order = (await readOrders(db, [d.orderId], supplierId)).get(d.orderId);
      if (!order) continue;
      const extra =
        event.type === 'OrderRefunded'
          ? {
              refunded_item_ids: (d.items as { orderItemId: string; supplierId: string }[])
                .filter((i) => i.supplierId === supplierId)
                .map((i) => i.orderItemId),
            }
          : event.type === 'OrderDisputed'
            ? {
                disputed_item_ids: d.orderItemIds.filter((id) => order.items.some((i) => i.id === id)),
                reason: d.reason,
              }
            : {};
      bySupplier.set(supplierId, { order, ...extra });
    }
    return { type, bySupplier };
  }
  if (type === 'offer.deactivated' || type === 'offer.stock_low') {
    const owner = await offerOwner(db, d.offerId, shared);
    if (!owner) return null;
    bySupplier.set(
      owner.supplier_id,
      type === 'offer.deactivated'
        ? { offer_id: d.offerId, product_id: owner.product_id, external_ref: owner.external_ref, reason: d.reason }
        : {
            offer_id: d.offerId,
            product_id: owner.product_id,
            external_ref: owner.external_ref,
            available: d.available,
            threshold: d.threshold,
          },
    );
    return { type, bySupplier };
  }
  if (type === 'offer.repriced') {
    const owner = await offerOwner(db, d.offerId, shared);
    if (!owner) return null;
    const money = (amount: number) => ({ amount, currency: 'EUR' });
    bySupplier.set(owner.supplier_id, {
      offer_id: d.offerId,
      product_id: owner.product_id,
      external_ref: owner.external_ref,
      price: money(d.price),
      previous_price: money(d.previousPrice),
      reason: d.reason,
    });
    return { type, bySupplier };
  }
  if (type === 'offer.health_warning') {
    const owner = await offerOwner(db, d.offerId, shared);
    if (!owner) return null;
    bySupplier.set(owner.supplier_id, {
      offer_id: d.offerId,
      product_id: owner.product_id,
      external_ref: owner.external_ref,
      health: d.health,
      consequence: d.consequence,
      failed_calls: d.failedCalls,
      failed_healthchecks: d.failedHealthchecks,
      message: d.message,
    });
    return { type, bySupplier };
  }
  if (type === 'stock.invalidated') {
    bySupplier.set(d.supplierId, {
      offer_id: d.offerId,
      item_id: d.itemId,
      previous_status: d.previousStatus,
      reason: d.reason,
    });
    return { type, bySupplier };
  }
  if (type === 'inventory.import_completed') {
    bySupplier.set(d.supplierId, {
      import_id: d.importId,
      offer_id: d.offerId,
      batch_id: d.batchId,
      added: d.added,
      refused: d.refused,
      completed_at: d.at,
    });
    return { type, bySupplier };
  }
  if (type.startsWith('payout.')) {
    // the payout as GET /payouts/{payout_id} shows it when the event is fanned out
    const found = await readPayout(db, d.payoutId, d.supplierId);
    if (!found) return null;
    const { supplierId: _owner, ...payout } = found;
    bySupplier.set(d.supplierId, { payout });
    return { type, bySupplier };
  }
  // webhook.disabled: to the supplier's other active endpoints, for an auto-disable only (the
  // spec's event); a supplier disabling its own endpoint is told nothing it did not ask for
  if (d.reason === 'supplier_request') return null;
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select(['url'])
    .where('id', '=', d.endpointId)
    .executeTakeFirst();
  bySupplier.set(d.supplierId, {
    webhook_id: d.endpointId,
    url: endpoint?.url ?? null,
    reason: d.reason,
    consecutive_failures: d.consecutiveFailures,
    disabled_at: d.at,
  });
  return { type, bySupplier, exceptEndpoint: d.endpointId };
};

/** Canned `data` for test-fires: the shape of the real event, with example values. */
// eslint-disable-next-line max-lines-per-function -- one example per webhook event type, the spec's list
export const fixtureData = (type: WebhookEventType, at: string): Record<string, unknown> => {
  const money = (amount: number) => ({ amount, currency: 'EUR' });
  const order = {
    id: 'test_order',
    number: 'SVC-test_order',
    status:
      type === 'order.expired'
        ? 'expired'
        : type === 'order.refunded'
          ? 'refunded'
          : type === 'order.created'
            ? 'placed'
            : 'completed',
    buyer_country: 'DE',
    currency: 'EUR',
    created_at: at,
    paid_at: type === 'order.created' || type === 'order.expired' ? null : at,
    completed_at: type === 'order.created' || type === 'order.expired' ? null : at,
    expires_at: at,
    items: [
      {
        id: 'test_item',
        product_id: 'test_product',
        offer_id: 'test_offer',
        external_ref: 'TEST-SKU',
        quantity: 1,
        unit_price: money(1999),
        gross: money(1999),
        commission: money(170),
        net: money(1829),
        status:
          type === 'order.expired'
            ? 'released'
            : type === 'order.refunded'
              ? 'refunded'
              : type === 'order.created'
                ? 'reserved'
                : 'delivered',
        fulfilment: { source: 'uploaded', reservation_id: null, inventory_item_ids: ['test_inventory_item'] },
        delivered_at: type === 'order.created' || type === 'order.expired' ? null : at,
      },
    ],
    totals: { gross: money(1999), commission: money(170), net: money(1829) },
  };
  switch (type) {
    case 'order.refunded':
      return { order, refunded_item_ids: ['test_item'] };
    case 'order.disputed':
      return { order, disputed_item_ids: ['test_item'], reason: 'test' };
    case 'offer.deactivated':
      return {
        offer_id: 'test_offer',
        product_id: 'test_product',
        external_ref: 'TEST-SKU',
        reason: 'health_exhausted',
      };
    case 'offer.stock_low':
      return {
        offer_id: 'test_offer',
        product_id: 'test_product',
        external_ref: 'TEST-SKU',
        available: 2,
        threshold: 5,
      };
    case 'offer.repriced':
      return {
        offer_id: 'test_offer',
        product_id: 'test_product',
        external_ref: 'TEST-SKU',
        price: money(1899),
        previous_price: money(1999),
        reason: 'pricing_rule',
      };
    case 'offer.health_warning':
      return {
        offer_id: 'test_offer',
        product_id: 'test_product',
        external_ref: 'TEST-SKU',
        health: 45,
        consequence: 'cooldown',
        failed_calls: 1,
        failed_healthchecks: 1,
        message:
          '1 more failed reservation or order call (or 1 more failed healthcheck) and this offer enters a 120-minute cooldown',
      };
    case 'stock.invalidated':
      return { offer_id: 'test_offer', item_id: 'test_inventory_item', previous_status: 'available', reason: 'test' };
    case 'inventory.import_completed':
      return {
        import_id: 'test_import',
        offer_id: 'test_offer',
        batch_id: 'test_batch',
        added: 998,
        refused: 2,
        completed_at: at,
      };
    case 'payout.created':
    case 'payout.paid':
    case 'payout.failed': {
      const status = type === 'payout.created' ? 'pending' : type === 'payout.paid' ? 'paid' : 'failed';
      const entry = (id: string, entryType: string, amount: number) => ({
        id,
        type: entryType,
        amount: money(amount),
        account: 'available',
        order_id: null,
        order_item_id: null,
        payout_id: 'test_payout',
        created_at: at,
        available_at: null,
      });
      return {
        payout: {
          id: 'test_payout',
          amount: money(5000),
          method: 'sepa_bank_transfer',
          status,
          trigger: 'manual',
          failure_code: status === 'failed' ? 'account_closed' : null,
          created_at: at,
          in_transit_at: status === 'pending' ? null : at,
          paid_at: status === 'paid' ? at : null,
          failed_at: status === 'failed' ? at : null,
          cancelled_at: null,
          balance_entries: [
            entry('payout-test_payout:available', 'payout', -5000),
            ...(status === 'failed' ? [entry('payout-failure-test_payout:available', 'payout_reversal', 5000)] : []),
          ],
        },
      };
    }
    case 'webhook.disabled':
      return {
        webhook_id: 'test_webhook',
        url: 'https://example.com/hooks',
        reason: 'consecutive_failures',
        consecutive_failures: 30,
        disabled_at: at,
      };
    default:
      return { order };
  }
};

/**
 * The envelope body of one event for one supplier, as every delivery of it sends it (the
 * regular fan-out and a recovery alike): the same bytes are stored, signed and resent.
 */
export const envelopeBody = (
  event: RecordedEvent<unknown>,
  type: WebhookEventType,
  data: Record<string, unknown>,
  env: 'sandbox' | 'production',
) =>
  JSON.stringify({
    id: event.id,
    type,
    mode: event.metadata.mode ?? (env === 'sandbox' ? 'test' : 'live'),
    api_version: 'v1',
    test_fire: false,
    created_at: event.createdAt.toISOString(),
    data,
  });
