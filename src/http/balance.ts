import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../service.js';
import { decodeCursor, page, listOf, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { iso, Money, problems, Timestamp } from './schemas.js';
import { supplierOf } from './supplier.js';

const Balance = z.object({ currency: z.literal('EUR'), available: Money, pending: Money, updated_at: Timestamp.nullable() }).meta({ id: 'Balance' });

export const ENTRY_TYPES = ['sale', 'settlement', 'refund', 'payout', 'payout_reversal'] as const;

export const Entry = z
  .object({
    id: z.string(),
    type: z.enum(ENTRY_TYPES).describe('payout: available money leaves into a payout; payout_reversal: a failed or cancelled payout gives it back'),
    amount: Money.describe('signed: what this entry adds to the account'),
    account: z.enum(['pending', 'available']),
    order_id: z.string().nullable().describe('sale, settlement and refund entries'),
    order_item_id: z.string().nullable(),
    payout_id: z.string().nullable().describe('payout and payout_reversal entries'),
    created_at: Timestamp,
    available_at: Timestamp.nullable().describe('sale entries: when the amount moves to available'),
  })
  .meta({ id: 'BalanceEntry' });

const eur = (amount: number) => ({ amount, currency: 'EUR' as const });

/** One balance_entries row (or a replayed entry) as the API shows it. */
export const entryOut = (r: {
  id: string;
  type: string;
  amount: number;
  account: string;
  order_id: string | null;
  order_item_id: string | null;
  payout_id: string | null;
  created_at: Date | string;
  available_at: Date | string | null;
}) => ({
  id: r.id,
  type: r.type as (typeof ENTRY_TYPES)[number],
  amount: eur(r.amount),
  account: r.account as 'pending' | 'available',
  order_id: r.order_id,
  order_item_id: r.order_item_id,
  payout_id: r.payout_id,
  created_at: iso(r.created_at),
  available_at: r.available_at && iso(r.available_at),
});

export const registerBalanceRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/balance', { schema: { summary: 'Your balance', tags: ['balance'], response: { 200: Balance, ...problems() } } }, async (req) => {
    const row = await services.db.selectFrom('balances').selectAll().where('supplier_id', '=', supplierOf(req).supplierId).executeTakeFirst();
    return { currency: 'EUR' as const, available: eur(row?.available ?? 0), pending: eur(row?.pending ?? 0), updated_at: row ? iso(row.updated_at) : null };
  });

  api.get(
    '/balance/entries',
    {
      schema: {
        summary: 'Your ledger entries, in the order they were posted',
        tags: ['balance'],
        querystring: z.object({
          type: z.enum(ENTRY_TYPES).optional(),
          from: z.iso.datetime({ offset: true }).optional().describe('created at or after'),
          to: z.iso.datetime({ offset: true }).optional().describe('created before'),
          ...pageQuery,
        }),
        response: { 200: listOf(Entry), ...problems() },
      },
    },
    async (req) => {
      const { type, from, to, limit, cursor } = req.query;
      const after = decodeCursor(cursor);
      if (after !== undefined && !/^\d+$/.test(after))
        throw new HttpProblem('validation_failed', 'cursor is not one this service issued', { errors: [{ field: 'querystring.cursor', message: 'unknown cursor' }] });
      let q = services.db
        .selectFrom('balance_entries')
        .selectAll()
        .where('supplier_id', '=', supplierOf(req).supplierId)
        .orderBy('seq')
        .limit(limit + 1);
      if (type) q = q.where('type', '=', type);
      if (from) q = q.where('created_at', '>=', new Date(from));
      if (to) q = q.where('created_at', '<', new Date(to));
      if (after) q = q.where('seq', '>', Number(after));
      const rows = await q.execute();
      return page(rows, limit, (r) => String(r.seq), entryOut);
    },
  );
};
