import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { removeInventoryItem, uploadInventory } from '../commands/inventory.js';
import { MAX_ITEMS_PER_UPLOAD } from '../domain/inventory-items.js';
import { listInventoryItems } from '../projections/inventory-reads.js';
import { ownsOffer } from '../projections/offer-reads.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { operationOf } from './idempotency.js';
import { iso, Timestamp } from '../resources/values.js';
import { registerRoutes, type Route } from './routes.js';
import { type Services } from './services.js';

const tags = ['inventory'];

/** 1,000 items of text fit easily; file batches are bounded here rather than by item count. */
export const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;

// strict, so an item with a field of its own is not stripped here but refused by the validator
const TextItem = z.object({ kind: z.literal('text'), value: z.string().describe('1 to 1,024 characters') }).strict();
const FileItem = z
  .object({
    kind: z.literal('file'),
    file_name: z.string(),
    content_type: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
    content_base64: z.string().describe('at most 200 KB decoded; the bytes must match content_type'),
  })
  .strict();

const Rejected = z.object({ index: z.number().int(), code: z.string(), message: z.string() });

const UploadResult = z.object({
  accepted: z.number().int(),
  rejected: z.array(Rejected),
  item_ids: z.array(z.string()),
  stock_available: z.number().int(),
});

const InventoryItem = z
  .object({
    id: z.string(),
    kind: z.enum(['text', 'file']),
    status: z.enum(['available', 'reserved', 'delivered', 'invalidated']),
    file_name: z.string().nullable(),
    content_type: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'InventoryItem', description: 'An uploaded key or file; its value is never shown again' });

const Params = z.object({ offer_id: z.string().min(1).max(100) });

const upload: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/inventory',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      config: { idempotent: true, limitClass: 'bulk' },
      schema: {
        summary: 'Upload keys or files to an uploaded offer',
        description:
          "strict (default): any invalid item rejects the whole batch with 422 inventory_rejected listing every bad item ({index, code, message}), nothing stored. partial: valid items are stored, invalid ones listed in rejected. A key already in the offer's stock (available, reserved, delivered or invalidated), or twice in one batch, is rejected. Item codes: invalid_item, invalid_kind, invalid_value, invalid_file_name, unsupported_content_type, invalid_base64, file_too_large, content_mismatch, duplicate_key, duplicate_in_batch. Errors: 404 not_found; 409 stock_mode_mismatch (a declared offer); 413 payload_too_large; 422 inventory_rejected; 422 validation_failed (more than 1,000 items, none, an unknown mode).",
        tags,
        params: Params,
        body: z
          .object({
            mode: z.enum(['strict', 'partial']).default('strict'),
            // items are judged one by one (into `rejected`), not by the request schema
            items: z
              .array(z.union([TextItem, FileItem, z.unknown()]))
              .min(1)
              .max(MAX_ITEMS_PER_UPLOAD),
          })
          .strict(),
        response: { 201: UploadResult, ...problems(404, 409, 413) },
      },
    },
    async (req, reply) => {
      const result = await uploadInventory(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        req.body.mode,
        req.body.items,
        callerOf(req),
        operationOf(req),
      );
      return reply.code(201).send({
        accepted: result.accepted,
        rejected: result.rejected,
        item_ids: result.itemIds,
        stock_available: result.stockAvailable,
      });
    },
  );

const list: Route = (api, services) =>
  api.get(
    '/offers/:offer_id/inventory',
    {
      schema: {
        summary: "List an offer's inventory items (never their values)",
        description: 'Errors: 404 not_found; 422 validation_failed (status filter, limit, cursor).',
        tags,
        params: Params,
        querystring: z.object({
          status: z.enum(['available', 'reserved', 'delivered', 'invalidated']).optional(),
          ...pageQuery,
        }),
        response: { 200: listOf(InventoryItem), ...problems(404) },
      },
    },
    async (req) => {
      const offerId = req.params.offer_id;
      if (!(await ownsOffer(services.db, offerId, supplierOf(req).supplierId)))
        throw new HttpProblem('not_found', `offer ${offerId} not found`);
      const { status, limit, cursor } = req.query;
      const after = decodeCursor(cursor);
      const rows = await listInventoryItems(services.db, offerId, { status, after, limit });
      return page(
        rows,
        limit,
        (r) => r.id,
        (r) => ({
          id: r.id,
          kind: r.kind as 'text' | 'file',
          status: r.status as 'available',
          file_name: r.file_name,
          content_type: r.content_type,
          created_at: iso(r.created_at),
          updated_at: iso(r.updated_at),
        }),
      );
    },
  );

const remove: Route = (api, services) =>
  api.delete(
    '/offers/:offer_id/inventory/:item_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Take back an available item',
        description:
          'Errors: 404 not_found (no such item in this offer); 409 invalid_state (the item is reserved, delivered or invalidated).',
        tags,
        params: Params.extend({ item_id: z.string().min(1).max(100) }),
        response: {
          200: z.object({ item_id: z.string(), status: z.literal('removed'), stock_available: z.number().int() }),
          ...problems(404, 409),
        },
      },
    },
    async (req) => {
      const state = await removeInventoryItem(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        req.params.item_id,
        callerOf(req),
        operationOf(req).resumed,
      );
      return { item_id: req.params.item_id, status: 'removed' as const, stock_available: state.available };
    },
  );

export const registerInventoryRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [upload, list, remove]);
