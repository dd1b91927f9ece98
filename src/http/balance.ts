import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { currentBalance, listBalanceEntries } from '../projections/balance-reads.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import type { SignedCheckpoint } from '../crypto/ledger-signing.js';
import {
  MONTH,
  monthRefusal,
  type Statement as StatementOf,
  statementCsv,
  statementHtml,
} from '../projections/ledger-statement.js';
import {
  brokenDetail,
  consistencyBetween,
  inclusionProof,
  ledgerProof,
  signedStatement,
  type BrokenLedger,
} from '../resources/ledger-proof.js';
import { HttpProblem } from './problem.js';
import { Checkpoint, Proof } from './ledger-schemas.js';
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

/** A month after the current one has no statement yet. */
const notBegun = (month: string) =>
  new HttpProblem('validation_failed', `${month} has not begun: it has no statement yet`, {
    errors: [{ field: 'params.month', message: 'must not be a month after the current one' }],
  });

/** A moment after the service's now is refused: no head views the future. */
const notLater = (asOf: Date, now: Date) => {
  if (asOf.getTime() > now.getTime())
    throw new HttpProblem('validation_failed', `as_of is after now (${now.toISOString()}): no head views the future`, {
      errors: [{ field: 'querystring.as_of', message: 'must not be after now' }],
    });
  return asOf;
};

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
    supplier_name: z.string(),
    month: z.string(),
    from: Timestamp,
    to: Timestamp.describe('exclusive'),
    currency: z.literal('EUR'),
    opening: Pair,
    entries: z.array(
      Entry.extend({
        pending_after: Money,
        available_after: Money,
        gross: Money.nullable().describe('on a sale or a refund: the price the net came from (a refund negative)'),
        commission: Money.nullable().describe('on a sale or a refund: the commission taken (a refund negative)'),
      }),
    ),
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

/** A statement's month, its years bounded by the service's clock at each request. */
const StatementMonth = (clock: Clock) =>
  z
    .string()
    .regex(MONTH, { error: 'YYYY-MM', abort: true })
    .superRefine((month, ctx) => {
      const refusal = monthRefusal(month, clock.now());
      if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
    })
    .describe('YYYY-MM, from 2000-01 to December of next year');

const pair = (b: { pending: number; available: number }) => ({
  pending: eur(b.pending),
  available: eur(b.available),
});

/** A statement as JSON: Money for every amount, gross and commission where a line has them. */
const statementJson = (supplierId: string, statement: StatementOf, checkpoint: SignedCheckpoint) => ({
  supplier_id: supplierId,
  supplier_name: statement.supplierName ?? '',
  month: statement.month,
  from: statement.from,
  to: statement.to,
  currency: 'EUR' as const,
  opening: pair(statement.opening),
  entries: statement.entries.map((e) => ({
    ...entryOut(e),
    pending_after: eur(e.pending_after),
    available_after: eur(e.available_after),
    gross: e.gross === null ? null : eur(e.gross),
    commission: e.commission === null ? null : eur(e.commission),
  })),
  closing: pair(statement.closing),
  checkpoint,
});

