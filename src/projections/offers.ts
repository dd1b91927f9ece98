import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InventoryEvent } from '../domain/inventory.js';
import type { OfferEvent } from '../domain/offer.js';
import { HEALTH } from '../domain/offer-health.js';
import { derivedFamily } from '../ids.js';
import { type Gatherer, gatheredBy, projector } from './projector.js';

const termColumns = (c: Extract<OfferEvent, { type: 'OfferUpdated' }>['data']['changes']) => ({
  ...(c.price !== undefined && { price_amount: c.price }),
  ...(c.externalRef !== undefined && { external_ref: c.externalRef }),
  ...(c.lowStockThreshold !== undefined && { low_stock_threshold: c.lowStockThreshold }),
  ...(c.deliverySlaMinutes !== undefined && { delivery_sla_minutes: c.deliverySlaMinutes }),
  ...(c.deliveryTime !== undefined && { delivery_time: c.deliveryTime }),
  ...(c.fulfilmentBaseUrl !== undefined && { fulfilment_base_url: c.fulfilmentBaseUrl }),
});

type OfferProjectionEvent = OfferEvent | InventoryEvent;
type DataOf<T extends OfferProjectionEvent['type']> = Extract<OfferProjectionEvent, { type: T }>['data'];
type Statement<T extends OfferProjectionEvent['type']> = (
  db: Kysely<Database>,
  d: DataOf<T>,
) => Executable | Promise<unknown>;
type Executable = { execute(): Promise<unknown> };

/** The statements of each event but the item moves (those are folded per batch: `ItemMoves`). */
const statements: { [T in Exclude<OfferProjectionEvent['type'], MoveType>]?: Statement<T> } = {
  OfferCreated: (db, d) => {
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
      health_score: HEALTH.start,
      cooldown_until: null,
      fulfilment_base_url: d.fulfilment?.baseUrl ?? null,
      last_healthcheck_at: null,
      last_healthcheck_ok: null,
      activated_at: null,
      created_at: d.at,
      updated_at: d.at,
    });
  },
  OfferUpdated: (db, d) =>
    db
      .updateTable('offers')
      .set({ ...termColumns(d.changes), updated_at: d.at })
      .where('id', '=', d.offerId),
  OfferPriceChanged: (db, d) =>
    db.updateTable('offers').set({ price_amount: d.price, updated_at: d.at }).where('id', '=', d.offerId),
  OfferActivated: (db, d) =>
    db
      .updateTable('offers')
      .set({
        status: 'active',
        health_score: d.health,
        cooldown_until: null,
        activated_at: d.at,
        updated_at: d.at,
      })
      .where('id', '=', d.offerId),
  OfferDeactivated: (db, d) =>
    db.updateTable('offers').set({ status: 'inactive', updated_at: d.at }).where('id', '=', d.offerId),
  DeclaredStockSet: (db, d) =>
    db.updateTable('offers').set({ declared_stock: d.declaredStock, updated_at: d.at }).where('id', '=', d.offerId),
  FulfilmentChecked: (db, d) =>
    db
      .updateTable('offers')
      .set({
        last_healthcheck_at: d.probe.checkedAt,
        last_healthcheck_ok: d.probe.ok,
        updated_at: d.at,
      })
      .where('id', '=', d.offerId),
  OfferHealthChanged: (db, d) =>
    db.updateTable('offers').set({ health_score: d.health, updated_at: d.at }).where('id', '=', d.offerId),
  OfferCooldownStarted: (db, d) =>
    db.updateTable('offers').set({ cooldown_until: d.until, updated_at: d.at }).where('id', '=', d.offerId),
  OfferCooldownEnded: (db, d) =>
    db
      .updateTable('offers')
      .set({ health_score: d.health, cooldown_until: null, updated_at: d.at })
      .where('id', '=', d.offerId),
  FulfilmentSecretRotated: (db, d) => db.updateTable('offers').set({ updated_at: d.at }).where('id', '=', d.offerId),

  InventoryUploaded: async (db, d) => {
    const { offerId, itemIds, masks, files, held, at } = d;
    const [first] = itemIds;
    if (first === undefined) return;
    const heldPlaces = held.map((h) => h.place + 1);
    // one statement for the items and the offer's count: a row of parameters per item cost
    // 9,000 parameters and two statements for 1,000 keys. The ids and masks go as JSON arrays
    // (the driver escapes a text[] element by element in JavaScript). The files and the held
    // items (few) come as their places; every other item is an available text key. An
    // upload's items are one batch: their ids' family (src/ids.ts).
    await sql`with added as (
        insert into inventory_items
          (id, offer_id, kind, status, file_name, content_type, order_id, batch_id, mask, tail, size,
           created_at, updated_at)
        select i.id, ${offerId}, case when f.place is null then 'text' else 'file' end,
          case when i.place = any(${heldPlaces}::int[]) then 'held' else 'available' end,
          f.file_name, f.content_type, null, ${derivedFamily(first)}, nullif(m.mask, ''),
          upper(nullif(regexp_replace(m.mask, '^.*•', ''), '')), f.size, ${at}::timestamptz, ${at}::timestamptz
        from jsonb_array_elements_text(${JSON.stringify(itemIds)}::jsonb) with ordinality as i(id, place)
          join jsonb_array_elements_text(${JSON.stringify(masks)}::jsonb) with ordinality as m(mask, place)
            on m.place = i.place
          left join unnest(${files.map((f) => f.place + 1)}::int[], ${files.map((f) => f.fileName)}::text[],
                           ${files.map((f) => f.contentType)}::text[], ${files.map((f) => f.size)}::int[])
            as f(place, file_name, content_type, size)
            on f.place = i.place
        order by i.place
      )
      update offers set stock_available = stock_available + ${itemIds.length - held.length}, updated_at = ${at}
      where id = ${offerId}`.execute(db);
    // the operator's list of collisions (GET /operator/v1/key-collisions); the supplier's reads never join it
    if (held.length > 0)
      await db
        .insertInto('key_collisions')
        .values(
          held.map((h) => ({
            item_id: itemIds[h.place] ?? '',
            offer_id: offerId,
            other_item_id: h.itemId,
            other_offer_id: h.offerId,
            other_supplier_id: h.supplierId,
            detected_at: at,
          })),
        )
        .onConflict((oc) => oc.column('item_id').doNothing())
        .execute();
  },
  InventoryItemRemoved: async (db, d) => {
    await db
      .updateTable('inventory_items')
      .set({ status: 'removed', updated_at: d.at })
      .where('id', '=', d.itemId)
      .execute();
    await db
      .updateTable('offers')
      .set({ stock_available: sql`stock_available - 1`, updated_at: d.at })
      .where('id', '=', d.offerId)
      .execute();
  },
};

