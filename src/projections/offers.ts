import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InventoryEvent } from '../domain/inventory.js';
import type { OfferEvent } from '../domain/offer.js';
import { projector } from './projector.js';

const termColumns = (c: Extract<OfferEvent, { type: 'OfferUpdated' }>['data']['changes']) => ({
  ...(c.price !== undefined && { price_amount: c.price }),
  ...(c.externalRef !== undefined && { external_ref: c.externalRef }),
  ...(c.lowStockThreshold !== undefined && { low_stock_threshold: c.lowStockThreshold }),
  ...(c.deliverySlaMinutes !== undefined && { delivery_sla_minutes: c.deliverySlaMinutes }),
  ...(c.deliveryTime !== undefined && { delivery_time: c.deliveryTime }),
  ...(c.fulfilmentBaseUrl !== undefined && { fulfilment_base_url: c.fulfilmentBaseUrl }),
});

/**
 * Moves items to a status and recounts the offer's stock from its items: counts derived
 * in the same transaction can never drift from the items they count.
 */
const moveItems = async (
  db: Kysely<Database>,
  offerId: string,
  itemIds: string[],
  status: string,
  orderId: string | null | undefined,
  at: string,
) => {
  if (itemIds.length > 0)
    await db
      .updateTable('inventory_items')
      .set({ status, updated_at: at, ...(orderId !== undefined && { order_id: orderId }) })
      .where('id', 'in', itemIds)
      .execute();
  const counts = db.selectFrom('inventory_items').where('offer_id', '=', offerId);
  await db
    .updateTable('offers')
    .set({
      stock_available: counts.select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'available'),
      stock_reserved: counts.select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'reserved'),
      stock_delivered: counts.select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'delivered'),
      updated_at: at,
    })
    .where('id', '=', offerId)
    .execute();
};

/** Offers with their stock counts, and the inventory items (never their values). */
export const offersProjection = projector<OfferEvent | InventoryEvent>({
  name: 'offers',
  version: 2,
  tables: ['offers', 'inventory_items'],
  ddl: (s) => `
    create table ${s}.offers (
      id text primary key,
      supplier_id text not null,
      product_id text not null,
      external_ref text not null,
      status text not null,
      stock_mode text not null,
      price_amount bigint not null,
      delivery_sla_minutes integer not null,
      delivery_time text not null,
      low_stock_threshold integer not null,
      declared_stock integer,
      stock_available integer not null default 0,
      stock_reserved integer not null default 0,
      stock_delivered integer not null default 0,
      health_score integer not null,
      cooldown_until timestamptz,
      fulfilment_base_url text,
      last_healthcheck_at timestamptz,
      last_healthcheck_ok boolean,
      activated_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${s}.offers (supplier_id, id);
    create index on ${s}.offers (product_id, status);
    create table ${s}.inventory_items (
      id text primary key,
      offer_id text not null,
      kind text not null,
      status text not null,
      file_name text,
      content_type text,
      order_id text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${s}.inventory_items (offer_id, id);
    create index on ${s}.inventory_items (offer_id, status);`,
  handlers: {
    OfferCreated: (db, e) => {
      const d = e.data;
      return db.insertInto('offers').values({
        id: d.offerId,
        supplier_id: d.supplierId,
        product_id: d.productId,
        external_ref: d.externalRef,
        status: 'draft',
        stock_mode: d.stockMode,
        price_amount: d.price,
        delivery_sla_minutes: d.deliverySlaMinutes,
        delivery_time: d.deliveryTime,
        low_stock_threshold: d.lowStockThreshold,
        declared_stock: d.declaredStock,
        stock_available: 0,
        stock_reserved: 0,
        stock_delivered: 0,
        health_score: 100,
        cooldown_until: null,
        fulfilment_base_url: d.fulfilment?.baseUrl ?? null,
        last_healthcheck_at: null,
        last_healthcheck_ok: null,
        activated_at: null,
        created_at: d.at,
        updated_at: d.at,
      });
    },
    OfferUpdated: (db, e) =>
      db
        .updateTable('offers')
        .set({ ...termColumns(e.data.changes), updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    OfferPriceChanged: (db, e) =>
      db
        .updateTable('offers')
        .set({ price_amount: e.data.price, updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    OfferActivated: (db, e) =>
      db
        .updateTable('offers')
        .set({
          status: 'active',
          health_score: e.data.health,
          cooldown_until: null,
          activated_at: e.data.at,
          updated_at: e.data.at,
        })
        .where('id', '=', e.data.offerId),
    OfferDeactivated: (db, e) =>
      db.updateTable('offers').set({ status: 'inactive', updated_at: e.data.at }).where('id', '=', e.data.offerId),
    DeclaredStockSet: (db, e) =>
      db
        .updateTable('offers')
        .set({ declared_stock: e.data.declaredStock, updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    FulfilmentChecked: (db, e) =>
      db
        .updateTable('offers')
        .set({
          last_healthcheck_at: e.data.probe.checkedAt,
          last_healthcheck_ok: e.data.probe.ok,
          updated_at: e.data.at,
        })
        .where('id', '=', e.data.offerId),
    OfferHealthChanged: (db, e) =>
      db
        .updateTable('offers')
        .set({ health_score: e.data.health, updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    OfferCooldownStarted: (db, e) =>
      db
        .updateTable('offers')
        .set({ cooldown_until: e.data.until, updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    OfferCooldownEnded: (db, e) =>
      db
        .updateTable('offers')
        .set({ health_score: e.data.health, cooldown_until: null, updated_at: e.data.at })
        .where('id', '=', e.data.offerId),
    FulfilmentSecretRotated: (db, e) =>
      db.updateTable('offers').set({ updated_at: e.data.at }).where('id', '=', e.data.offerId),

    InventoryUploaded: async (db, e) => {
      const { offerId, items, at } = e.data;
      if (items.length === 0) return;
      for (let i = 0; i < items.length; i += 1000)
        await db
          .insertInto('inventory_items')
          .values(
            items.slice(i, i + 1000).map((item) => ({
              id: item.itemId,
              offer_id: offerId,
              kind: item.kind,
              status: 'available',
              file_name: item.fileName,
              content_type: item.contentType,
              order_id: null,
              created_at: at,
              updated_at: at,
            })),
          )
          .execute();
      await db
        .updateTable('offers')
        .set({ stock_available: sql`stock_available + ${items.length}`, updated_at: at })
        .where('id', '=', offerId)
        .execute();
    },
    InventoryReserved: (db, e) => moveItems(db, e.data.offerId, e.data.itemIds, 'reserved', e.data.orderId, e.data.at),
    InventoryReleased: (db, e) => moveItems(db, e.data.offerId, e.data.itemIds, 'available', null, e.data.at),
    InventoryDelivered: (db, e) =>
      moveItems(db, e.data.offerId, e.data.itemIds, 'delivered', e.data.orderId, e.data.at),
    InventoryItemInvalidated: (db, e) =>
      moveItems(db, e.data.offerId, [e.data.itemId], 'invalidated', undefined, e.data.at),
    InventoryItemRemoved: async (db, e) => {
      await db
        .updateTable('inventory_items')
        .set({ status: 'removed', updated_at: e.data.at })
        .where('id', '=', e.data.itemId)
        .execute();
      await db
        .updateTable('offers')
        .set({ stock_available: sql`stock_available - 1`, updated_at: e.data.at })
        .where('id', '=', e.data.offerId)
        .execute();
    },
  },
});
