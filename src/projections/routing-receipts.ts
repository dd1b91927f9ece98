import type { RoutingReceiptEvent } from '../domain/routing-receipt.js';
import { projector } from './projector.js';

/** The key a product's routed lines are listed and paged by: time, then order, then line. */
export const routingSortKey = (at: string, orderId: string, lineNo: number) =>
  `${at}|${orderId}|${String(lineNo).padStart(3, '0')}`;

/**
 * Each routed line of every routing receipt, by product: what GET /offers/{id}/routing reads to
 * tell a supplier where its offer stood. The line is kept whole (its candidates included) and
 * explained at read time (domain/routing-receipt.ts), so a better wording needs no rebuild.
 */
export const routingReceiptsProjection = projector<RoutingReceiptEvent>({
  name: 'routing-receipts',
  version: 1,
  tables: ['routing_lines'],
  ddl: (s) => `
    create table ${s}.routing_lines (
      order_id text not null,
      line_no integer not null,
      product_id text not null,
      routed_at timestamptz not null,
      sort_key text not null,
      line jsonb not null,
      primary key (order_id, line_no)
    );
    create index routing_lines_by_product on ${s}.routing_lines (product_id, sort_key);`,
  handlers: {
    OrderRouted: (db, e) =>
      e.data.lines.length === 0
        ? undefined
        : db
            .insertInto('routing_lines')
            .values(
              e.data.lines.map((line, n) => ({
                order_id: e.data.orderId,
                line_no: n,
                product_id: line.productId,
                routed_at: e.data.at,
                sort_key: routingSortKey(e.data.at, e.data.orderId, n),
                line: JSON.stringify(line),
              })),
            )
            .onConflict((oc) => oc.columns(['order_id', 'line_no']).doNothing()),
  },
});
