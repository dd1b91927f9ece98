import { hashToken, newSupplierToken } from '../../src/crypto/tokens.js';
import { connect } from '../../src/db/connect.js';
import { newId } from '../../src/ids.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import type { NewEvent } from '../../src/eventstore/port.js';

/**
 * Data as the release before keyed token hashes and signed ledger entries wrote it, written
 * into a database no service of this release has started on: the events in that release's
 * shapes, appended through the event store as it appended them. What the upgrade (the first
 * start of this release, src/commands/older-data.ts) finds.
 */
export const olderRelease = async (databaseUrl: string) => {
  const db = connect(databaseUrl, 2);
  const store = new PostgresEventStore(db.pool);
  const at = new Date('2026-01-02T09:00:00.000Z');
  const append = (streamId: string, events: NewEvent[], expected: 'no_stream' | number) =>
    store.append(streamId, events, expected, at);
  return {
    store,
    /** A supplier with `tokens` tokens stored by their plain SHA-256, as that release stored them; the last `revoked` revoked. */
    supplier: async (name: string, tokens: number, revoked = 0) => {
      const supplierId = newId();
      const issued = Array.from({ length: tokens }, () => ({ tokenId: newId(), token: newSupplierToken('sandbox') }));
      const stamp = at.toISOString();
      await append(
        `supplier-${supplierId}`,
        [
          { type: 'SupplierRegistered', data: { supplierId, name, at: stamp } },
          ...issued.map(({ tokenId, token }) => ({
            type: 'SupplierTokenIssued',
            data: { supplierId, tokenId, tokenHash: hashToken(token), environment: 'sandbox', at: stamp },
          })),
          ...issued.slice(tokens - revoked).map(({ tokenId }) => ({
            type: 'SupplierTokenRevoked',
            data: { supplierId, tokenId, at: stamp },
          })),
        ],
        'no_stream',
      );
      return { supplierId, tokens: issued };
    },
    close: async () => {
      await store.close();
      await db.close();
    },
  };
};
