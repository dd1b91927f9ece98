import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  activateOffer,
  checkFulfilment,
  createOffer,
  deactivateOffer,
  type OfferChanges,
  rotateFulfilmentSecret,
  setDeclaredStock,
  updateOffer,
} from '../commands/offers.js';
import {
  declaredDeliveries,
  offerFromRow,
  offerFromState,
  offerOf,
  Offer,
  readSideOf,
  type OfferView,
} from '../resources/offer-resource.js';
import { listSupplierOffers } from '../projections/offer-reads.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { operationOf } from './idempotency.js';
import { HttpProblem } from './problem.js';
import { MoneyInput, problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { Timestamp } from '../resources/values.js';
import { registerRoutes, type Route } from './routes.js';
import { type Services } from './services.js';

const tags = ['offers'];
const OfferParams = z.object({ offer_id: z.string().min(1).max(100) });
const ExternalRef = z.string().trim().min(1).max(128);
const Threshold = z.number().int().min(0).max(1_000_000);
const SlaMinutes = z
  .number()
  .int()
  .min(1)
  .max(7 * 24 * 60);
const DeliveryTime = z.string().trim().min(1).max(64);
const BaseUrl = z.string().min(1).max(2000);

const CreateOfferBody = z
  .object({
    product_id: z.string().min(1).max(100),
    stock_mode: z.enum(['uploaded', 'declared']),
    price: MoneyInput,
    external_ref: ExternalRef,
    low_stock_threshold: Threshold.default(0),
    fulfilment: z.object({ base_url: BaseUrl }).strict().optional().describe('declared only; omit for uploaded'),
    declared_stock: z.number().int().min(0).max(1_000_000).optional().describe('declared only; omit for uploaded'),
    delivery_sla_minutes: SlaMinutes.optional().describe('declared only (uploaded offers deliver instantly)'),
    delivery_time: DeliveryTime.optional().describe('declared only'),
  })
  .strict();

const PatchOfferBody = z
  .object({
    price: MoneyInput.optional(),
    external_ref: ExternalRef.optional(),
    low_stock_threshold: Threshold.optional(),
    delivery_sla_minutes: SlaMinutes.optional().describe('declared offers only'),
    delivery_time: DeliveryTime.optional().describe('declared offers only'),
    fulfilment: z.object({ base_url: BaseUrl }).strict().optional().describe('declared offers only'),
  })
  .strict();

const FulfilmentCheck = z.object({
  status: z.enum(['ok', 'failed']),
  http_status: z.number().int().describe('0 when no HTTP answer came'),
  latency_ms: z.number().int(),
  checked_at: Timestamp,
  error: z.string().optional(),
});

const StockUpdate = z.object({ offer_id: z.string(), declared_stock: z.number().int(), updated_at: Timestamp });

const now = (services: Services) => services.clock.now();

/** An offer as a write left it, with what only the read models know (sold, stock available). */
const answer = async (services: Services, view: OfferView) =>
  offerFromState(view, now(services), await readSideOf(services.db, view.offer.id));

const create: Route = (api, services) =>
  api.post(
    '/offers',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create an offer (draft) on a sellable product',
        description:
          "One offer per product per supplier. A declared offer's answer carries fulfilment.secret (svcsec_ + 32 lowercase hex) once. Errors: 409 offer_exists; 422 product_not_sellable; 422 validation_failed (fulfilment, declared_stock or declared-only terms on an uploaded offer, an uploaded offer on a top-up product, a declared offer without fulfilment, a base_url the service may not call, an unknown product).",
        tags,
        body: CreateOfferBody,
        response: { 201: Offer, ...problems(409) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const view = await createOffer(
        services.commands,
        supplierOf(req).supplierId,
        {
          productId: b.product_id,
          stockMode: b.stock_mode,
          price: b.price.amount,
          externalRef: b.external_ref,
          lowStockThreshold: b.low_stock_threshold,
          deliverySlaMinutes: b.delivery_sla_minutes,
          deliveryTime: b.delivery_time,
          declaredStock: b.declared_stock,
          fulfilmentBaseUrl: b.fulfilment?.base_url,
        },
        callerOf(req),
        operationOf(req),
      );
      return reply.code(201).send(offerFromState(view, now(services)));
    },
  );

const list: Route = (api, services) =>
  api.get(
    '/offers',
    {
      schema: {
        summary: 'List your offers',
        tags,
        querystring: z.object({
          status: z.enum(['draft', 'active', 'inactive']).optional(),
          product_id: z.string().min(1).max(100).optional(),
          stock_mode: z.enum(['uploaded', 'declared']).optional(),
          ...pageQuery,
        }),
        response: { 200: listOf(Offer), ...problems() },
      },
    },
    async (req) => {
      const { status, product_id, stock_mode, limit, cursor } = req.query;
      const after = decodeCursor(cursor);
      const rows = await listSupplierOffers(services.db, supplierOf(req).supplierId, {
        status,
        productId: product_id,
        stockMode: stock_mode,
        after,
        limit,
      });
      const delivered = await declaredDeliveries(
        services.db,
        rows.filter((r) => r.stock_mode === 'declared').map((r) => r.id),
      );
      return page(
        rows,
        limit,
        (r) => r.id,
        (r) => offerFromRow(r, now(services), delivered.get(r.id)),
      );
    },
  );

const read: Route = (api, services) =>
  api.get(
    '/offers/:offer_id',
    {
      schema: {
        summary: 'One of your offers',
        description: "Errors: 404 not_found (also for another supplier's offer).",
        tags,
        params: OfferParams,
        response: { 200: Offer, ...problems(404) },
      },
    },
    async (req) => {
      const [row] = await offerOf(services.db, req.params.offer_id, supplierOf(req).supplierId);
      if (!row) throw new HttpProblem('not_found', `offer ${req.params.offer_id} not found`);
      const delivered =
        row.stock_mode === 'declared' ? (await declaredDeliveries(services.db, [row.id])).get(row.id) : 0;
      return offerFromRow(row, now(services), delivered);
    },
  );

const update: Route = (api, services) =>
  api.patch(
    '/offers/:offer_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Change an offer',
        description:
          'price, external_ref, low_stock_threshold; for declared offers also delivery_sla_minutes, delivery_time and fulfilment.base_url. Errors: 404 not_found; 422 validation_failed (any other field, or a declared-only field on an uploaded offer).',
        tags,
        params: OfferParams,
        body: PatchOfferBody,
        response: { 200: Offer, ...problems(404) },
      },
    },
    async (req) => {
      const b = req.body;
      const changes: OfferChanges = {
        ...(b.price && { price: b.price.amount }),
        ...(b.external_ref !== undefined && { externalRef: b.external_ref }),
        ...(b.low_stock_threshold !== undefined && { lowStockThreshold: b.low_stock_threshold }),
        ...(b.delivery_sla_minutes !== undefined && { deliverySlaMinutes: b.delivery_sla_minutes }),
        ...(b.delivery_time !== undefined && { deliveryTime: b.delivery_time }),
        ...(b.fulfilment && { fulfilmentBaseUrl: b.fulfilment.base_url }),
      };
      return answer(
        services,
        await updateOffer(services.commands, supplierOf(req).supplierId, req.params.offer_id, changes, callerOf(req)),
      );
    },
  );

