import { z } from 'zod';
import type { PricingRule } from '../domain/pricing-rule.js';
import { AmountInput, MoneyInput } from './schemas.js';

/** A pricing rule as a request gives it: to set it (`PUT /offers/{id}/pricing-rule`) or to preview it (`POST /pricing/simulate`). */
export const BeatBy = z.union([
  z.object({ amount: AmountInput }).strict(),
  z
    .object({
      percent: z
        .number()
        .min(0.01)
        .max(50)
        .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, 'at most two decimals')
        .describe('up to two decimals'),
    })
    .strict(),
]);

export const WHEN_ALONE = ['keep', 'ceiling'] as const;

export const PricingRuleBody = z
  .object({
    beat_by: BeatBy.describe('how far below the lowest competing price: {amount} in minor units or {percent}'),
    floor: MoneyInput.describe('never below this'),
    ceiling: MoneyInput.describe('never above this'),
    max_changes_per_hour: z.number().int().min(1).max(60),
    when_alone: z
      .enum(WHEN_ALONE)
      .default('keep')
      .describe(
        'with no routable competitor: `keep` the current price (moved into floor and ceiling if outside them), or go to the `ceiling`',
      ),
  })
  .strict();

export const toRule = (b: z.infer<typeof PricingRuleBody>): PricingRule => ({
  beatBy:
    'amount' in b.beat_by
      ? { kind: 'amount', amount: b.beat_by.amount }
      : { kind: 'percent', bps: Math.round(b.beat_by.percent * 100) },
  floor: b.floor.amount,
  ceiling: b.ceiling.amount,
  maxChangesPerHour: b.max_changes_per_hour,
  whenAlone: b.when_alone,
});
