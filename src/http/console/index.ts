import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { type Services } from '../services.js';
import { consoleOf } from './core.js';
import { answerFault } from './fault.js';
import { notFound } from './page.js';
import { registerBalance } from './pages/balance.js';
import { registerBalanceCsv } from './pages/balance-csv.js';
import { registerCompetition } from './pages/competition.js';
import { registerDeliveries } from './pages/deliveries.js';
import { registerInventory } from './pages/inventory.js';
import { registerInventoryActions } from './pages/inventory-actions.js';
import { registerInventoryImport } from './pages/inventory-import.js';
import { registerOffer } from './pages/offer.js';
import { registerOfferActions } from './pages/offer-actions.js';
import { registerOffers } from './pages/offers.js';
import { registerOrders } from './pages/orders.js';
import { registerPayouts } from './pages/payouts.js';
import { registerPayoutDestinations } from './pages/payout-destinations.js';
import { registerPricing } from './pages/pricing.js';
import { registerPricingActions } from './pages/pricing-actions.js';
import { registerRouting } from './pages/routing.js';
import { registerSignIn } from './pages/sign-in.js';
import { registerStatements } from './pages/statements.js';
import { registerWebhook } from './pages/webhook.js';
import { registerWebhookActions } from './pages/webhook-actions.js';
import { registerWebhooks } from './pages/webhooks.js';
import { registerShownOnce } from './shown-once.js';
import { checkNames, readForm } from './form-body.js';
import { carriesSession, loadSession, readSession } from './session.js';

/**
 * The supplier console at /console: server-rendered pages and plain HTML forms, one file
 * per page. Every read and every change goes through the supplier API itself (an in-process
 * request carrying the session's token), so the console has the same commands, validation,
 * read models, rate limits and idempotency as the API, and no path of its own to the data.
 * The only exception is an offer's or order's timeline, read from its own event stream once
 * the API has confirmed it is the supplier's.
 */
export const registerConsole = async (app: FastifyInstance, services: Services) => {
  const c = consoleOf(app, services);
  await app.register(async (site) => {
    // forms post urlencoded; only the console accepts that, the API stays JSON only. Read
    // in linear time within each route's body limit (form-body.ts): this runs before the
    // session and CSRF checks, for anyone
    site.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, readForm(body as string));
      } catch (refused) {
        done(refused as Error, undefined);
      }
    });
    const signedInCookie = (req: FastifyRequest) => carriesSession(req, services.secretBox, services.clock.now());
    site.addHook('onRequest', (req, reply, done) => {
      // a post of anyone not signed in but the sign-in's is sent to sign in before its body
      // is read (as `posted` would after): only the sign-in form, of a few KB, is read for anyone
      if (req.method === 'POST' && req.url !== '/console/sign-in' && !signedInCookie(req))
        return void reply.redirect('/console/sign-in', 303);
      // a query is read by fastify's own parser (the same as forms'); its names are checked here
      try {
        checkNames(Object.keys(req.query as object));
        done();
      } catch (refused) {
        done(refused as Error);
      }
    });
    // a console request of a signed-in supplier is metered by the API calls it makes (its
    // token's budgets); any other (the sign-in form, a page before sign-in) by its address,
    // in the API's unauthenticated class
    site.addHook('onRoute', (route) => {
      route.config = { ...route.config, unlimited: signedInCookie };
    });
    // set before the routes: a route keeps the error handler in force when it is built (the
    // await below builds them), and the not-found scope inherits it
    site.setErrorHandler(async (error: FastifyError, req, reply) => answerFault(c, error, req, reply));
    const sessions = { box: services.secretBox, db: services.db, now: () => services.clock.now() };
    // every console request's session is looked up once, here, before its route reads it
    site.addHook('preHandler', async (req) => loadSession(req, sessions));
    for (const register of [registerSignIn]) register(site, c, sessions);
    for (const register of PAGES) register(site, c);
    // an unknown console URL is a console page, not the API's problem+json
    await site.register(
      async (scope) =>
        scope.setNotFoundHandler(async (req, reply) => {
          if (!readSession(req)) await loadSession(req, sessions);
          return notFound(c, reply, readSession(req));
        }),
      { prefix: '/console' },
    );
  });
};

const PAGES = [
  registerOffers,
  registerShownOnce,
  registerOffer,
  registerOfferActions,
  registerInventory,
  registerInventoryImport,
  registerInventoryActions,
  registerPricing,
  registerPricingActions,
  registerRouting,
  registerOrders,
  registerBalance,
  registerBalanceCsv,
  registerPayouts,
  registerPayoutDestinations,
  registerStatements,
  registerCompetition,
  registerWebhooks,
  registerWebhook,
  registerWebhookActions,
  registerDeliveries,
];