const statement: Route = (api, services) =>
  api.get(
    '/balance/statements/:month',
    {
      config: {
        textFormats: {
          'text/csv':
            'the statement as CSV: decimal amounts with their currency, gross and commission per sale, an opening and a closing row',
          'text/html': 'the statement as a printable page',
        },
      },
      schema: {
        summary: 'A monthly statement: opening balance, the entries of the month, closing balance',
        description:
          'Accept: application/json (default), text/csv (decimal amounts like 18.30 with a currency column, gross and commission per sale and refund, an opening and a closing row) or text/html (a printable page, A4 upright or a phone). The month runs from 00:00 UTC on its first day to 00:00 UTC on the next.',
        tags: ['balance'],
        params: z.object({ month: StatementMonth(services.clock) }),
        response: { 200: Statement, ...problems(409) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const { ledger, ledgerKey, clock } = services;
      const signed = await signedStatement(ledger, ledgerKey, supplierId, req.params.month, clock.now());
      if (!signed) throw notBegun(req.params.month);
      if ('broken' in signed) throw chainBroken(signed);
      const { checkpoint } = signed;
      const statement = { ...signed.statement, supplierName: supplierOf(req).supplierName };
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
      return statementJson(supplierId, statement, checkpoint);
    },
  );

const proof: Route = (api, services) =>
  api.get(
    '/balance/proof',
    {
      schema: {
        summary:
          "Your ledger's head, signed now, viewed as of now or any earlier moment: keep it to prove later that history was not rewritten",
        description:
          'Verify `checkpoint.signature` with the key at GET /.well-known/svc-ledger-signing-key. The signed text carries the ledger as it stands when signed (`tree`: size, RFC 9162 root, chain head) and the view as of `as_of` (a prefix of it), so a head for a past moment cannot differ from one kept then without showing it. An `as_of` after now is refused (422). A ledger holding an entry it refused (one not signed by the service where it stands) answers 409 `ledger_chain_broken` naming it (`entry_id`), never a head.',
        tags: ['balance'],
        querystring: z.object({ as_of: AsOf.optional() }),
        response: { 200: Proof, ...problems(409) },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      const now = services.clock.now();
      const asOf = req.query.as_of ? notLater(new Date(req.query.as_of), now) : now;
      const proof = ledgerProof(
        supplierId,
        asOf,
        now,
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

const Leaf = z
  .object({
    text: z
      .string()
      .describe(
        "the entry's signed text, its leaf in the tree: canonical JSON of {format, hash, key_id, prev, seq, supplier_id}",
      ),
    key_id: z.string(),
    signature: z.string().describe('Ed25519 over the UTF-8 bytes of `text`, hex'),
    content: z.string().describe("what the entry's hash covers: hash = sha256(prev + content)"),
  })
  .meta({ id: 'LedgerLeaf' });

const InclusionProof = z
  .object({
    entry_id: z.string().describe("the ledger's entry (a balance entry's id without its account)"),
    leaf_index: z.number().int(),
    tree_size: z.number().int(),
    leaf: Leaf,
    audit_path: z.array(z.string()).describe('RFC 9162 inclusion path, leaf side first, hex'),
    checkpoint: Checkpoint.describe('the head signed now, whose root the path leads to'),
  })
  .meta({ id: 'LedgerInclusionProof' });

const entryProof: Route = (api, services) =>
  api.get(
    '/balance/entries/:entry_id/proof',
    {
      schema: {
        summary: "Proof that one of your entries is in your ledger's Merkle tree, against a head signed now",
        description:
          "RFC 9162 inclusion proof of the entry's signed text (`leaf.text`) in the tree the signed head's `root_hash` is the root of. `verifyInclusion` in the client package checks it with the public key alone: the head's signature, the entry's signature, its content's hash and the path.",
        tags: ['balance'],
        params: z.object({
          entry_id: z.string().min(1).max(200).describe("a balance entry's id, or the ledger entry's"),
        }),
        response: { 200: InclusionProof, ...problems(404, 409) },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      const answer = await inclusionProof(
        services.ledger,
        services.ledgerKey,
        supplierId,
        req.params.entry_id,
        services.clock.now(),
      );
      if (!answer) throw new HttpProblem('not_found', `entry ${req.params.entry_id} not found`);
      if ('broken' in answer) throw chainBroken(answer);
      return answer;
    },
  );

const ConsistencyProof = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    proof: z.array(z.string()).describe('RFC 9162 consistency proof between the trees of `from` and `to` entries, hex'),
    checkpoint: Checkpoint.describe('the head signed now'),
  })
  .meta({ id: 'LedgerConsistencyProof' });

const consistency: Route = (api, services) =>
  api.get(
    '/balance/proof/consistency',
    {
      schema: {
        summary: 'Proof that your ledger of `to` entries begins with the one of `from` entries, unchanged',
        description:
          'RFC 9162 consistency proof between two heads you hold (their `tree_size`): `verifyConsistency` in the client package checks it against both signed heads with the public key alone. `to` defaults to the ledger now; a size past it is refused (422).',
        tags: ['balance'],
        querystring: z.object({
          from: z.coerce.number().int().min(0).describe('the smaller tree size'),
          to: z.coerce.number().int().min(0).optional().describe('the larger tree size (default: the ledger now)'),
        }),
        response: { 200: ConsistencyProof, ...problems(409) },
      },
    },
    async (req) => {
      const { supplierId } = supplierOf(req);
      const answer = await consistencyBetween(
        services.ledger,
        services.ledgerKey,
        supplierId,
        { from: req.query.from, ...(req.query.to !== undefined && { to: req.query.to }) },
        services.clock.now(),
      );
      if ('broken' in answer) throw chainBroken(answer);
      if ('tooLarge' in answer)
        throw new HttpProblem(
          'validation_failed',
          `from must be at most to, and to at most the ledger's ${answer.tooLarge} entries`,
          { errors: [{ field: 'querystring', message: `0 <= from <= to <= ${answer.tooLarge}` }] },
        );
      return answer;
    },
  );

export const registerBalanceRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [balance, statement, proof, consistency, entries, entryProof]);