/** The events that move items from one status to another. */
type MoveType =
  | 'InventoryReserved'
  | 'InventoryReleased'
  | 'InventoryDelivered'
  | 'InventoryItemInvalidated'
  | 'InventoryItemsWithdrawn'
  | 'InventoryItemsHeld'
  | 'InventoryReviewCleared';

/** An item's status, order and time after the moves of a batch so far. */
interface Moved {
  id: string;
  status: string;
  /** The order it is now for; absent: a move that leaves the item's order as it was. */
  orderId?: string | null;
  at: string;
}

/**
 * Item moves of a run of events, folded per item: one statement moves every item to its
 * last status and each offer's counts by exactly the items that changed, from the status
 * each had before the run to the one it has after (what the moves one by one add up to, as
 * every count is a count of items by status). Deltas taken from the rows themselves cannot
 * drift from the items, and cost the moved items, not a count of an offer's whole stock.
 */
class ItemMoves {
  private readonly items = new Map<string, Moved>();
  private readonly offers = new Map<string, string>();

  add(offerId: string, itemIds: string[], status: string, orderId: string | null | undefined, at: string): void {
    for (const id of itemIds) {
      const before = this.items.get(id);
      // a later move without an order keeps the order an earlier one of this run set
      const order =
        orderId !== undefined ? { orderId } : before && 'orderId' in before ? { orderId: before.orderId } : {};
      this.items.set(id, { id, status, ...order, at });
    }
    this.offers.set(offerId, at);
  }

  async flush(db: Kysely<Database>): Promise<void> {
    if (this.offers.size === 0) return;
    const items = [...this.items.values()].map((m) => ({
      ...m,
      keep_order: !('orderId' in m),
      orderId: m.orderId ?? null,
    }));
    const offers = [...this.offers].map(([id, at]) => ({ id, at }));
    this.items.clear();
    this.offers.clear();
    await sql`with v as (
        select * from jsonb_to_recordset(${JSON.stringify(items)}::jsonb)
          as v(id text, status text, "orderId" text, keep_order boolean, at timestamptz)
      ), old as (
        select i.id, i.status as old from inventory_items i join v on v.id = i.id
      ), moved as (
        update inventory_items i set status = v.status, updated_at = v.at,
          order_id = case when v.keep_order then i.order_id else v."orderId" end
        from v join old on old.id = v.id
        where i.id = v.id
        returning i.offer_id, old.old, v.status as new
      ), deltas as (
        select offer_id,
          sum((new = 'available')::int - (old = 'available')::int) as available,
          sum((new = 'reserved')::int - (old = 'reserved')::int) as reserved,
          sum((new = 'delivered')::int - (old = 'delivered')::int) as delivered
        from moved group by offer_id
      )
      update offers o set
        stock_available = o.stock_available + coalesce(d.available, 0),
        stock_reserved = o.stock_reserved + coalesce(d.reserved, 0),
        stock_delivered = o.stock_delivered + coalesce(d.delivered, 0),
        updated_at = w.at
      from jsonb_to_recordset(${JSON.stringify(offers)}::jsonb) as w(id text, at timestamptz)
        left join deltas d on d.offer_id = w.id
      where o.id = w.id`.execute(db);
  }
}

