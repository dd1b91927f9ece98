/**
 * The one CSV writer of the service's exports (the ledger's, an offer's routing): a header
 * of `columns`, a row per record in their order, RFC 4180 (lines end in CRLF, a cell holding
 * a quote, comma or line break is quoted; null and absent cells are empty).
 */
const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const csvOf = <C extends string>(columns: readonly C[], rows: readonly Partial<Record<C, unknown>>[]): string =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
