import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createProduct, updateProduct } from '../../commands/products.js';
import type { ProductFields, ProductState } from '../../domain/product.js';
import {
  FormField,
  KeyFormat,
  keyFormatOf,
  keyFormatResource,
  OperatorProduct,
  ProductStatus,
  ProductType,
} from '../product-resource.js';
import { operationOf } from '../idempotency.js';
import { problems } from '../schemas.js';
import { callerOf } from '../supplier.js';
import { registerRoutes, type Route } from '../routes.js';
import { type Services } from '../services.js';

const tags = ['operator'];

const fields = {
  name: z.string().trim().min(1).max(200),
  type: ProductType,
  platform: z.string().trim().min(1).max(100),
  region: z.string().trim().min(1).max(100),
  status: ProductStatus,
  form_fields: z.array(FormField).max(50),
  key_format: KeyFormat.nullable(),
};

const toResource = (p: NonNullable<ProductState>) => ({
  id: p.id,
  name: p.name,
  type: p.type,
  platform: p.platform,
  region: p.region,
  status: p.status,
  form_fields: p.formFields,
  key_format: keyFormatResource(p.keyFormat),
});

const create: Route = (api, services) =>
  api.post(
    '/products',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create a product',
        tags,
        body: z
          .object({
            ...fields,
            form_fields: fields.form_fields.default([]),
            key_format: fields.key_format.default(null),
          })
          .strict(),
        response: { 201: OperatorProduct, ...problems() },
      },
    },
    async (req, reply) => {
      const { form_fields, key_format, ...rest } = req.body;
      const product = await createProduct(
        services.commands,
        { ...rest, formFields: form_fields, keyFormat: keyFormatOf(key_format) },
        callerOf(req),
        operationOf(req),
      );
      return reply.code(201).send(toResource(product));
    },
  );

const change: Route = (api, services) =>
  api.patch(
    '/products/:product_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Change a product (any of its fields)',
        tags,
        params: z.object({ product_id: z.string().min(1).max(100) }),
        body: z
          .object({
            name: fields.name.optional(),
            type: fields.type.optional(),
            platform: fields.platform.optional(),
            region: fields.region.optional(),
            status: fields.status.optional(),
            form_fields: fields.form_fields.optional(),
            key_format: fields.key_format.optional(),
          })
          .strict(),
        response: { 200: OperatorProduct, ...problems(404) },
      },
    },
    async (req) => {
      const { form_fields, key_format, ...rest } = req.body;
      const changes: Partial<ProductFields> = {
        ...rest,
        ...(form_fields && { formFields: form_fields }),
        ...(key_format !== undefined && { keyFormat: keyFormatOf(key_format) }),
      };
      return toResource(await updateProduct(services.commands, req.params.product_id, changes, callerOf(req)));
    },
  );

export const registerOperatorProductRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [create, change]);
