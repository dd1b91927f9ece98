import { parse } from 'csv-parse/sync';
import { maskOf, TEXT_MAX_CHARS } from './inventory-items.js';

/**
 * A file of keys as people make them: plain text (a key per line), CSV or TSV (the key in
 * the first column), read with a CSV parser (csv-parse): a BOM, quotes, CRLF, blank lines
 * and surrounding spaces are handled as a spreadsheet writes them. Pure: the file's text in,
 * every line that will be added and every one that will not, with its reason.
 */

/** Why a line is not added, as the preview says it. */
export type LineReason =
  | 'empty'
  | 'duplicate_in_file'
  | 'already_in_stock'
  | 'too_long'
  | 'looks_like_header'
  | 'not_text'
  | 'unreadable'
  | 'format_mismatch';

export const LINE_REASON_WORDS: Record<LineReason, string> = {
  empty: 'empty',
  duplicate_in_file: 'duplicate in the file',
  already_in_stock: 'already in stock',
  too_long: `too long (more than ${TEXT_MAX_CHARS.toLocaleString('en')} characters)`,
  looks_like_header: 'looks like a header',
  not_text: 'not text',
  unreadable: 'unreadable (a quote that is not closed)',
  format_mismatch: "does not match the product's key format",
};

/** A line of the file that is not added: its number (from 1), reason, and what is shown of it. */
export interface RefusedLine {
  line: number;
  reason: LineReason;
  /** The line masked as a key is (`maskOf`): a refused line may be a real key. */
  shown: string;
  /** For a format mismatch: the format in words. */
  detail?: string;
}

export interface KeyLine {
  line: number;
  value: string;
}

export interface ReadKeyFile {
  /** Lines read, blank ones included. */
  lines: number;
  keys: KeyLine[];
  refused: RefusedLine[];
}

/** Keys per import: a supplier's file of a day's stock, without splitting it. */
export const MAX_KEYS_PER_IMPORT = 100_000;

/** A first line naming its column rather than holding a key. */
const HEADER =
  /^(?:keys?|codes?|serials?|values?|licen[cs]es?|(?:licen[cs]e|product|cd|game|activation|redeem|gift[ _-]?card)[ _-]?(?:keys?|codes?))$/i;

// eslint-disable-next-line no-control-regex -- control characters are what no key holds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/u;

/** Whether bytes are text a person wrote: UTF-8 without NUL or other control characters. */
export const isText = (bytes: Uint8Array): boolean => {
  if (bytes.includes(0)) return false;
  try {
    return !CONTROL.test(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
};

/**
 * Reads a file's text: each record's first field is a key, judged in order. `format` names
 * why a key does not fit the product's format (`keyFormatCheck`).
 */
export const readKeyFile = (text: string, format: (value: string) => string | undefined): ReadKeyFile => {
  const refused: RefusedLine[] = [];
  const keys: KeyLine[] = [];
  const seen = new Set<string>();
  let lines = 0;
  // only the first line that is not blank may be a header
  let first = true;
  for (const { value, line } of keyRecords(text, refused)) {
    lines = Math.max(lines, line);
    const refuse = (reason: LineReason, detail?: string) =>
      refused.push({
        line,
        reason,
        shown: value === '' ? '' : maskOf(value).mask,
        ...(detail && { detail }),
      });
    const header = first && value !== '';
    if (value !== '') first = false;
    if (value === '') refuse('empty');
    else if (CONTROL.test(value)) refuse('not_text');
    else if ([...value].length > TEXT_MAX_CHARS) refuse('too_long');
    else if (header && HEADER.test(value)) refuse('looks_like_header');
    else if (seen.has(value)) refuse('duplicate_in_file');
    else {
      const misfit = format(value);
      if (misfit) refuse('format_mismatch', misfit);
      else {
        seen.add(value);
        keys.push({ line, value });
      }
    }
  }
  refused.sort((a, b) => a.line - b.line);
  return { lines: refused.reduce((most, r) => Math.max(most, r.line), lines), keys, refused };
};

/** A record's first field, and the line it ends on. */
interface KeyRecord {
  value: string;
  line: number;
}

/**
 * Printable ASCII lines with none of a CSV's quote or delimiters (`"`, `,`, `;`, tab), ended
 * by LF or by CRLF throughout: a file of one key per line, as most are. The CSV parser reads
 * such a file as its lines with the spaces around them trimmed, which a split gives at a
 * fifth of the parser's cost (a file of 100,000 keys: 0.4 s of a core less).
 */
const PLAIN = /^[\x20-\x21\x23-\x2b\x2d-\x3a\x3c-\x7e\n]*$/;

/** The file's records: a plain file split (see `PLAIN`), any other read by csv-parse. */
export const keyRecords = (text: string, refused: RefusedLine[]): KeyRecord[] => {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lf = body.includes('\r\n') ? body.replaceAll('\r\n', '\n') : body;
  return PLAIN.test(lf) ? plainRecords(lf) : csvRecords(text, refused);
};

const plainRecords = (text: string): KeyRecord[] => {
  if (text === '') return [];
  const lines = text.split('\n');
  // the newline ending the last line starts no line of its own
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l, i) => ({ value: l.trim(), line: i + 1 }));
};

export const csvRecords = (text: string, refused: RefusedLine[]): KeyRecord[] => {
  // a quote never closed is reported past the last line: it is the last line's
  let last = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) last++;
  if (!text.endsWith('\n')) last++;
  const records = parse(text, {
    bom: true,
    trim: true,
    delimiter: [',', '\t', ';'],
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    info: true,
    on_skip: (error) => {
      if (error) refused.push({ line: Math.min(Number(error.lines), last), reason: 'unreadable', shown: '' });
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return records.map(({ record, info }) => ({ value: record[0] ?? '', line: info.lines }));
};

/** The keys' line numbers as runs `[first line, how many]`: a clean file is one run, not 100,000 numbers. */
export const lineRuns = (keys: readonly KeyLine[]): [number, number][] => {
  const runs: [number, number][] = [];
  for (const { line } of keys) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === line) last[1]++;
    else runs.push([line, 1]);
  }
  return runs;
};

/** The line of the `index`-th key, from its runs. */
export const lineOfKey = (runs: readonly (readonly [number, number])[], index: number): number => {
  let left = index;
  for (const [first, count] of runs) {
    if (left < count) return first + left;
    left -= count;
  }
  return 0;
};
