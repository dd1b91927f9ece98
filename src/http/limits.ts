/** The spec's rate-limit classes (Limits), per rolling 60-second window. */
export const limitClasses = ['reads', 'writes', 'sync', 'bulk', 'simulate', 'test'] as const;
export type LimitClass = (typeof limitClasses)[number];

export interface LimitTable {
  reads: number;
  writes: number;
  sync: number;
  bulk: number;
  simulate: number;
  test: number;
  /** Across all of one supplier's tokens. */
  per_supplier: number;
  /** Per IP, for requests without a valid token. */
  unauthenticated: number;
  /** The operator token; the spec leaves it out, the storefront drives checkout through it. */
  operator: number;
}

export const specLimits: LimitTable = {
  reads: 600,
  writes: 120,
  sync: 300,
  bulk: 12,
  simulate: 120,
  test: 6,
  per_supplier: 1200,
  unauthenticated: 30,
  operator: 6000,
};

export const WINDOW_SECONDS = 60;

/**
 * The spec's limits with those given in code (tests, benchmarks) over them. Each must be a
 * whole number of requests of at least 1: a limit of 0 has no second at which a request
 * passes again, so no Retry-After to give.
 */
export const limitTable = (given: Partial<LimitTable> = {}): LimitTable => {
  const table = { ...specLimits, ...given };
  for (const [name, limit] of Object.entries(table))
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`rate limit ${name} must be a whole number of at least 1, got ${limit}`);
  return table;
};
