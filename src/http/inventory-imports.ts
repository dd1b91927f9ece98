import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { batchOf, loadImport, planImport, startImport } from '../commands/inventory-import.js';
import { addedSoFar, type ImportState, keysDone, refusedLines } from '../domain/inventory-import.js';
import { LINE_REASON_WORDS, MAX_KEYS_PER_IMPORT, type RefusedLine } from '../domain/key-file.js';
import { iso, Timestamp } from '../resources/values.js';
import { operationOf } from './idempotency.js';
import { registerRoutes, type Route } from './routes.js';
import { problems } from './schemas.js';
import { type Services } from './services.js';
import { callerOf, supplierOf } from './supplier.js';

const tags = ['inventory'];

/** 100,000 keys of a few dozen characters, as JSON: the file travels as one string. */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

const Refused = z.object({
  line: z.number().int(),
  reason: z.enum(Object.keys(LINE_REASON_WORDS) as [keyof typeof LINE_REASON_WORDS]),
  words: z.string().describe('the reason in words'),
  shown: z.string().describe('the line masked as a key is: a refused line may be a real key'),
});

const refusedOut = (r: RefusedLine) => ({
  line: r.line,
  reason: r.reason,
  words: r.detail ?? LINE_REASON_WORDS[r.reason],
  shown: r.shown,
});

const Preview = z
  .object({ file_name: z.string(), lines: z.number().int(), keys: z.number().int(), refused: z.array(Refused) })
  .meta({ id: 'InventoryImportPreview', description: 'What a file would add, nothing stored' });

const Import = z
  .object({
    id: z.string(),
    offer_id: z.string(),
    status: z.enum(['running', 'completed']),
    file_name: z.string(),
    batch_id: z.string().describe("the batch of the import's items (GET …/inventory?batch_id=)"),
    lines: z.number().int(),
    keys: z.number().int().describe('keys to add: the lines not refused when the file was read'),
    done: z.number().int().describe('keys recorded so far'),
    added: z.number().int(),
    refused: z.number().int().describe('lines not added; their list: this resource as text/csv'),
    seconds_left: z.number().int().nullable().describe('at the pace so far; null once completed or before a chunk'),
    started_at: Timestamp,
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: 'InventoryImport', description: 'A file of keys being added, ten thousand at a time' });

const importOut = (s: ImportState, batchId: string, now: Date) => {
  const done = keysDone(s);
  const spent = (now.getTime() - new Date(s.at).getTime()) / 1000;
  return {
    id: s.importId,
    offer_id: s.offerId,
    status: s.status,
    file_name: s.fileName,
    batch_id: batchId,
    lines: s.lines,
    keys: s.keys,
    done,
    added: addedSoFar(s),
    refused: refusedLines(s).length,
    seconds_left: s.status === 'completed' || done === 0 ? null : Math.ceil(((s.keys - done) * spent) / done),
    started_at: iso(s.at),
    completed_at: s.completedAt && iso(s.completedAt),
  };
};

const Params = z.object({ offer_id: z.string().min(1).max(100) });

const FileBody = z
  .object({
    file_name: z.string().trim().min(1).max(255).default('keys.txt'),
    content: z.string().min(1).describe("the file's text"),
  })
  .strict();

const READING = `A key per line, or the first column of a CSV or TSV: a header row, quotes, a BOM, CRLF, blank lines and surrounding spaces are read as a spreadsheet writes them. At most ${MAX_KEYS_PER_IMPORT.toLocaleString('en')} keys per file.`;

const preview: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/inventory/imports/preview',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { limitClass: 'bulk' },
      schema: {
        summary: 'What a file of keys would add, nothing stored',
        description: `${READING} Answers how many keys would be added and every line that would not, with its reason. Errors: 404 not_found; 409 stock_mode_mismatch; 413 payload_too_large; 422 validation_failed (more keys than that, no content).`,
        tags,
        params: Params,
        body: FileBody,
        response: { 200: Preview, ...problems(404, 409, 413) },
      },
    },
    async (req) => {
      const { offer_id: offerId } = req.params;
      const plan = await planImport(
        services.commands,
        supplierOf(req).supplierId,
        offerId,
        req.body.file_name,
        req.body.content,
      );
      return {
        file_name: plan.fileName,
        lines: plan.lines,
        keys: plan.keys.length,
        refused: plan.refused.map(refusedOut),
      };
    },
  );

const start: Route = (api, services) =>
  api.post(
    '/offers/:offer_id/inventory/imports',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { idempotent: true, limitClass: 'bulk' },
      schema: {
        summary: 'Import a file of keys (text, CSV or TSV) as a job',
        description: `${READING} Answers 202 with the import, which adds the keys ten thousand at a time: GET it for its progress; \`inventory.import_completed\` when done. The lines refused are those the preview lists. Errors: 404 not_found; 409 stock_mode_mismatch; 413 payload_too_large; 422 validation_failed.`,
        tags,
        params: Params,
        body: FileBody,
        response: { 202: Import, ...problems(404, 409, 413) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const { offer_id: offerId } = req.params;
      const plan = await planImport(services.commands, supplierId, offerId, req.body.file_name, req.body.content);
      const state = await startImport(services.commands, supplierId, offerId, plan, callerOf(req), operationOf(req));
      return reply
        .code(202)
        .header('location', `/api/v1/offers/${offerId}/inventory/imports/${state.importId}`)
        .send(importOut(state, batchOfState(state), services.clock.now()));
    },
  );

const batchOfState = (s: ImportState) => batchOf(s.importId);

/** The refused lines as CSV (RFC 4180, CRLF): line, reason in words, the line masked. */
const refusedCsv = (lines: readonly RefusedLine[]) =>
  [
    'line,reason,shown',
    ...lines.map((r) =>
      [String(r.line), r.detail ?? LINE_REASON_WORDS[r.reason], r.shown]
        .map((v) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v))
        .join(','),
    ),
  ].join('\r\n') + '\r\n';

const read: Route = (api, services) =>
  api.get(
    '/offers/:offer_id/inventory/imports/:import_id',
    {
      config: { textFormats: { 'text/csv': 'the refused lines: line, reason in words, the line masked' } },
      schema: {
        summary: "An import's progress and result",
        description:
          'Accept: application/json (default), or text/csv for the lines not added with their reasons. Errors: 404 not_found.',
        tags,
        params: Params.extend({ import_id: z.string().min(1).max(100) }),
        response: { 200: Import, ...problems(404) },
      },
    },
    async (req, reply) => {
      const { supplierId } = supplierOf(req);
      const state = await loadImport(services.commands, supplierId, req.params.offer_id, req.params.import_id);
      if (/text\/csv/.test(req.headers.accept ?? ''))
        return (reply as unknown as FastifyReply)
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="refused-${state.importId}.csv"`)
          .send(refusedCsv(refusedLines(state)));
      return importOut(state, batchOfState(state), services.clock.now());
    },
  );

export const registerInventoryImportRoutes = (app: FastifyInstance, services: Services) =>
  registerRoutes(app, services, [preview, start, read]);
