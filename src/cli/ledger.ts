import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import cliProgress from 'cli-progress';
import { type Clock, systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { ledgerSigningKey as signingKeyOf } from '../crypto/ledger-signing.js';
import { withStores } from './stores.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import { monthRefusal, statementCsv, statementHtml } from '../projections/ledger-statement.js';
import { entryRow, ledgerCsv, withBalancesAfter } from '../projections/ledger-csv.js';
import { brokenDetail, signedStatement } from '../resources/ledger-proof.js';
import { auditLedger, replayLedger } from './ledger-audit.js';
import { checkpointIn, verifyCheckpoint, verifyLedger } from './ledger-verify.js';
import { cliFlags, cliTimestamp } from './flags.js';
import { ledgerSigningKey } from './secrets.js';

const USAGE = {
  audit: 'ledger audit [--supplier ID] [--as-of TIMESTAMP]',
  export: 'ledger export --supplier ID --format csv|jsonl [--from TIMESTAMP] [--to TIMESTAMP]',
  balance: 'ledger balance --supplier ID [--as-of TIMESTAMP]',
  verify: 'ledger verify [--supplier ID] [--checkpoint FILE|-]',
  statement: 'ledger statement --supplier ID --month YYYY-MM --format csv|html',
};

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
  withStores(config, async ({ store, db }) => {
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
  return withStores(config, async ({ store }) => {
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
  withStores(config, async ({ store }) => {
    const f = flagsOr(args, ['supplier', 'as-of'], USAGE.balance);
    if (!f) return 2;
    const supplierId = f.supplier;
    const asOf = timeFlag(f['as-of']);
    if (!supplierId || asOf === null) {
      console.error(`usage: ${USAGE.balance}`);
      return 2;
    }
    const then = await ledgerAsOf(store, supplierId, asOf);
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
  config: Config,
  store: Parameters<typeof verifyCheckpoint>[0],
  source: string,
  supplierId: string | undefined,
) => {
  const checkpoint = await keptCheckpoint(source);
  if ('error' in checkpoint) {
    console.error(`${checkpoint.error}\nusage: ${USAGE.verify}`);
    return 2;
  }
  const report = await verifyCheckpoint(store, signingKeyOf(await ledgerSigningKey(config)), checkpoint);
  const { claim, refused, mismatch } = report;
  if (refused || !claim) {
    console.log(`REFUSED checkpoint: ${refused}`);
    console.log('FAILED: the checkpoint is not one this service signed; nothing was compared');
    return 1;
  }
  if (supplierId && supplierId !== claim.supplierId) {
    console.error(
      `the checkpoint is supplier ${claim.supplierId}'s, --supplier names ${supplierId}\nusage: ${USAGE.verify}`,
    );
    return 2;
  }
  if (mismatch) {
    const event = mismatch.eventId ? `event ${mismatch.eventId}, ` : '';
    console.log(
      `MISMATCH supplier ${claim.supplierId}: entry ${mismatch.entryId} (${event}revision ${mismatch.revision}) ${mismatch.reason}`,
    );
    console.log(
      `FAILED: the ledger no longer matches the checkpoint of ${claim.entries} entries signed as of ${claim.asOf} (key ${claim.keyId})`,
    );
    return 1;
  }
  console.log(
    `OK: supplier ${claim.supplierId}'s first ${claim.entries} entries match the head ${claim.head} signed as of ${claim.asOf} (key ${claim.keyId}); ${report.entries - claim.entries} entries since, their chain intact`,
  );
  return 0;
};

/**
 * `ledger verify [--supplier ID] [--checkpoint FILE|-]`: recomputes the hash chains; exit 1
 * naming the first break of each. With `--checkpoint`, against a head the supplier kept.
 */
export const ledgerVerify = (config: Config, args: string[]) =>
  withStores(config, async ({ store }) => {
    const f = flagsOr(args, ['supplier', 'checkpoint'], USAGE.verify);
    if (!f) return 2;
    const supplierId = f.supplier;
    if (f.checkpoint !== undefined) return verifyAgainstCheckpoint(config, store, f.checkpoint, supplierId);
    const report = await verifyLedger(store, { supplierId });
    for (const b of report.breaks)
      console.log(
        `BROKEN supplier ${b.supplierId}: entry ${b.entryId} (event ${b.eventId}, revision ${b.revision}) ${b.reason}`,
      );
    if (supplierId && report.heads.has(supplierId))
      console.log(
        `HEAD supplier ${supplierId}: ${report.heads.get(supplierId)!.hash} after ${report.heads.get(supplierId)!.entries} entries`,
      );
    console.log(
      `${report.breaks.length === 0 ? 'OK' : 'FAILED'}: ${report.entries} entries of ${report.suppliers} supplier(s) verified${report.unchained ? ` (${report.unchained} older than the chain, covered by the links after them)` : ''}, ${report.breaks.length} broken chain(s)`,
    );
    return report.breaks.length === 0 ? 0 : 1;
  });

/**
 * `ledger statement --supplier ID --month YYYY-MM --format csv|html`: a monthly statement on
 * stdout. The month's years are bounded as the API bounds them, by `clock`.
 */
export const ledgerStatement = (config: Config, args: string[], clock: Clock = systemClock) =>
  withStores(config, async ({ store }) => {
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
    const signed = await signedStatement(store, signingKeyOf(await ledgerSigningKey(config)), supplierId, month);
    if ('broken' in signed) {
      console.error(`no statement: ${brokenDetail(signed)} (ledger verify names every break)`);
      return 1;
    }
    process.stdout.write(
      format === 'csv' ? statementCsv(signed.statement) : statementHtml(signed.statement, signed.checkpoint),
    );
    return 0;
  });
