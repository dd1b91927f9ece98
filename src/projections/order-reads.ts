import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface SupplierOrderFilter {
  /** The status the supplier sees (`scopedStatus` of src/resources/order-resource.ts), over its own items. */
  status?: string;
  createdFrom?: Date;
  createdTo?: Date;
  offerId?: string;
  externalRef?: string;
  before?: string;
  limit: number;
}

/**
 * The ids of orders with at least one of the supplier's items, newest first, one past `limit`
 * when there are more.
 */
export const supplierOrderIds = async (
  db: Kysely<Database>,
  supplierId: string,
  filter: SupplierOrderFilter,
): Promise<string[]> => {
  let q = db
    .selectFrom('orders as o')
    .select('o.id')
    .where(({ exists, selectFrom }) => {
      let items = selectFrom('order_items as i')
        .select('i.id')
        .whereRef('i.order_id', '=', 'o.id')
        .where('i.supplier_id', '=', supplierId);
      if (filter.offerId) items = items.where('i.offer_id', '=', filter.offerId);
      if (filter.externalRef) items = items.where('i.external_ref', '=', filter.externalRef);
      return exists(items);
    })
    .orderBy('o.id', 'desc')
    .limit(filter.limit + 1);
  // the status the supplier sees (scopedStatus), computed over its own items
  if (filter.status)
    q = q.where(
      sql<string>`(select case
          when count(*) filter (where i.status = 'refunded') > 0 then
            case when count(*) filter (where i.status not in ('refunded', 'cancelled')) = 0 then 'refunded' else 'partially_refunded' end
          when o.status in ('refunded', 'partially_refunded') then
            case when count(*) filter (where i.status = 'reserved') > 0 then 'paid' else 'completed' end
          else o.status end
        from order_items i where i.order_id = o.id and i.supplier_id = ${supplierId})`,
      '=',
      filter.status,
    );
  if (filter.createdFrom) q = q.where('o.created_at', '>=', filter.createdFrom);
  if (filter.createdTo) q = q.where('o.created_at', '<', filter.createdTo);
  if (filter.before) q = q.where('o.id', '<', filter.before);
  return (await q.execute()).map((r) => r.id);
};
