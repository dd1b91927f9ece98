import { validateItem, type ValidItem } from '../domain/inventory-items.js';

export type ReceivedItem = ValidItem;

/**
 * A `ready` answer must carry exactly the ordered count of well-formed items (the
 * inventory item kinds); anything else is a failure, and the first good answer is what
 * the buyer gets.
 */
export const parseReadyItems = (
  items: unknown,
  quantity: number,
): { ok: true; items: ReceivedItem[] } | { ok: false; detail: string } => {
  if (!Array.isArray(items)) return { ok: false, detail: 'items is not an array' };
  if (items.length !== quantity)
    return { ok: false, detail: `ready with ${items.length} item(s), ${quantity} ordered` };
  const out: ReceivedItem[] = [];
  for (const [index, raw] of items.entries()) {
    const result = validateItem(raw, index);
    if ('rejection' in result) return { ok: false, detail: `item ${index}: ${result.rejection.message}` };
    out.push(result.item);
  }
  return { ok: true, items: out };
};
