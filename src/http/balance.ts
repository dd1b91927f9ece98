import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { currentBalance, listBalanceEntries } from '../projections/balance-reads.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import { MONTH, statementCsv, statementHtml } from '../projections/ledger-statement.js';
import { brokenDetail, ledgerProof, signedStatement, type BrokenLedger } from '../resources/ledger-proof.js';
import { HttpProblem } from './problem.js';
import { decodeSeqCursor, page, listOf, pageQuery } from './pagination.js';
import { problems } from './schemas.js';
import { iso, Money, Timestamp } from '../resources/values.js';
import { Entry, entryOut, ENTRY_TYPES } from '../resources/entry-resource.js';
import { supplierOf } from './supplier.js';
import { eur } from '../domain/money.js';
import { registerRoutes, type Route } from './routes.js';
import { type Services } from './services.js';

const Balance = z
  .object({ currency: z.literal('EUR'), available: Money, pending: Money, updated_at: Timestamp.nullable() })
  .meta({ id: 'Balance' });

const AsOf = z.iso.datetime({ offset: true }).describe('a moment: the answer is the ledger as it stood then');

const Checkpoint = z
  .object({
    algorithm: z.literal('ed25519'),
    key_id: z.string().describe('the signing key: GET /.well-known/svc-ledger-signing-key'),
    signed: z
      .string()
      .describe(
        'the exact signed text: canonical JSON (keys sorted, no whitespace) of {as_of, entries, format, head, key_id, last_entry_id, supplier_id}',
      ),
    signature: z.string().describe('Ed25519 over the UTF-8 bytes of `signed`, hex (64 bytes)'),
  })
  .describe('the chain head signed by the service: keep it to prove later that the history it covers was not rewritten')
  .meta({ id: 'LedgerCheckpoint' });

const Proof = z
  .object({
    supplier_id: z.string(),
    as_of: Timestamp,
    algorithm: z
      .literal('sha256')
      .describe('head = sha256(previous head + canonical JSON of the entry), from 64 zeros'),
    head: z.string().describe('hex; 64 zeros before the first entry'),
    entries: z.number().int().describe('how many ledger entries the head covers'),
    last_entry_id: z.string().nullable(),
    last_entry_at: Timestamp.nullable(),
    checkpoint: Checkpoint,
  })
  .meta({ id: 'BalanceProof' });

/** A ledger whose chain fails is answered as such: no head, no statement is vouched for over it. */
const chainBroken = (ledger: BrokenLedger) =>
  new HttpProblem('ledger_chain_broken', brokenDetail(ledger), { entry_id: ledger.broken.entryId });

const Pair = z.object({ pending: Money, available: Money });

/** The first of csv, html, json the Accept header names (by order of preference, q ignored but 0). */
const negotiate = (accept: string): 'csv' | 'html' | 'json' => {
  const wanted = accept
    .split(',')
    .map((part) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type!.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { type } of wanted) {
    if (type === 'text/csv') return 'csv';
    if (type === 'text/html') return 'html';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  }
  return 'json';
};

const Statement = z
  .object({
    supplier_id: z.string(),
    month: z.string(),
    from: Timestamp,
    to: Timestamp.describe('exclusive'),
    currency: z.literal('EUR'),
    opening: Pair,
    entries: z.array(Entry.extend({ pending_after: Money, available_after: Money })),
    closing: Pair,
    checkpoint: Checkpoint.describe(
      "the ledger's signed head over every entry up to the month's end (as of the latest of them)",
    ),
  })
  .meta({ id: 'BalanceStatement' });