/** Adds a move event to the fold; anything else is not a move. */
const addMove = (moves: ItemMoves, e: OfferProjectionEvent): boolean => {
  switch (e.type) {
    case 'InventoryReserved':
      moves.add(e.data.offerId, e.data.itemIds, 'reserved', e.data.orderId, e.data.at);
      return true;
    case 'InventoryReleased':
      moves.add(e.data.offerId, e.data.itemIds, 'available', null, e.data.at);
      return true;
    case 'InventoryDelivered':
      moves.add(e.data.offerId, e.data.itemIds, 'delivered', e.data.orderId, e.data.at);
      return true;
    case 'InventoryItemInvalidated':
      moves.add(e.data.offerId, [e.data.itemId], 'invalidated', undefined, e.data.at);
      return true;
    case 'InventoryItemsWithdrawn':
      moves.add(e.data.offerId, e.data.itemIds, 'removed', undefined, e.data.at);
      return true;
    case 'InventoryItemsHeld':
      moves.add(e.data.offerId, e.data.itemIds, 'held', undefined, e.data.at);
      return true;
    case 'InventoryReviewCleared':
      moves.add(e.data.offerId, e.data.itemIds, 'available', undefined, e.data.at);
      return true;
    default:
      return false;
  }
};

/**
 * A batch's offer and inventory events, in order: runs of item moves are folded into one
 * statement (a reservation and its delivery in one batch move the item once), every other
 * event writes its own statements after the moves before it.
 */
const offerEvents: Gatherer<OfferProjectionEvent> = {
  async write(db, events) {
    const moves = new ItemMoves();
    for (const e of events) {
      if (addMove(moves, e)) continue;
      await moves.flush(db);
      const statement = statements[e.type as keyof typeof statements] as
        ((db: Kysely<Database>, d: unknown) => Executable | Promise<unknown>) | undefined;
      const result = await statement?.(db, e.data);
      if (result && typeof (result as Executable).execute === 'function') await (result as Executable).execute();
    }
    await moves.flush(db);
  },
};

const gathered = gatheredBy(offerEvents);

/** Offers with their stock counts, the inventory items (never their values), and the keys found held twice. */
export const offersProjection = projector<OfferEvent | InventoryEvent>({
  name: 'offers',
  version: 3,
  tables: ['offers', 'inventory_items', 'key_collisions'],
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
      batch_id text not null,
      mask text,
      tail text,
      size integer,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${s}.inventory_items (offer_id, id);
    create index inventory_items_moved on ${s}.inventory_items (offer_id, status, id) where status <> 'available';
    create index inventory_items_batch on ${s}.inventory_items using brin (batch_id) with (autosummarize = on);
    create table ${s}.key_collisions (
      item_id text primary key,
      offer_id text not null,
      other_item_id text not null,
      other_offer_id text not null,
      other_supplier_id text not null,
      detected_at timestamptz not null
    );`,
  handlers: {
    OfferCreated: gathered,
    OfferUpdated: gathered,
    OfferPriceChanged: gathered,
    OfferActivated: gathered,
    OfferDeactivated: gathered,
    DeclaredStockSet: gathered,
    FulfilmentChecked: gathered,
    OfferHealthChanged: gathered,
    OfferCooldownStarted: gathered,
    OfferCooldownEnded: gathered,
    FulfilmentSecretRotated: gathered,
    InventoryUploaded: gathered,
    InventoryReserved: gathered,
    InventoryReleased: gathered,
    InventoryDelivered: gathered,
    InventoryItemInvalidated: gathered,
    InventoryItemRemoved: gathered,
    InventoryItemsWithdrawn: gathered,
    InventoryItemsHeld: gathered,
    InventoryReviewCleared: gathered,
  },
});
