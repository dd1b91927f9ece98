import type { SignedCheckpoint } from '../crypto/ledger-signing.js';
import type { LedgerEntry } from './ledger.js';
import { decimal } from './csv.js';
import { balanceRow, entryRow, type EntryWithBalances, ledgerCsv } from './ledger-csv.js';

/**
 * A supplier's monthly statement for accountants: the balances at the month's start
 * (00:00 UTC on its first day), every entry posted in the month with the balances after it,
 * and the balances at its end. Built from entries replayed from the ledger.
 */
export interface Statement {
  supplierId: string;
  /** The supplier's name as registered, when the caller knows it (every statement it serves does). */
  supplierName?: string;
  month: string;
  from: string;
  to: string;
  opening: { pending: number; available: number };
  entries: StatementEntry[];
  closing: { pending: number; available: number };
}

/**
 * A statement's line: the entry with the balances after it and, on a sale or a refund, the
 * gross price and the commission its net (`amount`) came from (a refund's negative).
 */
export type StatementEntry = EntryWithBalances & { gross: number | null; commission: number | null };

/** What a sale's or a refund's event says it was made of, by the event's entry id. */
export type SaleFigures = ReadonlyMap<string, { gross: number; commission: number }>;

/** The gross and commission of every sale and refund among a ledger's events, by their entry id. */
export const saleFigures = (events: readonly { type: string; data: unknown }[]): SaleFigures => {
  const figures = new Map<string, { gross: number; commission: number }>();
  for (const e of events) {
    const d = e.data as { entryId?: string; gross?: number; commission?: number };
    if (!d.entryId || typeof d.gross !== 'number' || typeof d.commission !== 'number') continue;
    // a refund takes back both: its figures are negative, as its net is
    const sign = e.type === 'RefundDebited' ? -1 : e.type === 'SaleCredited' ? 1 : 0;
    if (sign) figures.set(d.entryId, { gross: sign * d.gross, commission: sign * d.commission });
  }
  return figures;
};

/** An entry's id is its event's entry id and the account (`<entryId>:pending`). */
const figuresOf = (figures: SaleFigures, entryId: string) =>
  figures.get(entryId.slice(0, entryId.lastIndexOf(':'))) ?? { gross: null, commission: null };

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The first year a statement may be asked for: the ledger holds nothing older. */
export const FIRST_STATEMENT_YEAR = 2000;

/**
 * Why `month` is no month a statement may be asked for by `now`, or undefined when it is:
 * YYYY-MM from 2000-01 to December of next year. Years further out name no ledger, and a
 * mistyped one (`0026-01`) should be refused, not answered with an empty statement.
 */
export const monthRefusal = (month: string, now: Date): string | undefined => {
  const m = MONTH.exec(month);
  if (!m) return 'a month is YYYY-MM';
  const year = Number(m[1]);
  const last = now.getUTCFullYear() + 1;
  if (year < FIRST_STATEMENT_YEAR || year > last) return `a month from ${FIRST_STATEMENT_YEAR}-01 to ${last}-12`;
  return undefined;
};

/** 00:00 UTC on the first day of `index` (0-based, may run past December) of `year`, for any year. */
const monthStart = (year: number, index: number) => {
  const at = new Date(0);
  // Date.UTC would read the years 0 to 99 as 1900 to 1999; setUTCFullYear takes them as written
  at.setUTCFullYear(year, index, 1);
  return at;
};

export const monthBounds = (month: string) => {
  const m = MONTH.exec(month);
  if (!m) return undefined;
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { from: monthStart(year, index), to: monthStart(year, index + 1) };
};

export const monthlyStatement = (
  supplierId: string,
  month: string,
  all: LedgerEntry[],
  figures: SaleFigures = new Map(),
): Statement => {
  const bounds = monthBounds(month);
  if (!bounds) throw new Error(`not a month: ${month}`);
  const { from, to } = bounds;
  const opening = { pending: 0, available: 0 };
  const running = { pending: 0, available: 0 };
  const entries: Statement['entries'] = [];
  for (const e of [...all].sort((a, b) => a.seq - b.seq)) {
    const at = new Date(e.created_at).getTime();
    if (at >= to.getTime()) continue;
    running[e.account] += e.amount;
    if (at < from.getTime()) opening[e.account] += e.amount;
    else
      entries.push({
        ...e,
        pending_after: running.pending,
        available_after: running.available,
        ...figuresOf(figures, e.id),
      });
  }
  // entries of the month posted out of order with an earlier one (same stream, racing clocks)
  // are still within it: closing is opening plus the month's entries
  const closing = {
    pending: opening.pending + entries.filter((e) => e.account === 'pending').reduce((s, e) => s + e.amount, 0),
    available: opening.available + entries.filter((e) => e.account === 'available').reduce((s, e) => s + e.amount, 0),
  };
  return { supplierId, month, from: from.toISOString(), to: to.toISOString(), opening, entries, closing };
};