const setPrice: Route = (api, services) =>
  api.put(
    '/offers/:offer_id/price',
    {
      config: { idempotent: true, limitClass: 'sync' },
      schema: {
        summary: 'Change the price (rate-limit class sync)',
        description: 'Errors: 404 not_found; 422 validation_failed.',
        tags,
        params: OfferParams,
        body: z.object({ price: MoneyInput }).strict(),
        response: { 200: Offer, ...problems(404) },
      },
    },
    async (req) =>
      answer(
        services,
        await updateOffer(
          services.commands,
          supplierOf(req).supplierId,
          req.params.offer_id,
          { price: req.body.price.amount },
          callerOf(req),
        ),
      ),
  );

const activate: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/activate',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Activate an offer',
        description:
          'Uploaded offers activate even with zero stock (unroutable until stock exists). Declared offers pass an inline healthcheck first (GET {base_url}/healthcheck, 5 s). Reactivation restarts health at 70. Errors: 404 not_found; 422 fulfilment_unreachable (the probe result in detail and in probe; nothing changes).',
        tags,
        params: OfferParams,
        response: { 200: Offer, ...problems(404) },
      },
    },
    async (req) =>
      answer(
        services,
        await activateOffer(services.commands, supplierOf(req).supplierId, req.params.offer_id, callerOf(req)),
      ),
  );

