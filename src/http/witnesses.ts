import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordCosignature } from '../commands/witness.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import { latestCosignatures } from '../projections/witness-reads.js';
import { brokenDetail, rootOfFirst } from '../resources/ledger-proof.js';
import { readSignedHead } from '../sdk/ledger/checkpoint.js';
import { type Cosignature, verifyCosignature } from '../sdk/ledger/cosignature.js';
import { keyIdOf } from '../sdk/ledger/keys.js';
import { CosignatureSchema } from './ledger-schemas.js';
import { HttpProblem } from './problem.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import { type Services } from './services.js';
import { callerOf, supplierOf } from './supplier.js';

const refused = (detail: string, field: string) =>
  new HttpProblem('validation_failed', detail, { errors: [{ field: `body.${field}`, message: detail }] });

/** How far ahead of the service a witness's clock may be. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * What a cosignature must be to be kept: the head the ledger's (its key and signature), the
 * caller's, and still the ledger as stored (its root over as many entries); the witness's
 * signature over it; a time written as toISOString writes it (kept as text, so the
 * signature verifies for every reader), not ahead of the service by more than 5 minutes.
 */
const checkedCosignature = async (services: Services, supplierId: string, c: Cosignature) => {
  const keys = services.ledger.keyring.published.map((k) => ({ keyId: k.key_id, publicKey: k.public_key }));
  const read = readSignedHead(c.checkpoint, keys);
  if (!read.ok) throw refused(`the head is not one the ledger signed: ${read.reason}`, 'checkpoint');
  if (read.head.supplier_id !== supplierId) throw refused("the head is another supplier's ledger", 'checkpoint');
  const ledger = await ledgerAsOf(services.ledger, supplierId);
  if (ledger.broken)
    throw new HttpProblem('ledger_chain_broken', brokenDetail({ broken: ledger.broken }), {
      entry_id: ledger.broken.entryId,
    });
  if (ledger.texts.length < read.head.tree_size || rootOfFirst(ledger, read.head.tree_size) !== read.head.root_hash)
    throw new HttpProblem(
      'ledger_chain_broken',
      `the ledger as stored no longer begins with the ${read.head.tree_size} entries this head signed`,
    );
  if (new Date(c.cosigned_at).toISOString() !== c.cosigned_at)
    throw refused('cosigned_at must be written as toISOString writes it (milliseconds, Z)', 'cosigned_at');
  if (Date.parse(c.cosigned_at) > services.clock.now().getTime() + CLOCK_SKEW_MS)
    throw refused('cosigned_at is ahead of the service by more than 5 minutes', 'cosigned_at');
  if (c.witness_key_id !== keyIdOf(c.witness_key))
    throw refused('witness_key_id is not the id of witness_key', 'witness_key_id');
  if (!verifyCosignature(c)) throw refused('the signature does not verify under witness_key', 'signature');
  return read.head;
};

const cosign: Route = (api, services) =>
  api.post(
    '/balance/cosignatures',
    {
      config: { idempotent: true },
      schema: {
        summary: "A witness's cosignature of one of your ledger's signed heads: kept and published",
        description:
          "A witness (`ledger witness`, or `runWitness` in the client package) cosigns a head once it checked it consistent with every head it accepted before. The head must be the ledger's, yours, and still what the ledger holds; the signature the witness key's. The latest cosignature of each witness is published (GET /balance/cosignatures) and sent with the daily `ledger.checkpoint`.",
        tags: ['balance'],
        body: CosignatureSchema,
        response: { 201: CosignatureSchema, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const head = await checkedCosignature(services, supplierId, req.body);
      await recordCosignature(services.commands, supplierId, req.body, head, callerOf(req));
      void reply.code(201);
      return req.body;
    },
  );

const list: Route = (api, services) =>
  api.get(
    '/balance/cosignatures',
    {
      schema: {
        summary: 'The latest cosignature of each witness of your ledger',
        tags: ['balance'],
        response: { 200: z.object({ data: z.array(CosignatureSchema) }), ...problems() },
      },
    },
    async (req) => ({ data: await latestCosignatures(services.db, supplierOf(req).supplierId) }),
  );

export const registerWitnessRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [cosign, list]);
