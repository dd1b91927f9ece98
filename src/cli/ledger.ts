import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import cliProgress from 'cli-progress';
import { type Clock, systemClock } from '../clock.js';
import type { Config } from '../config.js';
import type { SignedCheckpoint } from '../crypto/ledger-signing.js';
import type { LedgerBook } from '../projections/ledger-book.js';
import { withStores } from './stores.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import { monthRefusal, statementCsv, statementHtml } from '../projections/ledger-statement.js';
import { entryRow, ledgerCsv, withBalancesAfter } from '../projections/ledger-csv.js';
import { brokenDetail, signedStatement } from '../resources/ledger-proof.js';
import { auditLedger, replayLedger } from './ledger-audit.js';
import { checkpointIn, type RefusedEntry, verifyCheckpoint, verifyLedger } from './ledger-verify.js';
import { MissingLedgerKey, readingKeys, signingKeys } from './ledger-keys.js';
import { cliFlags, cliTimestamp } from './flags.js';

const USAGE = {
  audit: 'ledger audit [--supplier ID] [--as-of TIMESTAMP]',
  export: 'ledger export --supplier ID --format csv|jsonl [--from TIMESTAMP] [--to TIMESTAMP]',
  balance: 'ledger balance --supplier ID [--as-of TIMESTAMP]',
  verify: 'ledger verify [--supplier ID] [--checkpoint FILE|-] [--public-key FILE|URL]',
  statement: 'ledger statement --supplier ID --month YYYY-MM --format csv|html',
};

/** Runs `work` with the ledger's keys, or says which setting names them and exits 2. */
const withKeys = async <K>(keys: () => Promise<K>, work: (keys: K) => Promise<number>): Promise<number> => {
  let found: K;
  try {
    found = await keys();
  } catch (error) {
    if (!(error instanceof MissingLedgerKey)) throw error;
    console.error(error.message);
    return 2;
  }
  return work(found);
};

/** The stores, reading the ledger with the public keys the settings name (`readingKeys`). */
const withLedger = (config: Config, work: Parameters<typeof withStores<number>>[1]) =>
  withKeys(
    () => readingKeys(config),
    (keys) => withStores(config, work, keys),
  );

/** The flags of a command, or its usage on stderr and exit code 2. */
const flagsOr = (args: string[], names: readonly string[], usage: string) => {
  const parsed = cliFlags(args, names);
  if ('values' in parsed) return parsed.values;
  console.error(`${parsed.error}\nusage: ${usage}`);
  return undefined;
};

/** A timestamp flag: undefined when absent, null when it is not an ISO 8601 timestamp. */
const timeFlag = (text: string | undefined): Date | undefined | null =>
  text === undefined ? undefined : (cliTimestamp(text) ?? null);

