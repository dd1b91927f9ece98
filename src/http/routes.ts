import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Services } from './services.js';

const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** The app as a route file declares on it: schemas in zod, handlers typed from them. */
export type Api = ReturnType<typeof typed>;

/** One route (or a few that share their helpers): declared on the app, given what the app is given. */
export type Route = (api: Api, services: Services) => void;

/**
 * Declares a resource's routes in the order listed: the order is the OpenAPI document's, so a
 * resource keeps its list in the order its routes are read.
 */
export const registerRoutes = (app: FastifyInstance, services: Services, routes: readonly Route[]) => {
  const api = typed(app);
  for (const route of routes) route(api, services);
};
