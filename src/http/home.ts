import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { docsShelf, homePage } from './docs-pages.js';
import { type Services } from './services.js';

// the project's own pages: no script, pictures from here only
const CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

const html = (reply: FastifyReply, body: string) =>
  reply.type('text/html; charset=utf-8').header('content-security-policy', CSP).send(body);

/**
 * `GET /`: a small page linking the console, the API reference and the documents (a JSON
 * map of the same for a caller that asks for JSON), and the documents themselves under
 * /docs/. No token needed; not counted against a caller's limits, as the probes are not.
 */
export const registerHomeRoutes = (app: FastifyInstance, services: Services) => {
  const open = { config: { public: true, unlimited: true }, schema: { hide: true } };
  const shelf = docsShelf();
  const missing = (what: string) => new DomainError('not_found', `no document ${what}`);

  app.get('/', open, async (req, reply) => {
    const accepts = req.headers.accept ?? '';
    if (accepts.includes('application/json') && !accepts.includes('text/html'))
      return {
        environment: services.config.env,
        console: '/console',
        api_reference: '/api/v1/docs',
        openapi: '/api/v1/openapi.json',
        errors: '/api/v1/errors',
        docs: shelf ? '/docs/' : null,
      };
    return html(reply, homePage(services.config.env, shelf !== undefined));
  });

  app.get('/docs', open, async (_req, reply) => reply.redirect('/docs/', 301));
  app.get('/docs/', open, async (_req, reply) => {
    if (!shelf) throw missing('here: this installation ships none');
    return html(reply, await shelf.index());
  });
  app.get<{ Params: { name: string } }>('/docs/:name', open, async (req, reply) => {
    const page = await shelf?.page(req.params.name);
    if (!page) throw missing(req.params.name);
    return html(reply, page);
  });
  app.get<{ Params: { name: string } }>('/docs/console/:name', open, async (req, reply) => {
    const picture = await shelf?.picture(req.params.name);
    if (!picture) throw missing(`console/${req.params.name}`);
    return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(picture);
  });
};