const progressBar = (label: string) => {
  const bar = new cliProgress.SingleBar(
    { format: `${label} {bar} {percentage}% | {rate} events/s`, hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  bar.start(1, 0, { rate: 0 });
  return {
    update: (done: number, total: number) => {
      bar.setTotal(Math.max(total, 1));
      bar.update(done, { rate: Math.round(done / Math.max((Date.now() - started) / 1000, 0.001)) });
    },
    stop: () => bar.stop(),
  };
};

/** `ledger audit [--supplier ID] [--as-of TIMESTAMP]`: exit 1 on any difference. */
export const ledgerAudit = (config: Config, args: string[]) =>
  withLedger(config, async ({ store, db }) => {
    const f = flagsOr(args, ['supplier', 'as-of'], USAGE.audit);
    if (!f) return 2;
    const supplierId = f.supplier;
    const asOf = timeFlag(f['as-of']);
    if (asOf === null) {
      console.error(`--as-of ${f['as-of']} is not an ISO 8601 timestamp\nusage: ${USAGE.audit}`);
      return 2;
    }
    const bar = process.stderr.isTTY ? progressBar('replaying') : undefined;
    const started = Date.now();
    const report = await auditLedger(store, db.kysely, { supplierId, asOf, onProgress: bar?.update });
    bar?.stop();
    const seconds = (Date.now() - started) / 1000;
    for (const d of report.differences) console.log(`DIFFERENCE ${d}`);
    console.log(
      `${report.differences.length === 0 ? 'OK' : 'FAILED'}: ${report.ledgerEvents} ledger events of ${report.eventsRead} read, ${report.suppliers} supplier(s), ${report.entries} entries, ${report.differences.length} difference(s) in ${seconds.toFixed(1)} s`,
    );
    return report.differences.length === 0 ? 0 : 1;
  });

/**
 * `ledger export --supplier ID --format csv|jsonl [--from T] [--to T]`: the supplier's
 * entries, replayed from the ledger; `--from` inclusive, `--to` exclusive (as the API's filters).
 */
export const ledgerExport = async (config: Config, args: string[]): Promise<number> => {
  // the flags are judged before any store is opened: a refused command reads nothing
  const f = flagsOr(args, ['supplier', 'format', 'from', 'to'], USAGE.export);
  if (!f) return 2;
  const supplierId = f.supplier;
  const format = f.format;
  const from = timeFlag(f.from);
  const to = timeFlag(f.to);
  // --format is required: an export's shape is never guessed; a wrong value is named
  const wrong =
    format !== undefined && format !== 'csv' && format !== 'jsonl' ? `--format ${format} is not csv or jsonl\n` : '';
  if (!supplierId || !format || wrong || from === null || to === null) {
    console.error(`${wrong}usage: ${USAGE.export}`);
    return 2;
  }
  return withLedger(config, async ({ store }) => {
    const { bySupplier } = await replayLedger(store, { supplierId });
    // the balances after each entry count every entry before it, the window's or not
    const entries = withBalancesAfter([...(bySupplier.get(supplierId)?.entries.values() ?? [])]).filter(
      (e) => (!from || new Date(e.created_at) >= from) && (!to || new Date(e.created_at) < to),
    );
    const rows = entries.map((e) => ({
      id: e.id,
      type: e.type,
      account: e.account,
      amount: e.amount,
      currency: 'EUR',
      order_id: e.order_id,
      order_item_id: e.order_item_id,
      payout_id: e.payout_id,
      created_at: e.created_at,
      available_at: e.available_at,
    }));
    if (format === 'jsonl') for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
    else process.stdout.write(ledgerCsv(entries.map(entryRow)));
    return 0;
  });
};

/** `ledger balance --supplier ID [--as-of T]`: the balance as it stood then, replayed from the ledger. */
export const ledgerBalance = (config: Config, args: string[]) =>
  withLedger(config, async ({ ledger }) => {
    const f = flagsOr(args, ['supplier', 'as-of'], USAGE.balance);
    if (!f) return 2;
    const supplierId = f.supplier;
    const asOf = timeFlag(f['as-of']);
    if (!supplierId || asOf === null) {
      console.error(`usage: ${USAGE.balance}`);
      return 2;
    }
    const then = await ledgerAsOf(ledger, supplierId, asOf);
    const eur = (amount: number) => ({ amount, currency: 'EUR' });
    console.log(
      JSON.stringify({
        supplier_id: supplierId,
        as_of: asOf?.toISOString() ?? null,
        currency: 'EUR',
        available: eur(then.available),
        pending: eur(then.pending),
        updated_at: then.updatedAt,
        entries: then.entries.length,
        chain_head: then.head.hash,
      }),
    );
    return 0;
  });

/** The checkpoint a supplier kept, from a file or (`-`) standard input. */
const keptCheckpoint = async (source: string) => {
  try {
    return checkpointIn(source === '-' ? await text(process.stdin) : await readFile(source, 'utf8'));
  } catch (error) {
    return { error: `cannot read ${source}: ${error instanceof Error ? error.message : String(error)}` };
  }
};

/**
 * `ledger verify --checkpoint FILE|-`: the supplier's ledger against a signed checkpoint it
 * kept; exit 1 naming the first entry that no longer matches, or when the signature fails.
 */
const verifyAgainstCheckpoint = async (
  book: LedgerBook,
  checkpoint: SignedCheckpoint,
  supplierId: string | undefined,
) => {
  const report = await verifyCheckpoint(book, checkpoint);
  const { claim, refused, mismatch } = report;
  if (refused || !claim) {
    console.log(`REFUSED checkpoint: ${refused}`);
    console.log('FAILED: the checkpoint is not one the ledger signed; nothing was compared');
    return 1;
  }
  if (supplierId && supplierId !== claim.supplierId) {
    console.error(
      `the checkpoint is supplier ${claim.supplierId}'s, --supplier names ${supplierId}\nusage: ${USAGE.verify}`,
    );
    return 2;
  }
  for (const r of report.refusedAfter) console.log(refusedLine(r));
  const signed = claim.signedAt ? `signed at ${claim.signedAt}` : `signed as of ${claim.asOf}`;
  if (mismatch) {
    const event = mismatch.eventId ? `event ${mismatch.eventId}, ` : '';
    console.log(
      `MISMATCH supplier ${claim.supplierId}: entry ${mismatch.entryId} (${event}revision ${mismatch.revision}) ${mismatch.reason}`,
    );
    console.log(
      `FAILED: the ledger no longer matches the checkpoint of ${claim.entries} entries ${signed} (key ${claim.keyId})`,
    );
    return 1;
  }
  for (const b of report.backdated)
    console.log(
      `BACKDATED supplier ${b.supplierId}: entry ${b.entryId} (event ${b.eventId}, revision ${b.revision}) ${b.reason}`,
    );
  const failed = report.refusedAfter.length + report.backdated.length;
  const view = claim.view ? `, and its view as of ${claim.asOf} the first ${claim.view.entries}` : '';
  console.log(
    `${failed === 0 ? 'OK' : 'FAILED'}: supplier ${claim.supplierId}'s first ${claim.entries} entries match the head ${claim.head} ${signed} (key ${claim.keyId})${view}; ${report.entries - claim.entries} entries since, ${report.refusedAfter.length} refused${claim.view ? `, ${report.backdated.length} backdated` : ''}`,
  );
  return failed === 0 ? 0 : 1;
};

const refusedLine = (r: RefusedEntry) =>
  `REFUSED supplier ${r.supplierId}: entry ${r.entryId} (event ${r.eventId}, revision ${r.revision}) ${r.reason}`;

/**
 * `ledger verify [--supplier ID] [--checkpoint FILE|-] [--public-key FILE|URL]`: checks every
 * stored entry against the ledger's public keys; exit 1 naming each one refused. With
 * `--checkpoint`, against a head the supplier kept. Needs no secret, and makes no key.
 */
export const ledgerVerify = async (config: Config, args: string[]): Promise<number> => {
  const f = flagsOr(args, ['supplier', 'checkpoint', 'public-key'], USAGE.verify);
  if (!f) return 2;
  const supplierId = f.supplier;
  const checkpoint = f.checkpoint === undefined ? undefined : await keptCheckpoint(f.checkpoint);
  if (checkpoint && 'error' in checkpoint) {
    console.error(`${checkpoint.error}\nusage: ${USAGE.verify}`);
    return 2;
  }
  return withKeys(
    () => readingKeys(config, f['public-key']),
    (keys) =>
      withStores(
        config,
        async ({ store, ledger }) => {
          if (checkpoint) return verifyAgainstCheckpoint(ledger, checkpoint, supplierId);
          const report = await verifyLedger(store, ledger, { supplierId });
          for (const r of report.refused) console.log(refusedLine(r));
          const head = supplierId ? report.heads.get(supplierId) : undefined;
          if (head) console.log(`HEAD supplier ${supplierId}: ${head.hash} after ${head.entries} entries`);
          console.log(
            `${report.refused.length === 0 ? 'OK' : 'FAILED'}: ${report.entries} entries of ${report.suppliers} supplier(s) verified${report.adopted ? ` (${report.adopted} of them written before entries were signed, signed at the upgrade)` : ''}, ${report.refused.length} refused`,
          );
          return report.refused.length === 0 ? 0 : 1;
        },
        keys,
      ),
  );
};

/**
 * `ledger statement --supplier ID --month YYYY-MM --format csv|html`: a monthly statement on
 * stdout. The month's years are bounded as the API bounds them, by `clock`.
 */
export const ledgerStatement = async (config: Config, args: string[], clock: Clock = systemClock): Promise<number> => {
  const f = flagsOr(args, ['supplier', 'month', 'format'], USAGE.statement);
  if (!f) return 2;
  const supplierId = f.supplier;
  const month = f.month ?? '';
  const format = f.format ?? 'csv';
  const refusal = monthRefusal(month, clock.now());
  if (refusal && f.month !== undefined) console.error(`--month ${month} refused: ${refusal}`);
  if (!supplierId || refusal || (format !== 'csv' && format !== 'html')) {
    console.error(`usage: ${USAGE.statement}`);
    return 2;
  }
  return withKeys(
    () => signingKeys(config),
    (keys) =>
      withStores(
        config,
        async ({ ledger, db }) => {
          const signed = await signedStatement(ledger, keys.current, supplierId, month, clock.now());
          if (!signed) {
            console.error(`no statement: ${month} has not begun\nusage: ${USAGE.statement}`);
            return 2;
          }
          if ('broken' in signed) {
            console.error(`no statement: ${brokenDetail(signed)} (ledger verify names every break)`);
            return 1;
          }
          // the supplier's name on the printed page, as the API's statement has it
          const named = await db.kysely
            .selectFrom('suppliers')
            .select('name')
            .where('id', '=', supplierId)
            .executeTakeFirst();
          const statement = { ...signed.statement, ...(named && { supplierName: named.name }) };
          process.stdout.write(
            format === 'csv' ? statementCsv(statement) : statementHtml(statement, signed.checkpoint),
          );
          return 0;
        },
        keys,
      ),
  );
};
