import { createRequire } from 'node:module';

// pg's own conversion of a parameter to the text it sends: the literal written in its place
// must be that very text (a Date in pg's format, an array as pg's array literal, JSON)
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): string | Buffer | null;
};

/** A parameter as the quoted literal of the text pg would have sent for it. */
export const literalOf = (value: unknown): string => {
  const prepared = prepareValue(value);
  if (prepared === null) return 'null';
  // pg sends a Buffer as bytes; bytea's text form is its hex
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'`;
  return quoted(prepared);
};

/**
 * The text as a string literal, as pg's `escapeLiteral` writes it (quotes doubled; with a
 * backslash, an E'' string with backslashes doubled), in two native replaces: pg's own
 * builds it a character at a time, and a projection batch's JSON documents are kilobytes.
 */
const quoted = (text: string): string => {
  const doubled = text.includes("'") ? text.replaceAll("'", "''") : text;
  return text.includes('\\') ? ` E'${doubled.replaceAll('\\', '\\\\')}'` : `'${doubled}'`;
};

/**
 * A compiled statement with its parameters written into its text, so that several can go
 * as one text in one round trip (the simple protocol takes no parameters). PostgreSQL types
 * an untyped quoted literal as it types an untyped parameter, which is how pg sends them, so
 * the statement means the same. Placeholders are replaced outside quoted strings, quoted
 * names and comments only.
 */
export const inlineParameters = (text: string, parameters: readonly unknown[]): string => {
  // the text between placeholders goes over in runs: a projection batch's text is
  // kilobytes, and a piece per character made it the largest allocation of an order
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c === QUOTE || c === DOUBLE_QUOTE) i = closingQuote(text, i, text[i]!);
    else if (c === DASH && next === DASH) i = lineEnd(text, i);
    else if (c === SLASH && next === STAR) i = blockCommentEnd(text, i);
    else if (c === DOLLAR && isDigit(next)) {
      let j = i + 1;
      while (isDigit(text.charCodeAt(j))) j++;
      const index = Number(text.slice(i + 1, j)) - 1;
      if (index >= parameters.length)
        throw new Error(`statement names parameter $${index + 1} of ${parameters.length}`);
      parts.push(text.slice(copied, i), literalOf(parameters[index]));
      copied = i = j;
    } else i++;
  }
  parts.push(text.slice(copied));
  return parts.join('');
};

const QUOTE = 0x27; // '
const DOUBLE_QUOTE = 0x22; // "
const DASH = 0x2d; // -
const SLASH = 0x2f; // /
const STAR = 0x2a; // *
const DOLLAR = 0x24; // $
const isDigit = (code: number) => code >= 48 && code <= 57;

/** Past the quote closing the one at `start` (a doubled quote is part of the string). */
const closingQuote = (text: string, start: number, quote: string): number => {
  // an E'...' string also escapes with a backslash
  const backslashes = quote === "'" && (text[start - 1] === 'E' || text[start - 1] === 'e');
  for (let i = start + 1; i < text.length; i++) {
    if (backslashes && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (text[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return text.length;
};

const lineEnd = (text: string, start: number): number => {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
};

const blockCommentEnd = (text: string, start: number): number => {
  const end = text.indexOf('*/', start + 2);
  return end < 0 ? text.length : end + 2;
};
