import { z } from 'zod';
import { MAX_AMOUNT } from '../domain/money.js';
import { problemCodes } from './problem-codes.js';

/** Schemas shared by several resources. */

export const Problem = z
  .object({
    type: z.string().describe('<errors_url>#<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(problemCodes) as [keyof typeof problemCodes, ...(keyof typeof problemCodes)[]]),
    trace_id: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .loose()
  .meta({ id: 'Problem', description: 'application/problem+json' });

/** The problem answers every route can give, keyed by status, for the OpenAPI document. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries([401, 422, 429, ...statuses].map((s) => [s, Problem])) as Record<number, typeof Problem>;

/** An amount a request names, in minor units: positive, and at most MAX_AMOUNT. */
export const AmountInput = z
  .number()
  .int()
  .min(1)
  .max(MAX_AMOUNT)
  .describe(`minor units: 1 to ${MAX_AMOUNT} (1,000,000.00 EUR)`);

/**
 * Money as every request body gives it (prices, payouts, schedule minimums): strict like the
 * bodies around it, so a misspelt or extra field is refused rather than dropped. Not a named
 * component: the document names the input side of `Money` (the answers' shape) `MoneyInput`
 * already, so this one is written out where it is used, its bounds with it.
 */
export const MoneyInput = z.object({ amount: AmountInput, currency: z.literal('EUR') }).strict();
