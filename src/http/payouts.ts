import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { holdingPeriodMs } from '../commands/ledger.js';
import { createPayout, loadPayoutSchedule, movePayout, setPayoutSchedule } from '../commands/payouts.js';
import { PAYOUT_METHODS, PAYOUT_MINIMUM } from '../domain/payout.js';
import { nextPayoutRun, type PayoutInterval } from '../domain/payout-schedule.js';
import { listSupplierPayouts, payoutScheduleRow } from '../projections/payout-reads.js';
import { decodeSeqCursor, listOf, page, pageQuery } from './pagination.js';
import { Payout, PayoutWithEntries, payoutOut, readPayout } from '../resources/payout-resource.js';
import { operationOf } from './idempotency.js';
import { HttpProblem } from './problem.js';
import { recordedPayout } from './recorded-payout.js';
import { MoneyInput, problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { iso, Money, Timestamp } from '../resources/values.js';
import { registerRoutes, type Route } from './routes.js';
import { type Services } from './services.js';

const tags = ['payouts'];
const Method = z.enum(PAYOUT_METHODS);

const Schedule = z
  .object({
    interval: z
      .enum(['manual', 'daily', 'weekly'])
      .describe('daily: 00:00 UTC; weekly: Mondays 00:00 UTC; manual: none'),
    minimum_amount: Money.describe(
      'a run pays out the whole available balance when it is at least this (and the fee schedule minimum)',
    ),
    method: Method,
    updated_at: Timestamp.nullable(),
    next_payout_at: Timestamp.nullable().describe("the schedule's next run (null: manual)"),
    payout_minimum: Money.describe("the fee schedule's minimum of any payout"),
    holding_period_seconds: z
      .number()
      .int()
      .describe("how long a sale's proceeds stay pending after delivery (7 days; 10 minutes in the sandbox)"),
  })
  .meta({ id: 'PayoutSchedule' });

/** What a supplier needs to know before paying out, beside the schedule itself: one home for each number. */
const scheduleFacts = (services: Services, interval: PayoutInterval) => ({
  next_payout_at: interval === 'manual' ? null : iso(nextPayoutRun(interval, services.clock.now())),
  payout_minimum: { amount: PAYOUT_MINIMUM, currency: 'EUR' as const },
  holding_period_seconds: holdingPeriodMs(services.commands.env) / 1000,
});

const defaultSchedule = {
  interval: 'manual' as const,
  minimum_amount: { amount: PAYOUT_MINIMUM, currency: 'EUR' as const },
  method: 'sepa_bank_transfer' as const,
  updated_at: null,
};

const create: Route = (api, services) =>
  api.post(
    '/payouts',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Pay out part of your available balance',
        description: `At least ${PAYOUT_MINIMUM} minor units and never more than available; the amount leaves available at once and comes back if the payout fails or is cancelled. It goes to \`destination_id\`, else to your default destination (or, with \`method\`, the newest destination of that method); without any destination it is made by method alone (sepa_bank_transfer unless named). In the sandbox a payout to a destination is in transit 30 s later and paid 30 s after that (payout.paid); to the test IBAN it fails (payout.failed, account_closed).`,
        tags,
        body: z
          .object({
            amount: MoneyInput,
            method: Method.optional(),
            destination_id: z.string().min(1).max(200).optional(),
          })
          .strict(),
        response: { 201: PayoutWithEntries, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const amount = req.body.amount.amount;
      // the payout's id follows from the request's operation: a run of it again (its answer
      // lost to a crash or a 5xx) finds the payout made and makes no second one
      const payoutId = await createPayout(
        services.commands,
        supplierId,
        {
          amount,
          method: req.body.method,
          destinationId: req.body.destination_id,
          payoutId: `po_${operationOf(req).id}`,
        },
        callerOf(req),
      );
      const { supplierId: _owner, ...payout } = await recordedPayout(services.db, payoutId, supplierId);
      return reply.code(201).send(payout);
    },
  );

const list: Route = (api, services) =>
  api.get(
    '/payouts',
    {
      schema: {
        summary: 'Your payouts, newest first',
        tags,
        querystring: z.object({
          status: z.enum(['pending', 'in_transit', 'paid', 'failed', 'cancelled']).optional(),
          ...pageQuery,
        }),
        response: { 200: listOf(Payout), ...problems() },
      },
    },
    async (req) => {
      const { status, limit, cursor } = req.query;
      const before = decodeSeqCursor(cursor);
      const rows = await listSupplierPayouts(services.db, supplierOf(req).supplierId, {
        status,
        beforeSeq: before,
        limit,
      });
      return page(rows, limit, (r) => String(r.seq), payoutOut);
    },
  );

const readSchedule: Route = (api, services) =>
  api.get(
    '/payouts/schedule',
    { schema: { summary: 'Your payout schedule', tags, response: { 200: Schedule, ...problems() } } },
    async (req) => {
      const row = await payoutScheduleRow(services.db, supplierOf(req).supplierId);
      if (!row) return { ...defaultSchedule, ...scheduleFacts(services, 'manual') };
      return {
        interval: row.interval as PayoutInterval,
        minimum_amount: { amount: row.minimum_amount, currency: 'EUR' as const },
        method: row.method as 'paypal',
        updated_at: iso(row.updated_at),
        ...scheduleFacts(services, row.interval as PayoutInterval),
      };
    },
  );

const setSchedule: Route = (api, services) =>
  api.put(
    '/payouts/schedule',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Set automatic payouts: daily or weekly, above a minimum amount (manual turns them off)',
        tags,
        body: z
          .object({
            interval: z.enum(['manual', 'daily', 'weekly']),
            minimum_amount: MoneyInput.optional().describe(`default and lowest: ${PAYOUT_MINIMUM}`),
            method: Method.default('sepa_bank_transfer'),
          })
          .strict(),
        response: { 200: Schedule, ...problems() },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      const minimumAmount = req.body.minimum_amount?.amount ?? PAYOUT_MINIMUM;
      await setPayoutSchedule(
        services.commands,
        { supplierId, interval: req.body.interval, minimumAmount, method: req.body.method },
        callerOf(req),
      );
      const schedule = await loadPayoutSchedule(services.commands, supplierId);
      const row = await payoutScheduleRow(services.db, supplierId);
      return {
        interval: schedule!.interval,
        minimum_amount: { amount: schedule!.minimumAmount, currency: 'EUR' as const },
        method: schedule!.method,
        updated_at: row ? iso(row.updated_at) : null,
        ...scheduleFacts(services, schedule!.interval),
      };
    },
  );

