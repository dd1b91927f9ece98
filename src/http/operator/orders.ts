import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  disputeOrder,
  invalidateItem,
  loadOrder,
  payOrder,
  placeOrder,
  refundOrder,
  withOneReadModelWait,
} from '../../commands/orders.js';
import { openValues } from '../../commands/inventory-values.js';
import type { OrderState } from '../../domain/order.js';
import { inventoryFileNames, inventoryItemById } from '../../projections/inventory-reads.js';
import { assertCheckoutProducts } from '../../projections/product-reads.js';
import { routingCandidates } from '../../resources/market.js';
import { Order, orderFromState } from '../../resources/order-resource.js';
import { Country } from '../orders.js';
import { HttpProblem } from '../problem.js';
import { problems } from '../schemas.js';
import { callerOf } from '../supplier.js';
import { operationOf } from '../idempotency.js';
import { registerRoutes, type Route } from '../routes.js';
import { type Services } from '../services.js';

const tags = ['operator'];
const OrderParams = z.object({ order_id: z.string().min(1).max(100) });
const ItemIds = z.array(z.string().min(1).max(100)).min(1).max(1000).optional().describe('default: every item');

const Key = z.union([
  z.object({ inventory_item_id: z.string(), kind: z.literal('text'), value: z.string() }),
  z.object({
    inventory_item_id: z.string(),
    kind: z.literal('file'),
    file_name: z.string(),
    content_type: z.string(),
    content_base64: z.string(),
  }),
]);
type KeyOut = z.infer<typeof Key>;

const Deliverables = z.object({
  order_id: z.string(),
  items: z.array(z.object({ order_item_id: z.string(), keys: z.array(Key) })),
});

/** The buyer's keys and files of the order's delivered (or since refunded) items, in clear. */
const deliverablesOf = async (services: Services, order: OrderState) => {
  const delivered = order.items.filter((i) => i.status === 'delivered' || i.status === 'refunded');
  const ids = delivered.flatMap((i) => i.inventoryItemIds);
  const values = await openValues(services, ids);
  const meta = await inventoryFileNames(services.db, ids);
  return {
    order_id: order.id,
    items: delivered.map((i) => ({
      order_item_id: i.orderItemId,
      keys: i.inventoryItemIds.flatMap((id): KeyOut[] => {
        const v = values.get(id);
        if (!v) return [];
        if (v.kind === 'text') return [{ inventory_item_id: id, kind: 'text' as const, value: v.bytes.toString() }];
        // items a supplier handed over (declared stock) are kept as the item object it sent
        if (v.kind === 'declared') return [{ inventory_item_id: id, ...JSON.parse(v.bytes.toString()) } as KeyOut];
        const m = meta.find((x) => x.id === id);
        return [
          {
            inventory_item_id: id,
            kind: 'file' as const,
            file_name: m?.file_name ?? 'file',
            content_type: m?.content_type ?? 'application/octet-stream',
            content_base64: v.bytes.toString('base64'),
          },
        ];
      }),
    })),
  };
};

const checkout: Route = (api, services) =>
  api.post(
    '/orders',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Checkout: route each line, reserve stock for 15 minutes (order.created)',
        tags,
        body: z
          .object({
            items: z
              .array(
                z
                  .object({ product_id: z.string().min(1).max(100), quantity: z.number().int().min(1).max(100) })
                  .strict(),
              )
              .min(1)
              .max(50),
            buyer_country: Country,
            form_fields: z.record(z.string(), z.string().max(1000)).optional(),
          })
          .strict(),
        response: { 201: Order, ...problems(409) },
      },
    },
    async (req, reply) => {
      await assertCheckoutProducts(
        services.db,
        req.body.items.map((i) => i.product_id),
      );
      const operation = operationOf(req);
      const order = await withOneReadModelWait(services.commands, (deps) =>
        placeOrder(
          deps,
          {
            orderId: operation.id,
            resumed: operation.resumed,
            lines: req.body.items.map((i) => ({ productId: i.product_id, quantity: i.quantity })),
            buyerCountry: req.body.buyer_country,
            formFields: req.body.form_fields,
            market: (productId) => routingCandidates(services.db, productId),
          },
          callerOf(req),
        ),
      );
      return reply.code(201).send(orderFromState(order));
    },
  );

