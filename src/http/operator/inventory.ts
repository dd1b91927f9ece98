import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clearReview, holdItems } from '../../commands/key-reviews.js';
import { inventoryItemById, listKeyCollisions } from '../../projections/inventory-reads.js';
import { iso, Timestamp } from '../../resources/values.js';
import { decodeCursor, listOf, page, pageQuery } from '../pagination.js';
import { HttpProblem } from '../problem.js';
import { problems } from '../schemas.js';
import { callerOf } from '../supplier.js';
import { registerRoutes, type Route } from '../routes.js';
import { type Services } from '../services.js';

const tags = ['operator'];

const Side = z.object({ item_id: z.string(), offer_id: z.string(), supplier_id: z.string(), status: z.string() });

const KeyCollision = z
  .object({
    id: z.string().describe('the held item: the one uploaded second'),
    detected_at: Timestamp,
    held: Side.describe('the item stored under review at upload'),
    other: Side.describe("the other supplier's item holding the same key (status unknown: not recorded)"),
  })
  .meta({ id: 'KeyCollision' });

const collisions: Route = (api, services) =>
  api.get(
    '/key-collisions',
    {
      schema: {
        summary: 'Keys held by two suppliers: the item held at upload, and the other',
        description:
          'open=true (default): only collisions whose held item is still under review. Resolve one with POST /inventory/{item_id}/release (the rightful item, back for sale) and POST /inventory/{item_id}/invalidate (the other). Errors: 422 validation_failed.',
        tags,
        querystring: z.object({ open: z.enum(['true', 'false']).default('true'), ...pageQuery }),
        response: { 200: listOf(KeyCollision), ...problems() },
      },
    },
    async (req) => {
      const { open, limit, cursor } = req.query;
      const rows = await listKeyCollisions(services.db, { open: open === 'true', after: decodeCursor(cursor), limit });
      return page(
        rows,
        limit,
        (r) => r.item_id,
        (r) => ({
          id: r.item_id,
          detected_at: iso(r.detected_at),
          held: { item_id: r.item_id, offer_id: r.offer_id, supplier_id: r.supplier_id, status: r.status ?? 'unknown' },
          other: {
            item_id: r.other_item_id,
            offer_id: r.other_offer_id,
            supplier_id: r.other_supplier_id,
            status: r.other_status ?? 'unknown',
          },
        }),
      );
    },
  );

const Params = z.object({ item_id: z.string().min(1).max(100) });
const Reviewed = z.object({ item_id: z.string(), offer_id: z.string(), status: z.string() });

const itemOf = async (services: Services, itemId: string) => {
  const item = await inventoryItemById(services.db, itemId);
  if (!item) throw new HttpProblem('not_found', `inventory item ${itemId} not found`);
  return item;
};

const hold: Route = (api, services) =>
  api.post(
    '/inventory/:item_id/hold',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Hold an available item from sale, under review (the supplier sees under_review)',
        description: 'An item in any other status is left as it is. Errors: 404 not_found.',
        tags,
        params: Params,
        response: { 200: Reviewed, ...problems(404) },
      },
    },
    async (req) => {
      const item = await itemOf(services, req.params.item_id);
      const result = await holdItems(services.commands, item.offer_id, [item.id], 'operator', null, callerOf(req));
      return { item_id: item.id, offer_id: item.offer_id, status: result.state.items.get(item.id)?.status ?? '' };
    },
  );

const release: Route = (api, services) =>
  api.post(
    '/inventory/:item_id/release',
    {
      config: { idempotent: true },
      schema: {
        summary: "End an item's review: back for sale, its key this item's from now on",
        description: 'An item not under review is left as it is. Errors: 404 not_found.',
        tags,
        params: Params,
        response: { 200: Reviewed, ...problems(404) },
      },
    },
    async (req) => {
      const item = await itemOf(services, req.params.item_id);
      const result = await clearReview(services.commands, item.offer_id, item.id, callerOf(req));
      return { item_id: item.id, offer_id: item.offer_id, status: result.state.items.get(item.id)?.status ?? '' };
    },
  );

export const registerOperatorInventoryRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [collisions, hold, release]);
