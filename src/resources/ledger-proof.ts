import type { LedgerSigningKey, SignedCheckpoint } from '../crypto/ledger-signing.js';
import type { LedgerBook } from '../projections/ledger-book.js';
import { type LedgerAsOf, ledgerAsOf } from '../projections/ledger-history.js';
import { monthBounds, monthlyStatement, saleFigures, type Statement } from '../projections/ledger-statement.js';
import { chainContent } from '../domain/ledger-chain.js';
import { consistencyProof, inclusionPath, leafHash, rootOf } from '../sdk/ledger/merkle.js';

/**
 * A supplier's signed head: `GET /balance/proof` and `ledger.checkpoint`'s `data`. The
 * top-level `head`, `entries`, `last_entry_*` and `root_hash` are the view as of `as_of`;
 * `tree` is the ledger as it stood when signed (`signed_at`).
 */
export interface LedgerProof {
  supplier_id: string;
  as_of: string;
  signed_at: string;
  algorithm: 'sha256';
  head: string;
  entries: number;
  last_entry_id: string | null;
  last_entry_at: string | null;
  root_hash: string;
  tree: { size: number; root_hash: string; head: string; last_entry_id: string | null; last_entry_at: string | null };
  checkpoint: SignedCheckpoint;
}

/** Why no head is signed: the first stored entry the ledger refused. */
export interface BrokenLedger {
  broken: NonNullable<LedgerAsOf['broken']>;
}

/** The RFC 9162 root of the ledger's first `size` accepted entries. */
export const rootOfFirst = (ledger: Pick<LedgerAsOf, 'texts'>, size: number): string =>
  rootOf(ledger.texts.slice(0, size).map((t) => leafHash(t))).toString('hex');

/**
 * The signed head of `ledger` as it stands at `signedAt`, viewed as of `asOf` (no later), or
 * the ledger's first refused entry: a ledger holding one gets no signed head at all, so a
 * tampered tail is never vouched for with a fresh signature.
 */
export const ledgerProof = (
  supplierId: string,
  asOf: Date,
  signedAt: Date,
  ledger: LedgerAsOf,
  key: LedgerSigningKey,
): LedgerProof | BrokenLedger => {
  if (ledger.broken) return { broken: ledger.broken };
  if (asOf.getTime() > signedAt.getTime()) throw new Error('a head is never signed as of a moment after its signing');
  const { head, now } = ledger;
  const as_of = asOf.toISOString();
  const signed_at = signedAt.toISOString();
  const root = rootOfFirst(ledger, now.length);
  const viewRoot = head.length === now.length ? root : rootOfFirst(ledger, head.length);
  return {
    supplier_id: supplierId,
    as_of,
    signed_at,
    algorithm: 'sha256',
    head: head.hash,
    entries: head.length,
    last_entry_id: head.entryId,
    last_entry_at: head.at,
    root_hash: viewRoot,
    tree: { size: now.length, root_hash: root, head: now.hash, last_entry_id: now.entryId, last_entry_at: now.at },
    checkpoint: key.signHead({
      supplier_id: supplierId,
      signed_at,
      tree_size: now.length,
      root_hash: root,
      head: now.hash,
      last_entry_id: now.entryId,
      as_of,
      as_of_tree_size: head.length,
      as_of_root_hash: viewRoot,
      as_of_head: head.hash,
      as_of_last_entry_id: head.entryId,
    }),
  };
};

/** The text that says a ledger holds a refused entry, which and why. */
export const brokenDetail = ({ broken }: BrokenLedger) =>
  `the ledger's hash chain is broken at entry ${broken.entryId} (revision ${broken.revision}), which ${broken.reason}; no head is signed over it`;

/**
 * The moment a monthly statement's checkpoint views the ledger as of: the latest
 * `created_at` of the entries the statement counts (every entry before the month's end), or
 * the month's start when there is none. It follows from the ledger alone, so every signed
 * head of one statement views the same entries.
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
 * A monthly statement with the signed head of the ledger it was made from (viewed as of
 * `statementAsOf`, signed at `signedAt`), or the ledger's first refused entry: a statement is
 * not made over a ledger that holds one. A month that has not begun has no statement (null).
 */
