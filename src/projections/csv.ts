/**
 * The one CSV writer of the service's exports (the ledger's, an offer's routing): a header
 * of `columns`, a row per record in their order, RFC 4180 (lines end in CRLF, a cell holding
 * a quote, comma or line break is quoted; null and absent cells are empty).
 */
/** 183000 -> "1830.00", -5 -> "-0.05": minor units as a decimal of the currency (EUR: two places), as the pages show money. */
export const decimal = (minor: number) => {
  const abs = Math.abs(minor);
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const csvOf = <C extends string>(columns: readonly C[], rows: readonly Partial<Record<C, unknown>>[]): string =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
