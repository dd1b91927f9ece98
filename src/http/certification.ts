import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { certifyOffer } from '../commands/certification.js';
import { problems } from './schemas.js';
import { callerOf, supplierOf } from './supplier.js';
import { Timestamp } from '../resources/values.js';
import { type Services } from './services.js';

const Exchange = z.object({
  method: z.enum(['GET', 'POST', 'DELETE']),
  path: z.string().describe('appended to the offer’s fulfilment.base_url'),
  body: z.unknown().describe('the JSON body sent (null for none); headers and signatures are never reported'),
  signed_with: z
    .enum(['offer_secret', 'wrong_secret'])
    .describe('wrong_secret: the deliberately wrong signature of the signature check'),
  sent_at: Timestamp,
  response: z
    .object({ status: z.number().int(), body: z.unknown() })
    .nullable()
    .describe('null when no usable answer came'),
  failure: z
    .object({ reason: z.string(), detail: z.string() })
    .nullable()
    .describe('timeout, connection, target or malformed'),
  latency_ms: z.number().int(),
  timeout_ms: z.number().int().describe("the spec's per-call timeout for this call"),
  within_timeout: z.boolean(),
});

export const CertificationCheck = z.object({
  name: z.string(),
  expected: z.string().describe('what the contract requires'),
  outcome: z.enum(['pass', 'fail', 'skipped']).describe('skipped: a check it depends on did not pass'),
  passed: z.boolean(),
  detail: z.string().nullable().describe('why it failed or was skipped'),
  exchanges: z.array(Exchange),
});

export const CertificationReport = z
  .object({
    id: z.string(),
    kind: z.enum(['declared', 'topup']),
    base_url: z.string(),
    offer_id: z.string(),
    passed: z.boolean().describe('every check passed'),
    started_at: Timestamp,
    finished_at: Timestamp,
    summary: z.object({ passed: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
    checks: z.array(CertificationCheck),
  })
  .meta({ id: 'CertificationReport' });

export const registerCertificationRoutes = (app: FastifyInstance, services: Services) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/offers/:offer_id/certification',
    {
      config: { idempotent: true, limitClass: 'test' },
      schema: {
        summary:
          "Go-live certification: run the whole supplier-hosted contract against the offer's fulfilment endpoints (rate-limit class test)",
        description:
          'Declared offers: healthcheck, a wrongly signed request refused, reservation and its replay, POST /orders and its duplicate, the poll cycle to ready, DELETE /orders/{id}/items, out_of_stock, reservation_expired. Top-up offers: healthcheck, a wrongly signed request refused, validate with the sandbox users 100001, 999999, 888888 and 777777, execute and its replay, status polls. 200 means the certification ran; read passed. No order, ledger entry or health outcome is recorded for the offer. In production, activating a declared offer needs a passing certification of its base_url within 30 days. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).',
        tags: ['offers'],
        params: z.object({ offer_id: z.string().min(1).max(100) }),
        response: { 200: CertificationReport, ...problems(404, 409) },
      },
    },
    async (req) => certifyOffer(services.commands, supplierOf(req).supplierId, req.params.offer_id, callerOf(req)),
  );
};
