import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addPayoutDestination,
  loadPayoutDestinations,
  removePayoutDestination,
  setDefaultPayoutDestination,
} from '../commands/payout-destinations.js';
import {
  activeDestinations,
  MAX_PAYOUT_DESTINATIONS,
  maskedDestination,
  type PayoutDestination as Held,
  type PayoutDestinationsState,
  SANDBOX_FAILING_IBAN,
} from '../domain/payout-destination.js';
import { PAYOUT_METHODS } from '../domain/payout.js';
import { operationOf } from './idempotency.js';
import { HttpProblem } from './problem.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import { type Services } from './services.js';
import { callerOf, supplierOf } from './supplier.js';
import { Timestamp } from '../resources/values.js';

const tags = ['payouts'];
const Params = z.object({ destination_id: z.string().min(1).max(200) });

const PayoutDestination = z
  .object({
    id: z.string(),
    method: z.enum(PAYOUT_METHODS),
    account: z.string().describe('masked: the IBAN country and its last four characters, or the PayPal address'),
    holder_name: z.string().nullable().describe('bank accounts only'),
    default: z.boolean().describe('where payouts go when a request names no destination'),
    created_at: Timestamp,
  })
  .meta({ id: 'PayoutDestination' });

const destinationOut = (state: PayoutDestinationsState, d: Held) => ({
  id: d.destinationId,
  method: d.method,
  account: maskedDestination(d),
  holder_name: d.holderName,
  default: state.defaultId === d.destinationId,
  created_at: d.createdAt,
});

const NewDestination = z
  .discriminatedUnion('method', [
    z
      .object({
        method: z.literal('sepa_bank_transfer'),
        iban: z
          .string()
          .max(64)
          .describe(`spaces allowed; check digits verified. Sandbox: ${SANDBOX_FAILING_IBAN} fails (account_closed)`),
        holder_name: z.string().max(140),
      })
      .strict(),
    z.object({ method: z.literal('paypal'), email: z.string().max(254) }).strict(),
  ])
  .meta({ id: 'NewPayoutDestination' });

const list: Route = (api, services) =>
  api.get(
    '/payout-destinations',
    {
      schema: {
        summary: 'Where your payouts can go, oldest first, accounts masked',
        tags,
        response: { 200: z.object({ data: z.array(PayoutDestination) }), ...problems() },
      },
    },
    async (req) => {
      const state = await loadPayoutDestinations(services.commands, supplierOf(req).supplierId);
      return { data: activeDestinations(state).map((d) => destinationOut(state, d)) };
    },
  );

const create: Route = (api, services) =>
  api.post(
    '/payout-destinations',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Add a bank account (IBAN) or a PayPal address; the first one becomes the default',
        description: `At most ${MAX_PAYOUT_DESTINATIONS}; the same account twice is refused (409).`,
        tags,
        body: NewDestination,
        response: { 201: PayoutDestination, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const body = req.body;
      const input =
        body.method === 'paypal'
          ? { method: body.method, email: body.email }
          : { method: body.method, iban: body.iban, holderName: body.holder_name };
      // the id follows from the request's operation: a repeat of it adds no second destination
      const { state, destinationId } = await addPayoutDestination(
        services.commands,
        supplierId,
        { ...input, destinationId: `pd_${operationOf(req).id}` },
        callerOf(req),
      );
      return reply.code(201).send(destinationOut(state, state.destinations.get(destinationId)!));
    },
  );

const update: Route = (api, services) =>
  api.patch(
    '/payout-destinations/:destination_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Make a destination the default',
        tags,
        params: Params,
        body: z.object({ default: z.literal(true) }).strict(),
        response: { 200: PayoutDestination, ...problems(404) },
      },
    },
    async (req) => {
      const state = await setDefaultPayoutDestination(
        services.commands,
        supplierOf(req).supplierId,
        req.params.destination_id,
        callerOf(req),
      );
      return destinationOut(state, state.destinations.get(req.params.destination_id)!);
    },
  );

const remove: Route = (api, services) =>
  api.delete(
    '/payout-destinations/:destination_id',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Remove a destination (the default only when it is the last one)',
        description: 'Payouts already sent to it keep naming it.',
        tags,
        params: Params,
        response: { 204: z.null(), ...problems(404, 409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const before = await loadPayoutDestinations(services.commands, supplierId);
      if (!before.destinations.has(req.params.destination_id))
        throw new HttpProblem('not_found', `no payout destination ${req.params.destination_id}`);
      await removePayoutDestination(services.commands, supplierId, req.params.destination_id, callerOf(req));
      return reply.code(204).send(null);
    },
  );

export const registerPayoutDestinationRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [list, create, update, remove]);
