import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LineReceipt } from '../domain/routing-receipt.js';

export interface RoutedLineRow {
  order_id: string;
  line_no: number;
  routed_at: Date;
  sort_key: string;
  line: LineReceipt;
}

/**
 * The routed lines of a product in [from, to) after the cursor's key, oldest first, that
 * `offerId` could have served: every market line, and a sandbox line only where it was the
 * offer tried (another supplier's sandbox orders are none of its business).
 */
export const routedLinesFor = (
  db: Kysely<Database>,
  offer: { id: string; productId: string },
  range: { from: Date; to: Date; after?: string; limit: number },
): Promise<RoutedLineRow[]> => {
  let query = db
    .selectFrom('routing_lines')
    .select(['order_id', 'line_no', 'routed_at', 'sort_key', 'line'])
    .where('product_id', '=', offer.productId)
    .where('routed_at', '>=', range.from)
    .where('routed_at', '<', range.to)
    .where((eb) =>
      eb.or([
        eb(sql`line->>'rule'`, '=', 'lowest_price'),
        eb(sql`line->'candidates'`, '@>', sql`${JSON.stringify([{ offerId: offer.id }])}::jsonb`),
      ]),
    );
  if (range.after !== undefined) query = query.where('sort_key', '>', range.after);
  return query.orderBy('sort_key').limit(range.limit).execute();
};
