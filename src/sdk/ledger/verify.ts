import { createHash } from 'node:crypto';
import { type Checked, readSignedHead, type SignedCheckpoint, type SignedHead } from './checkpoint.js';
import { type LedgerPublicKey, verifyEd25519 } from './keys.js';
import { leafHash, verifyConsistencyProof, verifyInclusionPath } from './merkle.js';

/** What GET /api/v1/balance/entries/{entry_id}/proof answers. */
export interface InclusionProofAnswer {
  entry_id: string;
  leaf_index: number;
  tree_size: number;
  leaf: { text: string; key_id: string; signature: string; content: string };
  audit_path: string[];
  checkpoint: SignedCheckpoint;
}

/** An entry's signed text: its content's hash, its place, the head before it, the key that signed. */
export interface SignedEntry {
  supplier_id: string;
  seq: number;
  prev: string;
  hash: string;
  key_id: string;
}

export const ENTRY_FORMAT = 'svc-ledger-entry/1';

const HEX64 = /^[0-9a-f]{64}$/;

const entryOf = (text: string): SignedEntry | undefined => {
  try {
    const e = JSON.parse(text) as Record<string, unknown>;
    if (
      e.format === ENTRY_FORMAT &&
      typeof e.supplier_id === 'string' &&
      typeof e.seq === 'number' &&
      typeof e.prev === 'string' &&
      HEX64.test(e.prev) &&
      typeof e.hash === 'string' &&
      HEX64.test(e.hash) &&
      typeof e.key_id === 'string'
    )
      return e as unknown as SignedEntry;
  } catch {
    // not JSON: not an entry
  }
  return undefined;
};

const hashes = (list: readonly string[]) =>
  list.every((h) => typeof h === 'string' && HEX64.test(h)) ? list.map((h) => Buffer.from(h, 'hex')) : undefined;

/**
 * Checks an inclusion proof with the ledger's public keys alone: the head is signed by one of
 * them; the entry's text is signed by one of them, names the head's supplier and the leaf's
 * place; its content hashes (over the head before it) to the hash it names; and the audit
 * path leads from its leaf to the head's root. Answers the head and the entry when all hold.
 */
export const verifyInclusion = (
  answer: InclusionProofAnswer,
  keys: readonly LedgerPublicKey[],
): Checked<{ head: SignedHead; entry: SignedEntry }> => {
  const read = readSignedHead(answer.checkpoint, keys);
  if (!read.ok) return read;
  const { head } = read;
  if (answer.tree_size !== head.tree_size)
    return {
      ok: false,
      reason: `the proof is for a tree of ${answer.tree_size}, the head signs one of ${head.tree_size}`,
    };
  const entry = entryOf(answer.leaf.text);
  if (!entry) return { ok: false, reason: `the leaf is not a ${ENTRY_FORMAT} text` };
  if (entry.supplier_id !== head.supplier_id || entry.seq !== answer.leaf_index || entry.key_id !== answer.leaf.key_id)
    return { ok: false, reason: "the leaf names another supplier, place or key than the proof's" };
  const key = keys.find((k) => k.keyId === entry.key_id);
  if (!key || !verifyEd25519(key.publicKey, answer.leaf.text, answer.leaf.signature))
    return { ok: false, reason: "the entry's signature does not verify under the ledger's keys" };
  if (
    createHash('sha256')
      .update(entry.prev + answer.leaf.content)
      .digest('hex') !== entry.hash
  )
    return { ok: false, reason: "the entry's content does not hash to the hash it was signed with" };
  const path = hashes(answer.audit_path);
  if (
    !path ||
    !verifyInclusionPath(
      answer.leaf_index,
      answer.tree_size,
      leafHash(answer.leaf.text),
      path,
      Buffer.from(head.root_hash, 'hex'),
    )
  )
    return { ok: false, reason: "the audit path does not lead from the entry's leaf to the head's root" };
  return { ok: true, head, entry };
};

/**
 * Checks that the ledger in `newer` begins with the one in `older`, unchanged: both heads
 * signed by the ledger's keys, of one supplier, and the RFC 9162 consistency proof between
 * their trees (GET /api/v1/balance/proof/consistency?from=<older's tree_size>&to=<newer's>).
 */
export const verifyConsistency = (
  older: SignedCheckpoint,
  newer: SignedCheckpoint,
  proof: readonly string[],
  keys: readonly LedgerPublicKey[],
): Checked<{ older: SignedHead; newer: SignedHead }> => {
  const a = readSignedHead(older, keys);
  if (!a.ok) return { ok: false, reason: `the older head: ${a.reason}` };
  const b = readSignedHead(newer, keys);
  if (!b.ok) return { ok: false, reason: `the newer head: ${b.reason}` };
  if (a.head.supplier_id !== b.head.supplier_id) return { ok: false, reason: "the heads are two suppliers' ledgers" };
  if (a.head.tree_size > b.head.tree_size)
    return {
      ok: false,
      reason: `the newer head holds ${b.head.tree_size} entries, fewer than the ${a.head.tree_size} the older one held: entries were taken away`,
    };
  const path = hashes(proof);
  const ok =
    path !== undefined &&
    verifyConsistencyProof(
      a.head.tree_size,
      b.head.tree_size,
      Buffer.from(a.head.root_hash, 'hex'),
      Buffer.from(b.head.root_hash, 'hex'),
      path,
    );
  if (!ok)
    return {
      ok: false,
      reason: `the ledger of ${b.head.tree_size} entries does not begin with the ${a.head.tree_size} the older head signed: it was rewritten`,
    };
  return { ok: true, older: a.head, newer: b.head };
};
