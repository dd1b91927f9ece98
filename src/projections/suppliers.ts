import type { SupplierEvent } from '../domain/supplier.js';
import { projector } from './projector.js';

/**
 * Suppliers and the keyed hashes of their tokens: what authentication looks up on every
 * request. A token issued before hashes were keyed has its plain hash here, which no look-up
 * matches, until the upgrade's `SupplierTokenHashesKeyed` replaces it.
 */
export const suppliersProjection = projector<SupplierEvent>({
  name: 'suppliers',
  version: 2,
  tables: ['suppliers', 'supplier_tokens'],
  ddl: (s) => `
    create table ${s}.suppliers (id text primary key, name text not null, created_at timestamptz not null, rate_limits jsonb);
    create table ${s}.supplier_tokens (
      token_hash text primary key,
      token_id text not null unique,
      supplier_id text not null,
      environment text not null,
      created_at timestamptz not null,
      revoked_at timestamptz
    );
    create index on ${s}.supplier_tokens (supplier_id);`,
  handlers: {
    SupplierRegistered: (db, e) =>
      db
        .insertInto('suppliers')
        .values({ id: e.data.supplierId, name: e.data.name, created_at: e.data.at, rate_limits: null }),
    SupplierTokenIssued: (db, e) =>
      db.insertInto('supplier_tokens').values({
        token_hash: e.data.tokenHash,
        token_id: e.data.tokenId,
        supplier_id: e.data.supplierId,
        environment: e.data.environment,
        created_at: e.data.at,
        revoked_at: null,
      }),
    SupplierTokenHashesKeyed: async (db, e) => {
      for (const [tokenId, tokenHash] of Object.entries(e.data.hashes))
        await db
          .updateTable('supplier_tokens')
          .set({ token_hash: tokenHash })
          .where('token_id', '=', tokenId)
          .execute();
    },
    SupplierTokenRevoked: (db, e) =>
      db.updateTable('supplier_tokens').set({ revoked_at: e.data.at }).where('token_id', '=', e.data.tokenId),
    SupplierRateLimitsSet: (db, e) =>
      db
        .updateTable('suppliers')
        .set({ rate_limits: JSON.stringify(e.data.limits) })
        .where('id', '=', e.data.supplierId),
  },
});
