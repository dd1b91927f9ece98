import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from './schemas.js';
import { supplierOf } from './supplier.js';
import { type Services } from './services.js';

const Whoami = z.object({
  supplier: z.object({ id: z.string(), name: z.string() }),
  environment: z.enum(['sandbox', 'production']),
  token_id: z.string(),
});

export const registerWhoamiRoutes = (app: FastifyInstance, services: Services) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/whoami',
    {
      schema: {
        summary: 'The supplier behind the token, and the environment',
        tags: ['account'],
        response: { 200: Whoami, ...problems() },
      },
    },
    async (req) => {
      const p = supplierOf(req);
      return {
        supplier: { id: p.supplierId, name: p.supplierName },
        environment: services.config.env,
        token_id: p.tokenId,
      };
    },
  );
};
