import type { LedgerSigningKey, SignedCheckpoint } from '../crypto/ledger-signing.js';
import type { LedgerBook } from '../projections/ledger-book.js';
import { type LedgerAsOf, ledgerAsOf } from '../projections/ledger-history.js';
import { monthBounds, monthlyStatement, type Statement } from '../projections/ledger-statement.js';

/** A supplier's chain head at a moment with its signed checkpoint: `GET /balance/proof` and `ledger.checkpoint`'s `data`. */
export interface LedgerProof {
  supplier_id: string;
  as_of: string;
  algorithm: 'sha256';
  head: string;
  entries: number;
  last_entry_id: string | null;
  last_entry_at: string | null;
  checkpoint: SignedCheckpoint;
}

/** Why no head is signed: the first stored entry that fails the chain. */
export interface BrokenLedger {
  broken: NonNullable<LedgerAsOf['broken']>;
}

/**
 * The signed head of `ledger` (read as of `asOf`), or the chain's first fault: a stream that
 * fails its chain anywhere gets no signed head at all, so a tampered tail is never
 * vouched for with a fresh signature.
 */
export const ledgerProof = (
  supplierId: string,
  asOf: Date,
  ledger: LedgerAsOf,
  key: LedgerSigningKey,
): LedgerProof | BrokenLedger => {
  if (ledger.broken) return { broken: ledger.broken };
  const { head } = ledger;
  const as_of = asOf.toISOString();
  return {
    supplier_id: supplierId,
    as_of,
    algorithm: 'sha256',
    head: head.hash,
    entries: head.length,
    last_entry_id: head.entryId,
    last_entry_at: head.at,
    checkpoint: key.signCheckpoint({
      supplierId,
      entries: head.length,
      head: head.hash,
      lastEntryId: head.entryId,
      asOf: as_of,
    }),
  };
};

/** The text that says a ledger's chain is broken, where and how. */
export const brokenDetail = ({ broken }: BrokenLedger) =>
  `the ledger's hash chain is broken at entry ${broken.entryId} (revision ${broken.revision}), which ${broken.reason}; no head is signed over it`;

/**
 * The moment a monthly statement's checkpoint is signed as of: the latest `created_at` of
 * the entries the statement counts (every entry before the month's end), or the month's
 * start when there is none. It follows from the ledger alone, not from the clock, so
 * every reader of one statement gets the same signed head.
 */
export const statementAsOf = (entries: { created_at: string }[], to: Date, from: Date): Date => {
  let latest: number | undefined;
  for (const e of entries) {
    const at = Date.parse(e.created_at);
    if (at < to.getTime() && (latest === undefined || at > latest)) latest = at;
  }
  return new Date(latest ?? from.getTime());
};

/**
 * A monthly statement with the signed head of the ledger it was made from (as of
 * `statementAsOf`), or the chain's first fault: a statement is not made over a broken chain.
 */
export const signedStatement = async (
  book: LedgerBook,
  key: LedgerSigningKey,
  supplierId: string,
  month: string,
): Promise<{ statement: Statement; checkpoint: SignedCheckpoint } | BrokenLedger> => {
  const bounds = monthBounds(month);
  if (!bounds) throw new Error(`not a month: ${month}`);
  // every entry before the month's end (timestamps are whole milliseconds): what the statement counts
  const ledger = await ledgerAsOf(book, supplierId, new Date(bounds.to.getTime() - 1));
  const proof = ledgerProof(supplierId, statementAsOf(ledger.entries, bounds.to, bounds.from), ledger, key);
  if ('broken' in proof) return proof;
  return { statement: monthlyStatement(supplierId, month, ledger.entries), checkpoint: proof.checkpoint };
};