export const signedStatement = async (
  book: LedgerBook,
  key: LedgerSigningKey,
  supplierId: string,
  month: string,
  signedAt: Date,
): Promise<{ statement: Statement; checkpoint: SignedCheckpoint } | BrokenLedger | null> => {
  const bounds = monthBounds(month);
  if (!bounds) throw new Error(`not a month: ${month}`);
  if (bounds.from.getTime() > signedAt.getTime()) return null;
  // every entry before the month's end (timestamps are whole milliseconds): what the statement counts
  const ledger = await ledgerAsOf(book, supplierId, new Date(bounds.to.getTime() - 1));
  const asOf = statementAsOf(ledger.entries, bounds.to, bounds.from);
  const proof = ledgerProof(supplierId, asOf, signedAt, ledger, key);
  if ('broken' in proof) return proof;
  // every sale's and refund's gross and commission, from the events the statement's entries come from
  const figures = saleFigures(ledger.accepted);
  return { statement: monthlyStatement(supplierId, month, ledger.entries, figures), checkpoint: proof.checkpoint };
};

/** An entry's place in the supplier's Merkle tree, proved against a head signed now. */
export interface InclusionProof {
  entry_id: string;
  leaf_index: number;
  tree_size: number;
  /** The leaf: the entry's signed text, its signature, and the content its hash covers. */
  leaf: { text: string; key_id: string; signature: string; content: string };
  /** RFC 9162 PATH(leaf_index, D[tree_size]), leaf side first, hex. */
  audit_path: string[];
  checkpoint: SignedCheckpoint;
}

/** Supplier-facing entry ids carry their account (`sale-…:pending`); the ledger's entry is what comes before. */
export const ledgerEntryIdOf = (id: string) => id.replace(/:(pending|available)$/, '');

/**
 * The inclusion proof of one of a supplier's entries in its ledger as it stands now, with the
 * head signed now; undefined for an entry the ledger does not hold (or refused).
 */
export const inclusionProof = async (
  book: LedgerBook,
  key: LedgerSigningKey,
  supplierId: string,
  entryId: string,
  now: Date,
): Promise<InclusionProof | BrokenLedger | undefined> => {
  const ledger = await ledgerAsOf(book, supplierId);
  if (ledger.broken) return { broken: ledger.broken };
  const wanted = ledgerEntryIdOf(entryId);
  const index = ledger.accepted.findIndex((e) => e.data.entryId === wanted);
  if (index < 0) return undefined;
  const event = ledger.accepted[index]!;
  const link = event.data.chain;
  const signed =
    link?.signature && link.keyId
      ? { key_id: link.keyId, signature: link.signature }
      : await book.adoptionOf(supplierId).then((a) => ({ key_id: a!.keyId, signature: a!.signatures[index]! }));
  const proof = ledgerProof(supplierId, now, now, ledger, key) as LedgerProof;
  return {
    entry_id: wanted,
    leaf_index: index,
    tree_size: ledger.texts.length,
    leaf: { text: ledger.texts[index]!, ...signed, content: chainContent(event) },
    audit_path: inclusionPath(
      index,
      ledger.texts.map((t) => leafHash(t)),
    ).map((h) => h.toString('hex')),
    checkpoint: proof.checkpoint,
  };
};

/** RFC 9162 PROOF(from, D[to]) over a supplier's ledger, with the head signed now. */
export interface ConsistencyProof {
  from: number;
  to: number;
  proof: string[];
  checkpoint: SignedCheckpoint;
}

/** The consistency proof between two sizes of a supplier's ledger; `{ tooLarge }` when `to` is past its size. */
export const consistencyBetween = async (
  book: LedgerBook,
  key: LedgerSigningKey,
  supplierId: string,
  sizes: { from: number; to?: number },
  now: Date,
): Promise<ConsistencyProof | BrokenLedger | { tooLarge: number }> => {
  const ledger = await ledgerAsOf(book, supplierId);
  if (ledger.broken) return { broken: ledger.broken };
  const size = ledger.texts.length;
  const to = sizes.to ?? size;
  if (to > size || sizes.from > to) return { tooLarge: size };
  const leaves = ledger.texts.slice(0, to).map((t) => leafHash(t));
  return {
    from: sizes.from,
    to,
    proof: consistencyProof(sizes.from, leaves).map((h) => h.toString('hex')),
    checkpoint: (ledgerProof(supplierId, now, now, ledger, key) as LedgerProof).checkpoint,
  };
};
