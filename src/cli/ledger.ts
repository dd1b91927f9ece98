import cliProgress from 'cli-progress';
import type { Config } from '../config.js';
import { auditLedger, replayLedger } from './ledger-audit.js';
import { withStores } from './stores.js';

const flag = (args: string[], name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

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
    const supplierId = flag(args, 'supplier');
    const asOfText = flag(args, 'as-of');
    const asOf = asOfText ? new Date(asOfText) : undefined;
    if (asOf && Number.isNaN(asOf.getTime())) {
      console.error(`--as-of ${asOfText} is not a timestamp`);
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

const CSV_COLUMNS = ['id', 'type', 'account', 'amount', 'currency', 'order_id', 'order_item_id', 'created_at', 'available_at'] as const;
const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** `ledger export --supplier ID --format csv|jsonl`: the supplier's entries, replayed from the ledger. */
export const ledgerExport = (config: Config, args: string[]) =>
  withStores(config, async ({ store }) => {
    const supplierId = flag(args, 'supplier');
    const format = flag(args, 'format') ?? 'csv';
    if (!supplierId || (format !== 'csv' && format !== 'jsonl')) {
      console.error('usage: ledger export --supplier ID --format csv|jsonl');
      return 2;
    }
    const { bySupplier } = await replayLedger(store, { supplierId });
    const entries = [...(bySupplier.get(supplierId)?.entries.values() ?? [])].sort((a, b) => a.seq - b.seq);
    const rows = entries.map((e) => ({ id: e.id, type: e.type, account: e.account, amount: e.amount, currency: 'EUR', order_id: e.order_id, order_item_id: e.order_item_id, created_at: e.created_at, available_at: e.available_at }));
    if (format === 'jsonl') for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      process.stdout.write(`${CSV_COLUMNS.join(',')}\n`);
      for (const r of rows) process.stdout.write(`${CSV_COLUMNS.map((c) => csvCell(r[c])).join(',')}\n`);
    }
    return 0;
  });
