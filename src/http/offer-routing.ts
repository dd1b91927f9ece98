import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { eur } from '../domain/money.js';
import { standingOf } from '../domain/routing-receipt.js';
import { type RoutedLineRow, routedLinesFor } from '../projections/routing-reads.js';
import { offerOf } from '../resources/offer-resource.js';
import { Money, Timestamp } from '../resources/values.js';
import { csvOf, decimal } from '../projections/csv.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import type { Services } from './services.js';
import { supplierOf } from './supplier.js';

const DAY_MS = 24 * 60 * 60_000;
/** Without `from`, the last week; a period is at most 92 days (a quarter), one read's worth. */
const DEFAULT_PERIOD_MS = 7 * DAY_MS;
const MAX_PERIOD_MS = 92 * DAY_MS;
/** The CSV holds the whole period, read in pages of this size. */
const CSV_PAGE = 1_000;

const REASONS = [
  'won',
  'lower_price',
  'higher_health',
  'earlier_activation',
  'health_below_minimum',
  'in_cooldown',
  'no_stock_declared',
  'no_keys',
  'not_active',
  'supplier_declined',
  'not_needed',
] as const;

export const RoutingEntry = z
  .object({
    order_id: z.string(),
    routed_at: Timestamp,
    quantity: z.number().int().describe('units the order asked of the product'),
    won: z.boolean().describe('this offer served the order (all of it or a share)'),
    quantity_won: z.number().int(),
    reason: z.enum(REASONS).describe('why it won or lost, as a code'),
    explanation: z.string().describe('the reason in words, e.g. "a lower price: you were 2nd of 4, 0.30 € above"'),
    rank: z
      .number()
      .int()
      .nullable()
      .describe('its place in the routing order (1 = tried first); null when routing could not consider it'),
    ranked: z.number().int().describe('how many offers routing could consider'),
    above_winner: Money.nullable().describe('how far above the winning price; null when not ranked'),
    your_price: Money.nullable().describe('this offer’s price when the order was routed; null when it was not active'),
  })
  .meta({ id: 'RoutingEntry' });

type Entry = z.infer<typeof RoutingEntry>;

const entryOf = (offerId: string, row: RoutedLineRow): Entry => {
  const standing = standingOf(row.line, offerId);
  const own = row.line.candidates.find((c) => c.offerId === offerId);
  return {
    order_id: row.order_id,
    routed_at: new Date(row.routed_at).toISOString(),
    quantity: row.line.quantity,
    won: standing.won,
    quantity_won: standing.quantity,
    reason: standing.reason,
    explanation: standing.explanation,
    rank: standing.rank,
    ranked: standing.eligible,
    above_winner: standing.aboveWinner === null ? null : eur(standing.aboveWinner),
    your_price: own ? eur(own.price) : null,
  };
};

const periodRefusal = (message: string) =>
  new HttpProblem('validation_failed', message, { errors: [{ field: 'querystring.from', message }] });

/** The period asked for, checked: `to` defaults to now, `from` to a week before it. */
const periodOf = (query: { from?: string; to?: string }, now: Date) => {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_PERIOD_MS);
  if (from.getTime() >= to.getTime()) throw periodRefusal('from must be before to');
  if (to.getTime() - from.getTime() > MAX_PERIOD_MS) throw periodRefusal('a period is at most 92 days');
  return { from, to };
};

const ownOffer = async (db: Kysely<Database>, offerId: string, supplierId: string) => {
  const [row] = await offerOf(db, offerId, supplierId);
  if (!row) throw new HttpProblem('not_found', `offer ${offerId} not found`);
  return { id: row.id, productId: row.product_id };
};

const CSV_COLUMNS = [
  'order_id',
  'routed_at',
  'quantity',
  'won',
  'quantity_won',
  'reason',
  'explanation',
  'rank',
  'ranked',
  'above_winner',
  'your_price',
  'currency',
] as const;

const decimalOf = (m: { amount: number } | null) => (m === null ? null : decimal(m.amount));

const csvRow = (e: Entry) => ({
  ...e,
  above_winner: decimalOf(e.above_winner),
  your_price: decimalOf(e.your_price),
  currency: 'EUR',
});

/** Every entry of the period, oldest first, for the CSV. */
const allEntries = async (db: Kysely<Database>, offer: { id: string; productId: string }, from: Date, to: Date) => {
  const entries: Entry[] = [];
  let after: string | undefined;
  for (;;) {
    const rows = await routedLinesFor(db, offer, { from, to, after, limit: CSV_PAGE });
    for (const row of rows) entries.push(entryOf(offer.id, row));
    if (rows.length < CSV_PAGE) return entries;
    after = rows.at(-1)!.sort_key;
  }
};

const routing: Route = (api, services) =>
  api.get(
    '/offers/:offer_id/routing',
    {
      config: {
        textFormats: {
          'text/csv': 'every order of the period (no pages): amounts in decimal euros, a currency column',
        },
      },
      schema: {
        summary: 'Why your offer won or lost each order of its product',
        description:
          "For each order of the offer's product routed in [from, to) (default: the week before now; at most 92 days), oldest first: whether this offer served it and if not why, from the order's routing receipt. Another offer appears only as a rank and a price gap: never its id, supplier or health. Accept: application/json (default, paginated) or text/csv (the whole period). Errors: 404 not_found (also another supplier's offer); 422 validation_failed (from not before to, a longer period, an unknown cursor).",
        tags: ['offers'],
        params: z.object({ offer_id: z.string().min(1).max(100) }),
        querystring: z.object({
          from: z.iso.datetime({ offset: true }).optional().describe('routed at or after'),
          to: z.iso.datetime({ offset: true }).optional().describe('routed before'),
          ...pageQuery,
        }),
        response: { 200: listOf(RoutingEntry), ...problems(404) },
      },
    },
    async (req, reply) => {
      const offer = await ownOffer(services.db, req.params.offer_id, supplierOf(req).supplierId);
      const { from, to } = periodOf(req.query, services.clock.now());
      if (/text\/csv/.test(req.headers.accept ?? '')) {
        const entries = await allEntries(services.db, offer, from, to);
        return (reply as unknown as FastifyReply)
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="routing-${offer.id}.csv"`)
          .send(csvOf(CSV_COLUMNS, entries.map(csvRow)));
      }
      const { limit } = req.query;
      const after = decodeCursor(req.query.cursor);
      const rows = await routedLinesFor(services.db, offer, { from, to, after, limit: limit + 1 });
      return page(
        rows,
        limit,
        (r) => r.sort_key,
        (r) => entryOf(offer.id, r),
      );
    },
  );

export const registerOfferRoutingRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [routing]);