const balance: Route = (api, services) =>
  api.get(
    '/balance',
    {
      schema: {
        summary: 'Your balance, now or as it stood at any moment',
        tags: ['balance'],
        querystring: z.object({ as_of: AsOf.optional() }),
        response: { 200: Balance, ...problems() },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      if (req.query.as_of) {
        const then = await ledgerAsOf(services.ledger, supplierId, new Date(req.query.as_of));
        return {
          currency: 'EUR' as const,
          available: eur(then.available),
          pending: eur(then.pending),
          updated_at: then.updatedAt,
        };
      }
      const row = await currentBalance(services.db, supplierId);
      return {
        currency: 'EUR' as const,
        available: eur(row?.available ?? 0),
        pending: eur(row?.pending ?? 0),
        updated_at: row ? iso(row.updated_at) : null,
      };
    },
  );

const statement: Route = (api, services) =>
  api.get(
    '/balance/statements/:month',
    {
      config: {
        textFormats: {
          'text/csv': 'the statement as CSV: amounts in minor units, an opening and a closing row',
          'text/html': 'the statement as a printable page',
        },
      },
      schema: {
        summary: 'A monthly statement: opening balance, the entries of the month, closing balance',
        description:
          'Accept: application/json (default), text/csv (amounts in minor units, an opening and a closing row) or text/html (a printable page). The month runs from 00:00 UTC on its first day to 00:00 UTC on the next.',
        tags: ['balance'],
        params: z.object({ month: z.string().regex(MONTH, 'YYYY-MM').describe('YYYY-MM') }),
        response: { 200: Statement, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const signed = await signedStatement(services.ledger, services.ledgerKey, supplierId, req.params.month);
      if ('broken' in signed) throw chainBroken(signed);
      const { statement, checkpoint } = signed;
      const format = req.headers.accept ? negotiate(req.headers.accept) : 'json';
      // the text formats leave as they are; only JSON goes through the response schema
      const raw = reply as unknown as FastifyReply;
      const filename = `statement-${req.params.month}`;
      if (format === 'csv')
        return raw
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}.csv"`)
          .send(statementCsv(statement));
      if (format === 'html') return raw.type('text/html; charset=utf-8').send(statementHtml(statement, checkpoint));
      const pair = (b: { pending: number; available: number }) => ({
        pending: eur(b.pending),
        available: eur(b.available),
      });
      return {
        supplier_id: supplierId,
        month: statement.month,
        from: statement.from,
        to: statement.to,
        currency: 'EUR' as const,
        opening: pair(statement.opening),
        entries: statement.entries.map((e) => ({
          ...entryOut(e),
          pending_after: eur(e.pending_after),
          available_after: eur(e.available_after),
        })),
        closing: pair(statement.closing),
        checkpoint,
      };
    },
  );

const proof: Route = (api, services) =>
  api.get(
    '/balance/proof',
    {
      schema: {
        summary:
          "The head of your ledger's hash chain, now or at any moment, signed: keep it to prove later that history was not rewritten",
        description:
          'Verify `checkpoint.signature` with the key at GET /.well-known/svc-ledger-signing-key. A ledger whose stored entries fail their hash chain anywhere answers 409 `ledger_chain_broken` naming the first such entry (`entry_id`), never a head.',
        tags: ['balance'],
        querystring: z.object({ as_of: AsOf.optional() }),
        response: { 200: Proof, ...problems(409) },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      const asOf = req.query.as_of ? new Date(req.query.as_of) : services.clock.now();
      const proof = ledgerProof(
        supplierId,
        asOf,
        await ledgerAsOf(services.ledger, supplierId, asOf),
        services.ledgerKey,
      );
      if ('broken' in proof) throw chainBroken(proof);
      return proof;
    },
  );

const entries: Route = (api, services) =>
  api.get(
    '/balance/entries',
    {
      schema: {
        summary: 'Your ledger entries, in the order they were posted',
        tags: ['balance'],
        querystring: z.object({
          type: z.enum(ENTRY_TYPES).optional(),
          from: z.iso.datetime({ offset: true }).optional().describe('created at or after'),
          to: z.iso.datetime({ offset: true }).optional().describe('created before'),
          as_of: AsOf.optional().describe('the entries as the ledger stood then (replayed from the ledger itself)'),
          ...pageQuery,
        }),
        response: { 200: listOf(Entry), ...problems() },
      },
    },
    async (req) => {
      const { type, from, to, limit, cursor, as_of } = req.query;
      const after = decodeSeqCursor(cursor);
      if (as_of) {
        const fromMs = from ? new Date(from).getTime() : -Infinity;
        const toMs = to ? new Date(to).getTime() : Infinity;
        const rows = (await ledgerAsOf(services.ledger, supplierOf(req).supplierId, new Date(as_of))).entries.filter(
          (e) => {
            const at = new Date(e.created_at).getTime();
            return (!type || e.type === type) && at >= fromMs && at < toMs && (after === undefined || e.seq > after);
          },
        );
        return page(rows.slice(0, limit + 1), limit, (r) => String(r.seq), entryOut);
      }
      const rows = await listBalanceEntries(services.db, supplierOf(req).supplierId, {
        type,
        from: from ? new Date(from) : undefined,
        to: to ? new Date(to) : undefined,
        afterSeq: after,
        limit,
      });
      return page(rows, limit, (r) => String(r.seq), entryOut);
    },
  );

export const registerBalanceRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [balance, statement, proof, entries]);
