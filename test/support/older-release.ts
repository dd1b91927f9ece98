import { hashToken, newSupplierToken } from '../../src/crypto/tokens.js';
import { connect } from '../../src/db/connect.js';
import { newId } from '../../src/ids.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { type BalanceCommand, balanceDecider, type BalanceEvent, emptyBalance } from '../../src/domain/balance.js';
import { chainEvents } from '../../src/domain/ledger-chain.js';
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
    /**
     * A supplier's ledger as that release wrote it: `sales` sales of `gross` each, credited
     * then settled, unsigned; the first `unlinked` entries from before the hash chain (no
     * link at all), the rest linked. Answers the entries written, in order.
     */
    ledger: async (supplierId: string, options: { sales: number; gross: number; unlinked: number }) => {
      let state = emptyBalance;
      const written: BalanceEvent[] = [];
      const commission = Math.round((options.gross * 850) / 10_000);
      for (let i = 0; i < options.sales; i++) {
        const orderItemId = `${supplierId}-oi-${i}`;
        const now = new Date(at.getTime() + i * 60_000).toISOString();
        const commands: BalanceCommand[] = [
          {
            type: 'CreditSale',
            data: {
              supplierId,
              orderId: `${supplierId}-ord-${i}`,
              orderItemId,
              gross: options.gross,
              commission,
              net: options.gross - commission,
              availableAt: now,
              now,
            },
          },
          { type: 'SettleSale', data: { orderItemId, now } },
        ];
        for (const command of commands) {
          const decided = balanceDecider.decide(command, state);
          const events =
            written.length < options.unlinked ? decided : chainEvents(state.chainHead, state.chainLength, decided);
          for (const e of events) state = balanceDecider.evolve(state, e);
          written.push(...events);
        }
      }
      await append(`balance-${supplierId}`, written, 'no_stream');
      return written;
    },
    close: async () => {
      await store.close();
      await db.close();
    },
  };
};
