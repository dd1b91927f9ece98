import { z } from 'zod';
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
