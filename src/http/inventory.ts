import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { removeInventoryItem, uploadInventory } from '../commands/inventory.js';
import { revealItem, withdrawInventory } from '../commands/inventory-corrections.js';
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

/** An item's status in the supplier's words, from the status the read model keeps. */
const STATUS_WORDS = {
  available: 'available',
  reserved: 'reserved',
  delivered: 'sold',
  removed: 'withdrawn',
  invalidated: 'invalidated',
  held: 'under_review',
} as const;

type StatusWord = (typeof STATUS_WORDS)[keyof typeof STATUS_WORDS];

const StatusWord = z.enum(['available', 'reserved', 'sold', 'withdrawn', 'invalidated', 'under_review']);

/** The read model's status of a word; `delivered`, the word before `sold`, still filters. */
const storedStatus = (word: StatusWord | 'delivered'): string =>
  word === 'delivered' ? 'delivered' : Object.entries(STATUS_WORDS).find(([, w]) => w === word)![0];

const InventoryItem = z
  .object({
    id: z.string(),
    kind: z.enum(['text', 'file']),
    status: StatusWord.describe(
      'under_review: held from sale while the operator looks at it; withdrawn: taken back by you, its value no longer kept',
    ),
    masked_value: z
      .string()
      .nullable()
      .describe(
        "a text key's first 2 and last 4 characters at most (fewer for a short key); null for a file, or a key uploaded before masks were kept",
      ),
    file_name: z.string().nullable(),
    content_type: z.string().nullable(),
    size: z.number().int().nullable().describe("a file's size in bytes"),
    batch_id: z.string().describe('the upload or import the item came in'),
    order_id: z.string().nullable().describe('the order holding a reserved item, or that received a sold one'),
    created_at: Timestamp.describe('when it was uploaded'),
    updated_at: Timestamp,
  })
  .meta({ id: 'InventoryItem', description: 'An uploaded key or file, its value masked; Reveal shows it whole' });

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
          "strict (default): any invalid item rejects the whole batch with 422 inventory_rejected listing every bad item ({index, code, message}), nothing stored. partial: valid items are stored, invalid ones listed in rejected. A key already in the offer's stock (available, reserved, delivered or invalidated), or twice in one batch, is rejected. Item codes: invalid_item, invalid_kind, invalid_value, format_mismatch (a text key that does not fit the product's key_format; the message names it in words), invalid_file_name, unsupported_content_type, invalid_base64, file_too_large, content_mismatch, duplicate_key, duplicate_in_batch. Errors: 404 not_found; 409 stock_mode_mismatch (a declared offer); 413 payload_too_large; 422 inventory_rejected; 422 validation_failed (more than 1,000 items, none, an unknown mode).",
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
        summary: "List an offer's inventory items, their values masked",
        description:
          'Filters: status (delivered is read as sold), batch_id, last4 (the last characters a masked value shows, any case). Errors: 404 not_found; 422 validation_failed (a filter, limit, cursor).',
        tags,
        params: Params,
        querystring: z.object({
          status: z.enum([...StatusWord.options, 'delivered']).optional(),
          batch_id: z.string().min(1).max(100).optional(),
          last4: z
            .string()
            .min(1)
            .max(4)
            .regex(/^\S+$/, 'no spaces')
            .optional()
            .describe("1 to 4 characters a key's masked value ends with"),
          ...pageQuery,
        }),
        response: { 200: listOf(InventoryItem), ...problems(404) },
      },
    },
    async (req) => {
      const offerId = req.params.offer_id;
      if (!(await ownsOffer(services.db, offerId, supplierOf(req).supplierId)))
        throw new HttpProblem('not_found', `offer ${offerId} not found`);
      const { status, batch_id: batchId, last4, limit, cursor } = req.query;
      const after = decodeCursor(cursor);
      const rows = await listInventoryItems(services.db, offerId, {
        status: status && storedStatus(status),
        batchId,
        last: last4,
        after,
        limit,
      });
      return page(
        rows,
        limit,
        (r) => r.id,
        (r) => ({
          id: r.id,
          kind: r.kind as 'text' | 'file',
          status: STATUS_WORDS[r.status as keyof typeof STATUS_WORDS],
          masked_value: r.mask,
          file_name: r.file_name,
          content_type: r.content_type,
          size: r.size,
          batch_id: r.batch_id,
          order_id: r.order_id,
          created_at: iso(r.created_at),
          updated_at: iso(r.updated_at),
        }),
      );
    },
  );

const withdraw: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/inventory/withdrawals',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Withdraw items: a selection by id, or a whole batch',
        description:
          'Withdraws the available items (and those under review) among the ones named; their values are no longer kept and the stock figures follow at once. Items in another status (reserved, sold, invalidated, withdrawn already, or not in this offer) are left as they are and listed in skipped. Errors: 404 not_found (the offer, or a batch with no item in it); 409 invalid_state (none of the items can be withdrawn); 422 validation_failed.',
        tags,
        params: Params,
        body: z.union([
          z.object({ item_ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_ITEMS_PER_UPLOAD) }).strict(),
          z.object({ batch_id: z.string().min(1).max(100) }).strict(),
        ]),
        response: {
          200: z.object({
            withdrawn: z.number().int(),
            item_ids: z.array(z.string()),
            skipped: z.array(z.object({ item_id: z.string(), status: z.union([StatusWord, z.literal('unknown')]) })),
            stock_available: z.number().int(),
          }),
          ...problems(404, 409),
        },
      },
    },
    async (req) => {
      const result = await withdrawInventory(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        'item_ids' in req.body ? { itemIds: req.body.item_ids } : { batchId: req.body.batch_id },
        callerOf(req),
      );
      return {
        withdrawn: result.withdrawn.length,
        item_ids: result.withdrawn,
        skipped: result.skipped.map((k) => ({
          item_id: k.itemId,
          status: k.status === 'unknown' ? ('unknown' as const) : STATUS_WORDS[k.status],
        })),
        stock_available: result.stockAvailable,
      };
    },
  );

const reveal: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/inventory/:item_id/reveal',
    {
      schema: {
        summary: "Show an item's value whole (recorded in the offer's history)",
        description:
          "Every call is recorded in the offer's history (which token, when) before the value is answered; the answer is never stored, so an Idempotency-Key is not kept for it. Errors: 404 not_found; 409 invalid_state (withdrawn: its value is no longer kept).",
        tags,
        params: Params.extend({ item_id: z.string().min(1).max(100) }),
        response: {
          200: z.object({
            item_id: z.string(),
            kind: z.enum(['text', 'file']),
            value: z.string().nullable().describe('a text key'),
            content_base64: z.string().nullable().describe("a file's bytes"),
          }),
          ...problems(404, 409),
        },
      },
    },
    async (req, reply) => {
      const principal = supplierOf(req);
      const value = await revealItem(
        services.commands,
        principal.supplierId,
        req.params.offer_id,
        req.params.item_id,
        principal.tokenId,
        callerOf(req),
      );
      const text = value.kind !== 'file';
      // a key in clear: no cache on the way keeps it
      return reply.header('cache-control', 'no-store').send({
        item_id: req.params.item_id,
        kind: text ? ('text' as const) : ('file' as const),
        value: text ? value.bytes.toString('utf8') : null,
        content_base64: text ? null : value.bytes.toString('base64'),
      });
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
  registerRoutes(app, services, [upload, list, withdraw, reveal, remove]);
