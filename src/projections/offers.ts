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
 * Moves items to a status and moves the offer's counts by exactly the items that changed, in
 * one statement: each count goes down by the moved items that had its status and up by those
 * that now have it. Deltas taken from the rows themselves cannot drift from the items, and
 * cost the moved items, not a count of the offer's whole stock (an offer may hold 100,000 keys).
 */
const moveItems = (
  db: Kysely<Database>,
  offerId: string,
  itemIds: string[],
  status: string,
  orderId: string | null | undefined,
  at: string,
) =>
  sql`with moved as (
        update inventory_items i set status = ${status}, updated_at = ${at}${
          orderId !== undefined ? sql`, order_id = ${orderId}` : sql``
        }
        from (select id, status as old from inventory_items where id = any(${itemIds}::text[])) o
        where i.id = o.id
        returning o.old
      ), counts as (
        select count(*) filter (where old = 'available') as was_available,
               count(*) filter (where old = 'reserved') as was_reserved,
               count(*) filter (where old = 'delivered') as was_delivered,
               count(*) as n
        from moved
      )
      update offers set
        stock_available = stock_available - c.was_available + case when ${status} = 'available' then c.n else 0 end,
        stock_reserved = stock_reserved - c.was_reserved + case when ${status} = 'reserved' then c.n else 0 end,
        stock_delivered = stock_delivered - c.was_delivered + case when ${status} = 'delivered' then c.n else 0 end,
        updated_at = ${at}
      from counts c
      where offers.id = ${offerId}`.execute(db);

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
