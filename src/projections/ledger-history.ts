import type { BalanceEvent } from '../domain/balance.js';
import { chainWalk, GENESIS, linkHash } from '../domain/ledger-chain.js';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import { BALANCE_EVENT_TYPES, type LedgerEntry, ledgerEntries } from './ledger.js';

export const balanceStreamOf = (supplierId: string) => `balance-${supplierId}`;

export interface LedgerAsOf {
  pending: number;
  available: number;
  /** When the last entry counted was posted; null before the first. */
  updatedAt: string | null;
  entries: LedgerEntry[];
  /** The chain head covering every entry up to the last one counted. */
  head: { hash: string; length: number; entryId: string | null; at: string | null };
  /** The chain's first fault anywhere in the stream (the whole of it, whatever `asOf`): no head of it is to be signed. */
  broken?: { entryId: string; revision: number; reason: string };
}

/**
 * One supplier's ledger as it stood at `asOf` (every entry posted at or before it), replayed
 * from the SupplierBalance stream itself, not from the read models: what an auditor sees.
 * Without `asOf`, the whole ledger.
 */
export const ledgerAsOf = async (store: EventStore, supplierId: string, asOf?: Date): Promise<LedgerAsOf> => {
  const events = (await store.readStream(balanceStreamOf(supplierId))).filter((e) =>
    BALANCE_EVENT_TYPES.has(e.type),
  ) as RecordedEvent<BalanceEvent['data']>[];
  const result: LedgerAsOf = {
    pending: 0,
    available: 0,
    updatedAt: null,
    entries: [],
    head: { hash: GENESIS, length: 0, entryId: null, at: null },
  };
  // the chain is recomputed from the content and checked against the stored links on the
  // way (as ledger verify does), covering entries older than the chain too
  const walk = chainWalk();
  let running = GENESIS;
  let index = 0;
  for (const event of events) {
    index++;
    const step = walk.step(event);
    if ('head' in step) running = step.head;
    else {
      result.broken ??= {
        entryId: event.data?.entryId ?? '(unknown)',
        revision: event.revision,
        reason: step.fault.reason,
      };
      running = linkHash(running, event);
    }
    if (asOf && new Date(event.data.at).getTime() > asOf.getTime()) continue;
    for (const entry of ledgerEntries(event)) {
      result.entries.push(entry);
      if (entry.account === 'pending') result.pending += entry.amount;
      else result.available += entry.amount;
    }
    result.updatedAt = event.data.at;
    result.head = { hash: running, length: index, entryId: event.data.entryId, at: event.data.at };
  }
  return result;
};
