import type { FastifyInstance } from 'fastify';
import { HttpProblem } from './problem.js';
import { type Services } from './services.js';

/**
 * `GET /metrics` in the Prometheus text format, for the operator token only (it names
 * routes, projectors and volumes: nothing a supplier should see), and the one hook that
 * counts and times every answer by its route template (never the raw URL: ids in paths
 * would make a series per resource).
 */
export const registerMetrics = (app: FastifyInstance, services: Services) => {
  const { metrics } = services;
  // synchronous: it runs on every request
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) {
      const cls =
        req.routeOptions.config?.limitClass ?? (req.method === 'GET' || req.method === 'HEAD' ? 'reads' : 'writes');
      metrics.rateLimited.inc({
        route,
        class: req.principal?.kind === 'supplier' ? cls : (req.principal?.kind ?? 'anonymous'),
      });
    }
    done();
  });

  // public to the access hook (whose token check is by path prefix); the operator check is here
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    if (req.principal.kind !== 'operator') {
      reply.header('www-authenticate', 'Bearer');
      throw new HttpProblem('unauthorized', 'the operator token is required');
    }
    return reply.type(metrics.contentType).send(await metrics.render(services));
  });
};