const deactivate: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/deactivate',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Take an offer out of routing (leaves active; offer.deactivated with reason supplier_request)',
        description: 'An offer that is not active stays as it is. Errors: 404 not_found.',
        tags,
        params: OfferParams,
        response: { 200: Offer, ...problems(404) },
      },
    },
    async (req) =>
      answer(
        services,
        await deactivateOffer(
          services.commands,
          supplierOf(req).supplierId,
          req.params.offer_id,
          'supplier_request',
          callerOf(req),
        ),
      ),
  );

const setStock: Route = (api, services) =>
  api.put(
    '/offers/:offer_id/stock',
    {
      config: { idempotent: true, limitClass: 'sync' },
      schema: {
        summary: 'Declare stock (declared offers; 0 keeps the offer active and unroutable; rate-limit class sync)',
        description: 'Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer); 422 validation_failed.',
        tags,
        params: OfferParams,
        body: z.object({ declared_stock: z.number().int().min(0).max(1_000_000) }).strict(),
        response: { 200: StockUpdate, ...problems(404, 409) },
      },
    },
    async (req) => {
      const { offer } = await setDeclaredStock(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        req.body.declared_stock,
        callerOf(req),
      );
      return { offer_id: offer.id, declared_stock: offer.declaredStock!, updated_at: offer.updatedAt };
    },
  );

const checkFulfilmentNow: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/fulfilment/check',
    {
      config: { idempotent: true, limitClass: 'test' },
      schema: {
        summary: 'Probe the fulfilment healthcheck now (200 means the check ran; read status; rate-limit class test)',
        description:
          'Records last_healthcheck_at and last_healthcheck_ok. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).',
        tags,
        params: OfferParams,
        response: { 200: FulfilmentCheck, ...problems(404, 409) },
      },
    },
    async (req) => {
      const probe = await checkFulfilment(
        services.commands,
        supplierOf(req).supplierId,
        req.params.offer_id,
        callerOf(req),
      );
      return {
        status: probe.ok ? ('ok' as const) : ('failed' as const),
        http_status: probe.httpStatus,
        latency_ms: probe.latencyMs,
        checked_at: probe.checkedAt,
        ...(probe.error && { error: probe.error }),
      };
    },
  );

const rotateSecret: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/fulfilment/rotate-secret',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Rotate the fulfilment secret; for 24 hours calls carry a second v1= signature made with the old one',
        description:
          'The answer carries the new fulfilment.secret once. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).',
        tags,
        params: OfferParams,
        response: { 200: Offer, ...problems(404, 409) },
      },
    },
    async (req) =>
      answer(
        services,
        await rotateFulfilmentSecret(
          services.commands,
          supplierOf(req).supplierId,
          req.params.offer_id,
          callerOf(req),
          operationOf(req).id,
        ),
      ),
  );

export const registerOfferRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [
    create,
    list,
    read,
    update,
    setPrice,
    activate,
    deactivate,
    setStock,
    checkFulfilmentNow,
    rotateSecret,
  ]);
