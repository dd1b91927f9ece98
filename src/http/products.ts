import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listProducts, productById } from '../projections/product-reads.js';
import { decodeCursor, listOf, page, pageQuery } from './pagination.js';
import { HttpProblem } from './problem.js';
import { Product, toProductResource } from './product-resource.js';
import { problems } from './schemas.js';
import { supplierOf } from './supplier.js';
import { type Services } from './services.js';

export const registerProductRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/products',
    {
      schema: {
        summary: 'List products',
        tags: ['products'],
        querystring: z.object({ type: z.string().min(1).max(50).optional(), ...pageQuery }),
        response: { 200: listOf(Product), ...problems() },
      },
    },
    async (req) => {
      const { type, limit, cursor } = req.query;
      const after = decodeCursor(cursor);
      const rows = await listProducts(services.db, { type, after, limit });
      const supplierId = supplierOf(req).supplierId;
      const markets = await services.market(
        rows.map((r) => r.id),
        supplierId,
      );
      return page(
        rows,
        limit,
        (r) => r.id,
        (r) => toProductResource(r, markets.get(r.id)!),
      );
    },
  );

  api.get(
    '/products/:product_id',
    {
      schema: {
        summary: 'One product, with its form fields',
        tags: ['products'],
        params: z.object({ product_id: z.string().min(1).max(100) }),
        response: { 200: Product, ...problems(404) },
      },
    },
    async (req) => {
      const row = await productById(services.db, req.params.product_id);
      if (!row) throw new HttpProblem('not_found', `product ${req.params.product_id} not found`);
      const markets = await services.market([row.id], supplierOf(req).supplierId);
      return toProductResource(row, markets.get(row.id)!);
    },
  );
};
