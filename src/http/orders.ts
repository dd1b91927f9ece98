import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  disputeOrder,
  payOrder,
  placeOrder,
  provisionOrder,
  refundOrder,
  withOneReadModelWait,
} from '../commands/orders.js';
import { DomainError } from '../domain/errors.js';
import { offerDecider } from '../domain/offer.js';
import { load } from '../commands/handle.js';
import { Order, orderFromState, readOrders } from '../resources/order-resource.js';
import { decodeCursor, encodeCursor, listOf, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { operationOf } from './idempotency.js';
import { offerStream, orderStream } from '../commands/streams.js';
import { type Services } from './services.js';

const tags = ['orders'];
export const Country = z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code (ISO 3166-1 alpha-2, upper case)');
const Scenario = z.enum(['paid', 'abandoned', 'refunded', 'disputed']);

// eslint-disable-next-line max-lines-per-function -- registers the resource's routes, one call per route
export const registerOrderRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = services.commands;

  api.get(
    '/orders/:order_id',
    {
      schema: {
        summary: 'One order, scoped to your items',
        tags,
        params: z.object({ order_id: z.string().min(1).max(100) }),
        response: { 200: Order, ...problems(404) },
      },
    },
    async (req) => {
      const found = (await readOrders(services.db, [req.params.order_id], supplierOf(req).supplierId)).get(
        req.params.order_id,
      );
      if (!found) throw new HttpProblem('not_found', `order ${req.params.order_id} not found`);
      return found;
    },
  );

  api.get(
    '/orders',
    {
      schema: {
        summary: 'Orders with at least one of your items, newest first',
        tags,
        querystring: z.object({
          status: z
            .enum(['placed', 'paid', 'completed', 'expired', 'refunded', 'partially_refunded', 'cancelled'])
            .optional(),
          created_from: z.iso.datetime({ offset: true }).optional(),
          created_to: z.iso.datetime({ offset: true }).optional(),
          offer_id: z.string().min(1).max(100).optional(),
          external_ref: z.string().min(1).max(128).optional(),
          ...pageQuery,
        }),
        response: { 200: listOf(Order), ...problems() },
      },
    },
    async (req) => {
      const supplierId = supplierOf(req).supplierId;
      const { status, created_from, created_to, offer_id, external_ref, limit, cursor } = req.query;
      const before = decodeCursor(cursor);
      let q = services.db
        .selectFrom('orders as o')
        .select('o.id')
        .where(({ exists, selectFrom }) => {
          let items = selectFrom('order_items as i')
            .select('i.id')
            .whereRef('i.order_id', '=', 'o.id')
            .where('i.supplier_id', '=', supplierId);
          if (offer_id) items = items.where('i.offer_id', '=', offer_id);
          if (external_ref) items = items.where('i.external_ref', '=', external_ref);
          return exists(items);
        })
        .orderBy('o.id', 'desc')
        .limit(limit + 1);
      // the status the supplier sees (scopedStatus), computed over its own items
      if (status)
        q = q.where(
          sql<string>`(select case
              when count(*) filter (where i.status = 'refunded') > 0 then
                case when count(*) filter (where i.status not in ('refunded', 'cancelled')) = 0 then 'refunded' else 'partially_refunded' end
              when o.status in ('refunded', 'partially_refunded') then
                case when count(*) filter (where i.status = 'reserved') > 0 then 'paid' else 'completed' end
              else o.status end
            from order_items i where i.order_id = o.id and i.supplier_id = ${supplierId})`,
          '=',
          status,
        );
      if (created_from) q = q.where('o.created_at', '>=', new Date(created_from));
      if (created_to) q = q.where('o.created_at', '<', new Date(created_to));
      if (before) q = q.where('o.id', '<', before);
      const ids = (await q.execute()).map((r) => r.id);
      const more = ids.length > limit;
      const shown = more ? ids.slice(0, limit) : ids;
      const orders = await readOrders(services.db, shown, supplierId);
      return {
        data: shown.map((id) => orders.get(id)!).filter(Boolean),
        next_cursor: more ? encodeCursor(shown[shown.length - 1]!) : null,
      };
    },
  );

  api.post(
    '/sandbox/orders',
    {
      config: { idempotent: true, limitClass: 'test' },
      schema: {
        summary: 'Run a test order through the whole pipeline against your own offer (sandbox only)',
        description:
          'Scenarios: paid (default), abandoned (placed, never paid, expires after 15 minutes), refunded (paid, then fully refunded), disputed (paid, then disputed). On declared-stock and top-up offers the order is paid once the supplier delivered; refunded and disputed then apply by themselves.',
        tags: ['sandbox'],
        body: z
          .object({
            offer_id: z.string().min(1).max(100),
            quantity: z.number().int().min(1).max(100),
            buyer_country: Country,
            scenario: Scenario.default('paid'),
            form_fields: z.record(z.string(), z.string().max(1000)).optional(),
          })
          .strict(),
        response: { 201: Order, ...problems(404, 409) },
      },
    },
    async (req, reply) => {
      if (services.config.env !== 'sandbox')
        throw new HttpProblem('not_found', 'sandbox orders exist only in the sandbox');
      const supplierId = supplierOf(req).supplierId;
      const caller = callerOf(req);
      const { offer_id, quantity, buyer_country, scenario } = req.body;
      const { state: offer } = await load(deps.store, offerStream(offer_id), offerDecider, deps.states);
      if (!offer || offer.supplierId !== supplierId) throw new HttpProblem('not_found', `offer ${offer_id} not found`);
      if (offer.status !== 'active')
        throw new DomainError('invalid_state', `offer ${offer_id} is ${offer.status}; activate it first`);
      // the whole scenario is one request: the read models are waited for once, at its end
      const operation = operationOf(req);
      const order = await withOneReadModelWait(deps, async (deps) => {
        let order = await placeOrder(
          deps,
          {
            orderId: operation.id,
            resumed: operation.resumed,
            lines: [{ productId: offer.productId, quantity }],
            buyerCountry: buyer_country,
            formFields: req.body.form_fields,
            // against the supplier's own offer only, whatever the market looks like
            rank: async () => [offer.id],
            // paid at once: placed and authorized in one write, and from uploaded stock
            // provisioned in it too
            authorize: scenario !== 'abandoned',
            provision: scenario !== 'abandoned',
          },
          caller,
        );
        // a run after a takeover may find the order placed but not yet authorized; a paid
        // one wrote its sale entries with its capture (or the ledger.post-sales timer does)
        if (scenario !== 'abandoned' && !order.paidAt)
          order = order.authorizedAt
            ? await provisionOrder(deps, order.id, caller)
            : await payOrder(deps, order.id, caller);
        if (scenario === 'refunded' || scenario === 'disputed') {
          // keys from uploaded stock are paid by now; declared stock and top-ups are paid
          // once the supplier delivered: the scenario then applies by itself (processes/sandbox.ts)
          const settled = order.paidAt !== null && order.items.every((i) => i.status !== 'reserved');
          if (!settled) await services.timers.schedule('sandbox.scenario', order.id, deps.clock.now(), { scenario });
          else if (scenario === 'refunded') order = await refundOrder(deps, order.id, undefined, caller);
          // a run after a takeover (the first run's process died) disputes once, not twice
          else if (!(await deps.store.readStream(orderStream(order.id))).some((e) => e.type === 'OrderDisputed'))
            order = await disputeOrder(deps, order.id, undefined, 'sandbox scenario', caller);
        }
        return order;
      });
      return reply.code(201).send(orderFromState(order, supplierId));
    },
  );
};
