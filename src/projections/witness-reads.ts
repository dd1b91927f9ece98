import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Cosignature } from '../sdk/ledger/cosignature.js';

/** The latest cosignature of each of a supplier's witnesses, by witness key id. */
export const latestCosignatures = async (db: Kysely<Database>, supplierId: string): Promise<Cosignature[]> =>
  (
    await db
      .selectFrom('ledger_cosignatures')
      .selectAll()
      .where('supplier_id', '=', supplierId)
      .orderBy('witness_key_id')
      .execute()
  ).map((r) => ({
    witness_key: r.witness_key,
    witness_key_id: r.witness_key_id,
    cosigned_at: r.cosigned_at.toISOString(),
    checkpoint: r.checkpoint,
    signature: r.signature,
  }));