const read: Route = (api, services) =>
  api.get(
    '/payouts/:payout_id',
    {
      schema: {
        summary: 'One payout and the balance entries it posted',
        tags,
        params: z.object({ payout_id: z.string().min(1).max(200) }),
        response: { 200: PayoutWithEntries, ...problems(404) },
      },
    },
    async (req) => {
      const found = await readPayout(services.db, req.params.payout_id, supplierOf(req).supplierId);
      if (!found) throw new HttpProblem('not_found', `no payout ${req.params.payout_id}`);
      const { supplierId: _owner, ...payout } = found;
      return payout;
    },
  );

const cancel: Route = (api, services) =>
  api.post(
    '/payouts/:payout_id/cancel',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Cancel a pending payout: its amount returns to available',
        description:
          'Only while pending (409 once in transit, paid or failed); cancelling a cancelled payout is harmless.',
        tags,
        params: z.object({ payout_id: z.string().min(1).max(200) }),
        response: { 200: PayoutWithEntries, ...problems(404, 409) },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      await movePayout(services.commands, req.params.payout_id, 'cancelled', null, callerOf(req), supplierId);
      const { supplierId: _owner, ...payout } = await recordedPayout(services.db, req.params.payout_id, supplierId);
      return payout;
    },
  );

export const registerPayoutRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [create, list, readSchedule, setSchedule, read, cancel]);