const read: Route = (api, services) =>
  api.get(
    '/orders/:order_id',
    { schema: { summary: 'The whole order', tags, params: OrderParams, response: { 200: Order, ...problems(404) } } },
    async (req) => orderFromState(await loadOrder(services.commands, req.params.order_id)),
  );

const pay: Route = (api, services) =>
  api.post(
    '/orders/:order_id/pay',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Authorize payment; provisioning and capture follow (uploaded stock completes before the answer)',
        tags,
        params: OrderParams,
        response: { 200: Order, ...problems(404, 409) },
      },
    },
    async (req) =>
      orderFromState(
        await withOneReadModelWait(services.commands, (deps) => payOrder(deps, req.params.order_id, callerOf(req))),
      ),
  );

const refund: Route = (api, services) =>
  api.post(
    '/orders/:order_id/refund',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Refund some or all items (order.refunded; reversing ledger entries)',
        tags,
        params: OrderParams,
        body: z.object({ item_ids: ItemIds }).strict().default({}),
        response: { 200: Order, ...problems(404, 409) },
      },
    },
    async (req) =>
      orderFromState(
        await withOneReadModelWait(services.commands, (deps) =>
          refundOrder(deps, req.params.order_id, req.body.item_ids, callerOf(req)),
        ),
      ),
  );

const dispute: Route = (api, services) =>
  api.post(
    '/orders/:order_id/dispute',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Open a dispute on some or all items (order.disputed; informational)',
        tags,
        params: OrderParams,
        body: z
          .object({ item_ids: ItemIds, reason: z.string().trim().min(1).max(500).optional() })
          .strict()
          .default({}),
        response: { 200: Order, ...problems(404, 409) },
      },
    },
    async (req) =>
      orderFromState(
        await disputeOrder(
          services.commands,
          req.params.order_id,
          req.body.item_ids,
          req.body.reason ?? null,
          callerOf(req),
        ),
      ),
  );

const deliverables: Route = (api, services) =>
  api.get(
    '/orders/:order_id/deliverables',
    {
      schema: {
        summary: "The buyer's keys and files, in clear (the only place they are handed over)",
        tags,
        params: OrderParams,
        response: { 200: Deliverables, ...problems(404) },
      },
    },
    async (req) => {
      return deliverablesOf(services, await loadOrder(services.commands, req.params.order_id));
    },
  );

const invalidate: Route = (api, services) =>
  api.post(
    '/inventory/:item_id/invalidate',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Invalidate one inventory item (stock.invalidated); an available item leaves stock',
        tags,
        params: z.object({ item_id: z.string().min(1).max(100) }),
        body: z
          .object({ reason: z.string().trim().min(1).max(500).optional() })
          .strict()
          .default({}),
        response: {
          200: z.object({
            item_id: z.string(),
            offer_id: z.string(),
            status: z.literal('invalidated'),
            previous_status: z.string(),
          }),
          ...problems(404, 409),
        },
      },
    },
    async (req) => {
      const item = await inventoryItemById(services.db, req.params.item_id);
      if (!item) throw new HttpProblem('not_found', `inventory item ${req.params.item_id} not found`);
      await invalidateItem(services.commands, item.offer_id, item.id, req.body.reason ?? null, callerOf(req));
      return {
        item_id: item.id,
        offer_id: item.offer_id,
        status: 'invalidated' as const,
        previous_status: item.status,
      };
    },
  );

export const registerOperatorOrderRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [checkout, read, pay, refund, dispute, deliverables, invalidate]);
