import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ProductTable } from '../db/schema.js';
import type { FormField as FormFieldValue } from '../domain/product.js';
import { Money } from '../resources/values.js';

export const FormField = z
  .object({
    key: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9_]*$/, 'lowercase letters, digits and _'),
    label: z.string().min(1).max(200),
    type: z.enum(['text', 'number', 'select']),
    required: z.boolean(),
    pattern: z
      .string()
      .max(500)
      .nullable()
      .default(null)
      .refine((p) => p === null || compiles(p), 'not a valid regular expression'),
    max_length: z.number().int().min(1).max(10_000).nullable().default(null),
    help_text: z.string().max(1000).nullable().default(null),
    options: z
      .array(z.object({ value: z.string().min(1).max(200), label: z.string().min(1).max(200) }))
      .max(500)
      .nullable()
      .default(null),
  })
  .meta({ id: 'FormField' });

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
};

export const Market = z.object({
  buyer_price: Money.nullable().describe('the price a buyer pays now; null while no offer is routable'),
  active_offers: z.number().int(),
  your_offer_selected: z.boolean(),
});

export const ProductType = z.enum(['game_key', 'topup']);
export const ProductStatus = z.enum(['sellable', 'not_sellable']);

/** The product resource, written once: suppliers see it with their market, the operator without one. */
const productShape = {
  id: z.string(),
  name: z.string(),
  type: ProductType,
  platform: z.string(),
  region: z.string(),
  status: ProductStatus,
  market: Market,
  form_fields: z.array(FormField),
};

export const Product = z.object(productShape).meta({ id: 'Product' });

/** The operator's answer about a product: the catalogue's fields, no supplier's market. */
export const OperatorProduct = z.object(productShape).omit({ market: true });

export type MarketView = z.infer<typeof Market>;

export const toProductResource = (row: Selectable<ProductTable>, market: MarketView) => ({
  id: row.id,
  name: row.name,
  type: row.type as 'game_key' | 'topup',
  platform: row.platform,
  region: row.region,
  status: row.status as 'sellable' | 'not_sellable',
  market,
  form_fields: row.form_fields as FormFieldValue[],
});