/** The ledger's CSV (ledger-csv.ts): decimal amounts, gross and commission per sale, one opening and one closing row. */
export const statementCsv = (s: Statement): string =>
  ledgerCsv([
    balanceRow('opening_balance', s.from, s.opening),
    ...s.entries.map((e) => ({ ...entryRow(e), gross: e.gross, commission: e.commission })),
    balanceRow('closing_balance', s.to, s.closing),
  ]);

/** 183000 -> "1830.00", -5 -> "-0.05": minor units shown as euros. */
export const euros = decimal;

const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The statement's signed checkpoint as a printed page shows it: the exact signed text and
 * the signature, to be checked with the key at /.well-known/svc-ledger-signing-key.
 */
const checkpointHtml = (c: SignedCheckpoint) => `<h2>Ledger checkpoint</h2>
<p>The head of your ledger's hash chain over every entry up to this statement's end, signed by the service (${esc(c.algorithm)}, key ${esc(c.key_id)}). Keep it: it proves later that the history it covers was not rewritten (<code>ledger verify --checkpoint</code>, or any Ed25519 library with the public key published at <code>/.well-known/svc-ledger-signing-key</code>).</p>
<p>Signed text:<br><code class="sig">${esc(c.signed)}</code></p>
<p>Signature:<br><code class="sig">${esc(c.signature)}</code></p>
`;

/** A moment as a statement prints it: the day and the minute, UTC. */
const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16);

/**
 * A self-contained page (no script, no external asset) that fits an A4 page upright and a
 * 390 px phone: eight narrow columns whose long ids are set small beneath the reference,
 * and below 600 px each line stacked as label and value, as the console's tables are.
 */
export const statementHtml = (s: Statement, checkpoint?: SignedCheckpoint): string => {
  const reference = (e: StatementEntry) =>
    e.payout_id ? `payout ${e.payout_id}` : `order ${e.order_id ?? ''} · item ${e.order_item_id ?? ''}`;
  const money = (label: string, v: number | null) =>
    `<td class="n" data-label="${label}">${v === null ? '' : euros(v)}</td>`;
  const row = (e: StatementEntry) =>
    `<tr><td data-label="Date">${esc(minute(e.created_at))}</td><td data-label="Line">${esc(e.type.replace('_', ' '))} · ${esc(e.account)}<br><small class="id">${esc(reference(e))}<br>entry ${esc(e.id)}</small></td>${money('Gross', e.gross)}${money('Commission', e.commission)}${money('Net', e.amount)}${money('Pending after', e.pending_after)}${money('Available after', e.available_after)}</tr>`;
  const balances = (label: string, at: string, b: { pending: number; available: number }) =>
    `<tr class="total"><td data-label="Date">${esc(minute(at))}</td><td data-label="Line" colspan="4">${label}</td>${money('Pending', b.pending)}${money('Available', b.available)}</tr>`;
  const who = s.supplierName
    ? `${esc(s.supplierName)}</strong> (${esc(s.supplierId)})`
    : `${esc(s.supplierId)}</strong>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Statement ${esc(s.month)} — ${s.supplierName ? esc(s.supplierName) : `supplier ${esc(s.supplierId)}`}</title>
<style>
  body { font: 10pt/1.4 system-ui, sans-serif; margin: 1.5em; color: #111; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #ccc; padding: 0.25em 0.35em; text-align: left; vertical-align: top; }
  th { font-size: 8.5pt; }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  small.id { font-size: 7.5pt; color: #444; overflow-wrap: anywhere; }
  tr.total td { font-weight: bold; border-top: 2px solid #111; }
  code.sig { font-size: 7.5pt; word-break: break-all; }
  @media print { body { margin: 0; font-size: 8.5pt; } @page { size: A4 portrait; margin: 12mm; } tr { page-break-inside: avoid; } }
  @media (max-width: 600px) {
    body { margin: 0.75em; }
    thead { display: none; }
    table, tbody, tr, td { display: block; width: 100%; }
    tr { border-bottom: 2px solid #999; padding: 0.3em 0; }
    td { border: 0; padding: 0.1em 0; display: flex; justify-content: space-between; gap: 1em; text-align: right; }
    td.n { text-align: right; }
    td::before { content: attr(data-label); font-weight: 600; text-align: left; }
    td[data-label="Line"] { display: block; text-align: left; }
    td[data-label="Line"]::before { display: block; }
    td:empty, td.n:empty { display: none; }
  }
</style>
</head>
<body>
<h1>Statement ${esc(s.month)}</h1>
<p>Supplier <strong>${who} · period ${esc(minute(s.from))} to ${esc(minute(s.to))} UTC (exclusive) · amounts in EUR: gross price, commission, and the net that moved</p>
<table>
<thead><tr><th>Date</th><th>Line</th><th class="n">Gross</th><th class="n">Commission</th><th class="n">Net</th><th class="n">Pending after</th><th class="n">Available after</th></tr></thead>
<tbody>
${balances('Opening balance', s.from, s.opening)}
${s.entries.map(row).join('\n')}
${balances('Closing balance', s.to, s.closing)}
</tbody>
</table>
<p>${s.entries.length} entr${s.entries.length === 1 ? 'y' : 'ies'}.</p>
${checkpoint ? checkpointHtml(checkpoint) : ''}</body>
</html>
`;
};
