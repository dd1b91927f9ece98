import { parseArgs } from 'node:util';

/**
 * A command's `--name value` flags, strictly: an unknown flag, a flag without its value (or
 * with another flag where its value belongs) and a stray word are refused, so a misspelt
 * or half-typed command never runs on defaults. Answers the values, or why not.
 */
export const cliFlags = (
  args: string[],
  names: readonly string[],
): { values: Record<string, string | undefined> } | { error: string } => {
  try {
    const { values } = parseArgs({
      args,
      options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    return { values: values };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (midnight UTC) or date and time with its zone, on a day the calendar has:
 * `new Date` alone reads `2026-02-30` as March 2nd, `1` as 2001 and a time without a zone
 * in the machine's own.
 */
export const cliTimestamp = (text: string): Date | undefined => {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
};
