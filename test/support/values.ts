import type { Kysely } from 'kysely';
import { openValues } from '../../src/commands/inventory-values.js';
import type { SecretBox } from '../../src/crypto/secret-box.js';
import type { Database } from '../../src/db/schema.js';

export interface StoredValue {
  item_id: string;
  kind: string;
  created_at: Date;
  bytes: Buffer;
  /** The nonce of the seal it is kept under: one per set (an upload), one per single row. */
  nonce: string;
}

/** Every value stored for an offer, in sets (uploads) or single rows (declared items), opened. */
export const storedValues = async (
  services: { db: Kysely<Database>; secretBox: SecretBox },
  offerId: string,
): Promise<StoredValue[]> => {
  const sets = await services.db
    .selectFrom('inventory_value_sets')
    .select(['item_ids', 'sealed', 'created_at'])
    .where('offer_id', '=', offerId)
    .execute();
  const rows = await services.db
    .selectFrom('inventory_values')
    .select(['item_id', 'sealed', 'created_at'])
    .where('offer_id', '=', offerId)
    .execute();
  const kept = [
    ...sets.flatMap((s) => s.item_ids.map((id) => ({ id, sealed: s.sealed, created_at: s.created_at }))),
    ...rows.map((r) => ({ id: r.item_id, sealed: r.sealed, created_at: r.created_at })),
  ];
  const opened = await openValues(
    services,
    kept.map((k) => k.id),
  );
  return kept.map((k) => ({
    item_id: k.id,
    kind: opened.get(k.id)!.kind,
    created_at: k.created_at,
    bytes: opened.get(k.id)!.bytes,
    nonce: k.sealed.split('.')[1]!,
  }));
};
