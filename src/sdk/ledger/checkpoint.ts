import { type LedgerPublicKey, verifyEd25519 } from './keys.js';

/** A signed head as the service hands it out: the exact text signed, and its signature. */
export interface SignedCheckpoint {
  algorithm: 'ed25519';
  key_id: string;
  /** Canonical JSON of the head (`SignedHead` and its `format`): the bytes the signature covers. */
  signed: string;
  /** Ed25519 over the UTF-8 bytes of `signed`, hex. */
  signature: string;
}

export const HEAD_FORMAT = 'svc-ledger-checkpoint/2';

/**
 * What a signed head says: the supplier's ledger when it was signed (`tree_size` entries,
 * their RFC 9162 `root_hash`, the hash chain's `head`), and a view of it as of a moment no
 * later (`as_of_*`: the first `as_of_tree_size` entries, every one posted by `as_of`).
 */
export interface SignedHead {
  supplier_id: string;
  key_id: string;
  signed_at: string;
  tree_size: number;
  root_hash: string;
  head: string;
  last_entry_id: string | null;
  as_of: string;
  as_of_tree_size: number;
  as_of_root_hash: string;
  as_of_head: string;
  as_of_last_entry_id: string | null;
}

export type Checked<T> = ({ ok: true } & T) | { ok: false; reason: string };

const HEX64 = /^[0-9a-f]{64}$/;
const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isTime = (t: unknown): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t));
const isId = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** The head a signed text states, or why it states none. */
const headOf = (text: string): SignedHead | string => {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'the signed text is not JSON';
  }
  if (p === null || typeof p !== 'object' || p.format !== HEAD_FORMAT)
    return `the signed text is not a ${HEAD_FORMAT} head`;
  const fields =
    typeof p.supplier_id === 'string' &&
    typeof p.key_id === 'string' &&
    isTime(p.signed_at) &&
    isSize(p.tree_size) &&
    typeof p.root_hash === 'string' &&
    HEX64.test(p.root_hash) &&
    typeof p.head === 'string' &&
    HEX64.test(p.head) &&
    isId(p.last_entry_id) &&
    isTime(p.as_of) &&
    isSize(p.as_of_tree_size) &&
    typeof p.as_of_root_hash === 'string' &&
    HEX64.test(p.as_of_root_hash) &&
    typeof p.as_of_head === 'string' &&
    HEX64.test(p.as_of_head) &&
    isId(p.as_of_last_entry_id);
  if (!fields) return 'the signed text lacks a field of the head or has one of the wrong kind';
  const head = p as unknown as SignedHead;
  if (head.as_of_tree_size > head.tree_size || Date.parse(head.as_of) > Date.parse(head.signed_at))
    return 'the signed head views a moment after it was signed, or more entries than it holds';
  return head;
};

/**
 * A signed head, believed: its key is one of `keys` (the service's published ones, which a
 * checker holds: no secret), its signature covers its text, and the text is a head.
 */
export const readSignedHead = (
  checkpoint: SignedCheckpoint,
  keys: readonly LedgerPublicKey[],
): Checked<{ head: SignedHead }> => {
  if (checkpoint?.algorithm !== 'ed25519') return { ok: false, reason: 'the head is not signed with ed25519' };
  const key = keys.find((k) => k.keyId === checkpoint.key_id);
  if (!key)
    return {
      ok: false,
      reason: `the head is signed with key ${checkpoint.key_id}, which is not one of the keys given`,
    };
  if (!verifyEd25519(key.publicKey, checkpoint.signed, checkpoint.signature))
    return { ok: false, reason: 'the signature does not verify: the head was changed, or the ledger did not sign it' };
  const head = headOf(checkpoint.signed);
  if (typeof head === 'string') return { ok: false, reason: head };
  if (head.key_id !== checkpoint.key_id)
    return { ok: false, reason: `the text names key ${head.key_id}, not ${checkpoint.key_id}` };
  return { ok: true, head };
};
