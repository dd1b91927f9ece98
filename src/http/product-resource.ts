import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ProductTable } from '../db/schema.js';
import safeRegex from 'safe-regex2';
import type { FormField as FormFieldValue, KeyFormat as KeyFormatValue } from '../domain/product.js';
import { TEXT_MAX_CHARS } from '../domain/inventory-items.js';
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

/**
 * A pattern that runs on every key of an upload: one whose time can grow exponentially with
 * the key (nested repetition, `(a+)+`) is refused when it is set, not found out by an upload.
 */
const linear = (pattern: string) => compiles(pattern) && safeRegex(pattern);

export const KeyFormat = z
  .object({
    pattern: z
      .string()
      .min(1)
      .max(300)
      .refine(compiles, 'not a valid regular expression')
      .refine(linear, 'a pattern with nested repetition, which can take exponential time')
      .describe('a regular expression a key matches whole (anchored); JavaScript syntax, with the u flag'),
    min_length: z.number().int().min(1).max(TEXT_MAX_CHARS),
    max_length: z.number().int().min(1).max(TEXT_MAX_CHARS),
    description: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('the format in words, as a refused line names it: "5 groups of 5 letters or digits, joined by dashes"'),
  })
  .strict()
  .meta({
    id: 'KeyFormat',
    description: "The shape of the product's keys; an uploaded key that does not fit is refused",
  });

export const keyFormatOf = (f: z.infer<typeof KeyFormat> | null): KeyFormatValue | null =>
  f && { pattern: f.pattern, minLength: f.min_length, maxLength: f.max_length, description: f.description };

export const keyFormatResource = (f: KeyFormatValue | null | undefined) =>
  f ? { pattern: f.pattern, min_length: f.minLength, max_length: f.maxLength, description: f.description } : null;

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
  key_format: KeyFormat.nullable(),
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
  key_format: keyFormatResource(row.key_format as KeyFormatValue | null),
});
