/**
 * A rule the request broke. Codes are the spec's problem codes; the HTTP layer maps each
 * code to its status in one table (src/http/problem-codes.ts).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    /** Extra members of the problem object, e.g. the failing probe result. */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

export const assertNever = (value: never): never => {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
};
