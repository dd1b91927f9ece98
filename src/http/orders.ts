import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { supplierOrderIds } from '../projections/order-reads.js';
import { Order, orderFromState, readOrders } from '../resources/order-resource.js';
import { decodeCursor, encodeCursor, listOf, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { operationOf } from './idempotency.js';
import { registerRoutes, type Route } from './routes.js';
import { runSandboxOrder, SANDBOX_SCENARIOS } from '../processes/sandbox-order.js';
import { type Services } from './services.js';

const tags = ['orders'];
export const Country = z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code (ISO 3166-1 alpha-2, upper case)');
const Scenario = z.enum(SANDBOX_SCENARIOS);

const read: Route = (api, services) =>
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

const list: Route = (api, services) =>
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
      const ids = await supplierOrderIds(services.db, supplierId, {
        status,
        createdFrom: created_from ? new Date(created_from) : undefined,
        createdTo: created_to ? new Date(created_to) : undefined,
        offerId: offer_id,
        externalRef: external_ref,
        before,
        limit,
      });
      const more = ids.length > limit;
      const shown = more ? ids.slice(0, limit) : ids;
      const orders = await readOrders(services.db, shown, supplierId);
      return {
        data: shown.map((id) => orders.get(id)!).filter(Boolean),
        next_cursor: more ? encodeCursor(shown[shown.length - 1]!) : null,
      };
    },
  );

const sandboxOrder: Route = (api, services) =>
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
      const { offer_id, quantity, buyer_country, scenario, form_fields } = req.body;
      const operation = operationOf(req);
      const { supplierId } = supplierOf(req);
      const order = await runSandboxOrder(
        services.commands,
        services.timers,
        {
          supplierId,
          offerId: offer_id,
          quantity,
          buyerCountry: buyer_country,
          formFields: form_fields,
          scenario,
          orderId: operation.id,
          resumed: operation.resumed,
        },
        callerOf(req),
      );
      return reply.code(201).send(orderFromState(order, supplierId));
    },
  );

export const registerOrderRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [read, list, sandboxOrder]);
