import { sql } from 'kysely';
import { projector } from './projector.js';

interface HeadCosignedData {
  supplierId: string;
  witnessKeyId: string;
  witnessKey: string;
  cosignedAt: string;
  treeSize: number;
  signedAt: string;
  checkpoint: { algorithm: 'ed25519'; key_id: string; signed: string; signature: string };
  signature: string;
}

/**
 * The latest cosignature of each witness of a supplier's ledger: what GET /balance/cosignatures
 * and the daily `ledger.checkpoint` publish. A larger head replaces a smaller one (heads signed
 * within the same moment differ by size only), then a later signing of it, then a later
 * cosignature; an older head cosigned late never hides the newest. Each row proves itself (the witness's signature over the
 * service's signed head), so the table holds nothing a reader must trust.
 */
export const witnessesProjection = projector<{ type: 'LedgerHeadCosigned'; data: HeadCosignedData }>({
  name: 'ledger-witnesses',
  version: 1,
  tables: ['ledger_cosignatures'],
  ddl: (s) => `
    create table ${s}.ledger_cosignatures (
      supplier_id text not null,
      witness_key_id text not null,
      witness_key text not null,
      cosigned_at timestamptz not null,
      tree_size bigint not null,
      signed_at timestamptz not null,
      checkpoint jsonb not null,
      signature text not null,
      primary key (supplier_id, witness_key_id)
    );`,
  handlers: {
    LedgerHeadCosigned: (db, e) =>
      db
        .insertInto('ledger_cosignatures')
        .values({
          supplier_id: e.data.supplierId,
          witness_key_id: e.data.witnessKeyId,
          witness_key: e.data.witnessKey,
          cosigned_at: e.data.cosignedAt,
          tree_size: e.data.treeSize,
          signed_at: e.data.signedAt,
          checkpoint: JSON.stringify(e.data.checkpoint),
          signature: e.data.signature,
        })
        .onConflict((oc) =>
          oc
            .columns(['supplier_id', 'witness_key_id'])
            .doUpdateSet({
              witness_key: sql`excluded.witness_key`,
              cosigned_at: sql`excluded.cosigned_at`,
              tree_size: sql`excluded.tree_size`,
              signed_at: sql`excluded.signed_at`,
              checkpoint: sql`excluded.checkpoint`,
              signature: sql`excluded.signature`,
            })
            .where(
              sql<boolean>`(excluded.tree_size, excluded.signed_at, excluded.cosigned_at) > (ledger_cosignatures.tree_size, ledger_cosignatures.signed_at, ledger_cosignatures.cosigned_at)`,
            ),
        ),
  },
});
