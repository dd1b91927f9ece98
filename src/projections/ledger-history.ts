import { GENESIS } from '../domain/ledger-chain.js';
import { type LedgerEntry, ledgerEntries } from './ledger.js';
import type { CheckedEvent, LedgerBook } from './ledger-book.js';

export { balanceStreamOf } from './ledger-book.js';

export interface LedgerAsOf {
  pending: number;
  available: number;
  /** When the last entry counted was posted; null before the first. */
  updatedAt: string | null;
  entries: LedgerEntry[];
  /** The chain head covering every entry up to the last one counted. */
  head: { hash: string; length: number; entryId: string | null; at: string | null };
  /** The first stored entry the ledger refused, anywhere in the stream (whatever `asOf`): no head of it is to be signed. */
  broken?: { entryId: string; revision: number; reason: string };
  /** The whole ledger as it stands (whatever `asOf`): its head, and each accepted entry's signed text, in order. */
  now: { hash: string; length: number; entryId: string | null; at: string | null };
  texts: string[];
  /** The accepted entries themselves, in order (whatever `asOf`). */
  accepted: CheckedEvent[];
}

/**
 * One supplier's ledger as it stood at `asOf` (every entry posted at or before it), replayed
 * from the SupplierBalance stream itself, not from the read models: what an auditor sees.
 * Without `asOf`, the whole ledger. Only the entries the ledger accepts count (`LedgerBook`:
 * each signed by the service where it stands); the first one it refused is named.
 */
export const ledgerAsOf = async (book: LedgerBook, supplierId: string, asOf?: Date): Promise<LedgerAsOf> => {
  const result: LedgerAsOf = {
    pending: 0,
    available: 0,
    updatedAt: null,
    entries: [],
    head: { hash: GENESIS, length: 0, entryId: null, at: null },
    now: { hash: GENESIS, length: 0, entryId: null, at: null },
    texts: [],
    accepted: [],
  };
  let length = 0;
  for (const event of await book.entries(supplierId)) {
    if (event.refused) {
      result.broken ??= {
        entryId: event.data?.entryId ?? '(unknown)',
        revision: event.revision,
        reason: event.refused,
      };
      continue;
    }
    length++;
    result.texts.push(event.entryText!);
    result.accepted.push(event);
    result.now = { hash: event.chainHead!, length, entryId: event.data.entryId, at: event.data.at };
    if (asOf && new Date(event.data.at).getTime() > asOf.getTime()) continue;
    for (const entry of ledgerEntries(event)) {
      result.entries.push(entry);
      if (entry.account === 'pending') result.pending += entry.amount;
      else result.available += entry.amount;
    }
    result.updatedAt = event.data.at;
    result.head = { hash: event.chainHead!, length, entryId: event.data.entryId, at: event.data.at };
  }
  return result;
};
