import type { SignedCheckpoint } from '../crypto/ledger-signing.js';
import type { LedgerEntry } from './ledger.js';
import { balanceRow, entryRow, type EntryWithBalances, ledgerCsv } from './ledger-csv.js';

/**
 * A supplier's monthly statement for accountants: the balances at the month's start
 * (00:00 UTC on its first day), every entry posted in the month with the balances after it,
 * and the balances at its end. Built from entries replayed from the ledger.
 */
export interface Statement {
  supplierId: string;
  month: string;
  from: string;
  to: string;
  opening: { pending: number; available: number };
  entries: EntryWithBalances[];
  closing: { pending: number; available: number };
}

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

export const monthlyStatement = (supplierId: string, month: string, all: LedgerEntry[]): Statement => {
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
    else entries.push({ ...e, pending_after: running.pending, available_after: running.available });
  }
  // entries of the month posted out of order with an earlier one (same stream, racing clocks)
  // are still within it: closing is opening plus the month's entries
  const closing = {
    pending: opening.pending + entries.filter((e) => e.account === 'pending').reduce((s, e) => s + e.amount, 0),
    available: opening.available + entries.filter((e) => e.account === 'available').reduce((s, e) => s + e.amount, 0),
  };
  return { supplierId, month, from: from.toISOString(), to: to.toISOString(), opening, entries, closing };
};

/** The ledger's CSV (ledger-csv.ts): amounts in minor units, one opening and one closing row. */
export const statementCsv = (s: Statement): string =>
  ledgerCsv([
    balanceRow('opening_balance', s.from, s.opening),
    ...s.entries.map(entryRow),
    balanceRow('closing_balance', s.to, s.closing),
  ]);

/** 183000 -> "1830.00", -5 -> "-0.05": minor units shown as euros. */
export const euros = (minor: number) => {
  const abs = Math.abs(minor);
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

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

/** A self-contained page (no script, no external asset) that prints on A4 as it shows. */
export const statementHtml = (s: Statement, checkpoint?: SignedCheckpoint): string => {
  const reference = (e: Statement['entries'][number]) =>
    e.payout_id ? `payout ${e.payout_id}` : `order ${e.order_id ?? ''} / item ${e.order_item_id ?? ''}`;
  const row = (e: Statement['entries'][number]) =>
    `<tr><td>${esc(e.created_at)}</td><td>${esc(e.id)}</td><td>${esc(e.type)}</td><td>${esc(e.account)}</td><td class="n">${euros(e.amount)}</td><td>${esc(reference(e))}</td><td class="n">${euros(e.pending_after)}</td><td class="n">${euros(e.available_after)}</td></tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Statement ${esc(s.month)} — supplier ${esc(s.supplierId)}</title>
<style>
  body { font: 11pt/1.4 system-ui, sans-serif; margin: 2em; color: #111; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tr.total td { font-weight: bold; border-top: 2px solid #111; }
  code.sig { font-size: 8pt; word-break: break-all; }
  @media print { body { margin: 0; } @page { size: A4 landscape; margin: 15mm; } tr { page-break-inside: avoid; } }
</style>
</head>
<body>
<h1>Statement ${esc(s.month)}</h1>
<p>Supplier <strong>${esc(s.supplierId)}</strong> · period ${esc(s.from)} to ${esc(s.to)} (exclusive) · amounts in EUR</p>
<table>
<thead><tr><th>Date</th><th>Entry</th><th>Type</th><th>Account</th><th class="n">Amount</th><th>Reference</th><th class="n">Pending after</th><th class="n">Available after</th></tr></thead>
<tbody>
<tr class="total"><td>${esc(s.from)}</td><td colspan="5">Opening balance</td><td class="n">${euros(s.opening.pending)}</td><td class="n">${euros(s.opening.available)}</td></tr>
${s.entries.map(row).join('\n')}
<tr class="total"><td>${esc(s.to)}</td><td colspan="5">Closing balance</td><td class="n">${euros(s.closing.pending)}</td><td class="n">${euros(s.closing.available)}</td></tr>
</tbody>
</table>
<p>${s.entries.length} entr${s.entries.length === 1 ? 'y' : 'ies'}.</p>
${checkpoint ? checkpointHtml(checkpoint) : ''}</body>
</html>
`;
};
