import { z } from 'zod';

/** Values every resource shows the same way, in HTTP answers and webhook payloads alike. */

export const Money = z
  .object({
    amount: z.number().int().describe('minor units'),
    currency: z.literal('EUR'),
  })
  .meta({ id: 'Money' });

export const Timestamp = z.string().describe('ISO 8601 UTC');

export const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
