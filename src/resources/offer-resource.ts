import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { InventoryState } from '../domain/inventory.js';
import type { OfferState } from '../domain/offer.js';
import type { Database, OfferTable } from '../db/schema.js';
import { isEligible, type RoutableOffer } from '../domain/routing.js';
import { iso, Money, Timestamp } from './values.js';
import { compiledOnce } from '../db/compiled-once.js';

/** An offer with its inventory, as a command leaves it. */
export interface OfferView {
  offer: OfferState;
  inventory: InventoryState;
  /** The clear fulfilment secret, only right after creation or rotation. */
  secret?: string;
}

export const Offer = z
  .object({
    id: z.string(),
    product_id: z.string(),
    external_ref: z.string(),
    status: z.enum(['draft', 'active', 'inactive']),
    stock_mode: z.enum(['uploaded', 'declared']),
    price: Money,
    delivery_sla_minutes: z.number().int(),
    delivery_time: z.string(),
    low_stock_threshold: z.number().int(),
    stock: z.object({
      mode: z.enum(['uploaded', 'declared']),
      declared: z.number().int().nullable(),
      available: z.number().int().nullable(),
      reserved: z.number().int().nullable(),
      delivered: z.number().int(),
    }),
    health: z.object({ score: z.number().int(), routing_eligible: z.boolean(), cooldown_until: Timestamp.nullable() }),
    fulfilment: z
      .object({
        base_url: z.string(),
        secret: z.string().optional().describe('svcsec_…; only in the creation and rotation answers'),
        secret_set: z.boolean(),
        last_healthcheck_at: Timestamp.nullable(),
        last_healthcheck_ok: z.boolean().nullable(),
      })
      .nullable()
      .describe('declared offers only'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Offer' });

export type OfferResource = z.infer<typeof Offer>;

/** The one shape both the write side (aggregate state) and the read side (row) map into. */
interface OfferSnapshot {
  id: string;
  supplierId: string;
  productId: string;
  externalRef: string;
  status: 'draft' | 'active' | 'inactive';
  stockMode: 'uploaded' | 'declared';
  price: number;
  deliverySlaMinutes: number;
  deliveryTime: string;
  lowStockThreshold: number;
  declaredStock: number | null;
  available: number;
  reserved: number;
  delivered: number;
  health: number;
  cooldownUntil: string | null;
  fulfilment: { baseUrl: string; lastHealthcheckAt: string | null; lastHealthcheckOk: boolean | null } | null;
  activatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const routableOf = (
  s: Pick<
    OfferSnapshot,
    | 'id'
    | 'supplierId'
    | 'status'
    | 'price'
    | 'health'
    | 'cooldownUntil'
    | 'stockMode'
    | 'available'
    | 'declaredStock'
    | 'activatedAt'
  >,
): RoutableOffer => ({
  offerId: s.id,
  supplierId: s.supplierId,
  status: s.status,
  price: s.price,
  health: s.health,
  cooldownUntil: s.cooldownUntil,
  stock: s.stockMode === 'uploaded' ? s.available : (s.declaredStock ?? 0),
  activatedAt: s.activatedAt,
});

const toResource = (s: OfferSnapshot, now: Date, secret?: string): OfferResource => ({
  id: s.id,
  product_id: s.productId,
  external_ref: s.externalRef,
  status: s.status,
  stock_mode: s.stockMode,
  price: { amount: s.price, currency: 'EUR' },
  delivery_sla_minutes: s.deliverySlaMinutes,
  delivery_time: s.deliveryTime,
  low_stock_threshold: s.lowStockThreshold,
  stock:
    s.stockMode === 'uploaded'
      ? { mode: 'uploaded', declared: null, available: s.available, reserved: s.reserved, delivered: s.delivered }
      : { mode: 'declared', declared: s.declaredStock, available: null, reserved: null, delivered: s.delivered },
  health: { score: s.health, routing_eligible: isEligible(routableOf(s), now), cooldown_until: s.cooldownUntil },
  fulfilment: s.fulfilment && {
    base_url: s.fulfilment.baseUrl,
    ...(secret && { secret }),
    secret_set: true,
    last_healthcheck_at: s.fulfilment.lastHealthcheckAt,
    last_healthcheck_ok: s.fulfilment.lastHealthcheckOk,
  },
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

/** What only the read side knows about an offer: when its stock last moved, and what declared stock delivered. */
export interface ReadSide {
  updatedAt: string;
  declaredDelivered: number;
}

/**
 * After a write: from the aggregates' state, so the answer never lags the write, with
 * what only the read side knows merged in (its `updated_at` also moves with the stock).
 */
export const offerFromState = (
  { offer, inventory, secret }: OfferView,
  now: Date,
  readSide?: ReadSide,
): OfferResource =>
  toResource(
    {
      id: offer.id,
      supplierId: offer.supplierId,
      productId: offer.productId,
      externalRef: offer.terms.externalRef,
      status: offer.status,
      stockMode: offer.stockMode,
      price: offer.terms.price,
      deliverySlaMinutes: offer.terms.deliverySlaMinutes,
      deliveryTime: offer.terms.deliveryTime,
      lowStockThreshold: offer.terms.lowStockThreshold,
      declaredStock: offer.declaredStock,
      available: inventory.available,
      reserved: inventory.reserved,
      delivered: offer.stockMode === 'declared' ? (readSide?.declaredDelivered ?? 0) : inventory.delivered,
      health: offer.health,
      cooldownUntil: offer.cooldownUntil,
      fulfilment: offer.fulfilment && {
        baseUrl: offer.fulfilment.baseUrl,
        lastHealthcheckAt: offer.fulfilment.lastHealthcheckAt,
        lastHealthcheckOk: offer.fulfilment.lastHealthcheckOk,
      },
      activatedAt: offer.activatedAt,
      createdAt: offer.createdAt,
      updatedAt: readSide && readSide.updatedAt > offer.updatedAt ? readSide.updatedAt : offer.updatedAt,
    },
    now,
    secret,
  );

export const snapshotOfRow = (r: Selectable<OfferTable>): OfferSnapshot => ({
  id: r.id,
  supplierId: r.supplier_id,
  productId: r.product_id,
  externalRef: r.external_ref,
  status: r.status as OfferSnapshot['status'],
  stockMode: r.stock_mode as OfferSnapshot['stockMode'],
  price: r.price_amount,
  deliverySlaMinutes: r.delivery_sla_minutes,
  deliveryTime: r.delivery_time,
  lowStockThreshold: r.low_stock_threshold,
  declaredStock: r.declared_stock,
  available: r.stock_available,
  reserved: r.stock_reserved,
  delivered: r.stock_delivered,
  health: r.health_score,
  cooldownUntil: r.cooldown_until && iso(r.cooldown_until),
  fulfilment:
    r.fulfilment_base_url === null
      ? null
      : {
          baseUrl: r.fulfilment_base_url,
          lastHealthcheckAt: r.last_healthcheck_at && iso(r.last_healthcheck_at),
          lastHealthcheckOk: r.last_healthcheck_ok,
        },
  activatedAt: r.activated_at && iso(r.activated_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** For reads: from the read model (`declaredDelivered` from declaredDeliveries for declared offers). */
export const offerFromRow = (r: Selectable<OfferTable>, now: Date, declaredDelivered = 0): OfferResource => {
  const snapshot = snapshotOfRow(r);
  return toResource(snapshot.stockMode === 'declared' ? { ...snapshot, delivered: declaredDelivered } : snapshot, now);
};

/**
 * Units that declared offers delivered: the supplier hands them over per order, so they
 * are counted on the order items (delivered ones, refunded later or not), not in an
 * inventory. Uploaded offers count their delivered inventory items instead.
 */
export const declaredDeliveries = async (db: Kysely<Database>, offerIds: string[]): Promise<Map<string, number>> => {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_items')
    .select('offer_id')
    .select((eb) => eb.fn.sum<string | number>('quantity').as('units'))
    .where('offer_id', 'in', offerIds)
    .where('delivered_at', 'is not', null)
    .groupBy('offer_id')
    .execute();
  return new Map(rows.map((r) => [r.offer_id, Number(r.units)]));
};

/** The read side of one offer, for a write's answer; undefined while the read model has not seen it. */
export const readSideOf = async (db: Kysely<Database>, offerId: string): Promise<ReadSide | undefined> => {
  const row = await db
    .selectFrom('offers')
    .select(['updated_at', 'stock_mode'])
    .where('id', '=', offerId)
    .executeTakeFirst();
  if (!row) return undefined;
  const declaredDelivered =
    row.stock_mode === 'declared' ? ((await declaredDeliveries(db, [offerId])).get(offerId) ?? 0) : 0;
  return { updatedAt: iso(row.updated_at), declaredDelivered };
};

/** A supplier's offer row by id (GET /offers/{id}, the hottest read): compiled once. */
export const offerOf = compiledOnce((db: Kysely<Database>, offerId: string, supplierId: string) =>
  db.selectFrom('offers').selectAll().where('id', '=', offerId).where('supplier_id', '=', supplierId),
);
