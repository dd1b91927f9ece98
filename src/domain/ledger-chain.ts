import { hash } from 'node:crypto';

/**
 * The tamper-evident chain over one supplier's ledger: each entry's hash is
 * sha256(previous hash + canonical content of this entry). Changing, deleting or reordering
 * one stored entry breaks every link from it on; a supplier who kept a head (the proof)
 * can later show that the history it covers was not rewritten. Pure: hashing is
 * computation, not I/O.
 */
export interface ChainLink {
  /** 0 for a supplier's first entry. */
  seq: number;
  prev: string;
  hash: string;
  /** The key that signed the link, and its signature over `entryText` (absent before entries were signed). */
  keyId?: string;
  signature?: string;
  /**
   * The signer's own seal over the text and the signature (`EntrySigner.seal`): lets another
   * instance holding the same key accept the signature without verifying it. Absent on
   * entries written before; never part of what the hash or the signature covers.
   */
  seal?: string;
}

/** The head before any entry. */
export const GENESIS = '0'.repeat(64);

/**
 * JSON with object keys sorted at every depth: the same content always gives the same text.
 * Built in one pass per value (every ledger event is hashed when decided and when folded).
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // as Array.join writes it: nothing for a value JSON has no text for
      out += (canonicalJson(value[i]) as string | undefined) ?? '';
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '{';
    for (const key of Object.keys(record).sort()) {
      const field = record[key];
      if (field === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${canonicalJson(field)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
};

/** What an entry's hash covers: its type and data, without its own link. */
export const chainContent = (event: { type: string; data: unknown }) => {
  const { chain: _link, ...data } = event.data as Record<string, unknown>;
  return canonicalJson({ type: event.type, data });
};

/** The head after `event`, from the head before it. */
export const linkHash = (prev: string, event: { type: string; data: unknown }) =>
  hash('sha256', prev + chainContent(event), 'hex');

/** Names an entry's signed text: a verifier refuses a text of another version. */
export const ENTRY_FORMAT = 'svc-ledger-entry/1';

/** What an entry's signature covers: the entry (through its hash), its place and the link before it. */
export interface EntryClaim {
  supplierId: string;
  seq: number;
  prev: string;
  hash: string;
  keyId: string;
}

/**
 * The exact text an entry's signature covers (its UTF-8 bytes): canonical JSON of `{format,
 * hash, key_id, prev, seq, supplier_id}`. It is also the entry's leaf in the supplier's
 * Merkle tree (src/sdk/ledger/merkle.ts), so an inclusion proof proves the signed entry.
 */
export const entryText = (c: EntryClaim): string =>
  canonicalJson({
    format: ENTRY_FORMAT,
    supplier_id: c.supplierId,
    seq: c.seq,
    prev: c.prev,
    hash: c.hash,
    key_id: c.keyId,
  });

/** Signs entry texts with the ledger's current key (src/crypto/ledger-signing.ts): computation, not I/O. */
export interface EntrySigner {
  readonly keyId: string;
  /** The Ed25519 signature over the UTF-8 bytes of `text`, hex. */
  sign(text: string): string;
  /** A keyed MAC over `text` and the signature this signer made of it (src/crypto/ledger-signing.ts). */
  seal?(text: string, signature: string): string;
}

/** A link's key id, signature over `entryText` and the signer's seal, if it seals. */
const signedLink = (signer: EntrySigner, claim: EntryClaim) => {
  const text = entryText(claim);
  const signature = signer.sign(text);
  return { keyId: signer.keyId, signature, ...(signer.seal && { seal: signer.seal(text, signature) }) };
};

/**
 * Adds each new event's link, continuing from the stream's head, signed with `signer`: the
 * link carries its key's id, the signature over `entryText` and the signer's seal.
 */
export const chainEvents = <E extends { type: string; data: object }>(
  head: string,
  length: number,
  events: E[],
  supplierId?: string,
  signer?: EntrySigner,
): E[] => {
  let prev = head;
  return events.map((event, i) => {
    const hash = linkHash(prev, event);
    const seq = length + i;
    const signed =
      signer && supplierId !== undefined
        ? signedLink(signer, { supplierId, seq, prev, hash, keyId: signer.keyId })
        : {};
    const chained = { ...event, data: { ...event.data, chain: { seq, prev, hash, ...signed } } };
    prev = hash;
    return chained;
  });
};

/** Checks entry signatures against the ledger's published keys (src/crypto/ledger-signing.ts). */
export interface EntryVerifier {
  /**
   * Whether `signature` is `keyId`'s over `text`; `unknown` for a key id that is not one of the
   * ledger's. `seal`, the entry's seal if it has one, may stand for the verification where the
   * verifier holds the signing key's seal (an instance of the service), never otherwise.
   */
  verify(keyId: string, text: string, signature: string, seal?: string): boolean | 'unknown';
}

/**
 * The signatures the upgrade made for a supplier's entries that an older release wrote
 * unsigned (src/commands/older-data.ts): by place, from the first entry on.
 */
export interface Adopted {
  keyId: string;
  signatures: readonly string[];
}

/** One stored entry as the walk sees it: its content and its link, if it has one. */
export interface StoredEntry {
  type: string;
  data: unknown;
}

/** An entry's place in the ledger the walk accepts, or why it is not part of it. */
export type Verdict =
  | { accepted: true; seq: number; prev: string; hash: string; keyId: string; text: string }
  | { accepted: false; reason: string };

/** Where a walk stands: the accepted entries' count and head. */
export interface WalkState {
  size: number;
  head: string;
}

export const EMPTY_LEDGER: WalkState = { size: 0, head: GENESIS };

/**
 * Why an entry whose signature fails where it stands is refused, said from what its own
 * link claims: whether the ledger signed that link (a genuine entry out of its place) and
 * whether the content still hashes to it (changed, or rewritten without the key).
 */
const refusal = (
  supplierId: string,
  verifier: EntryVerifier,
  entry: StoredEntry,
  link: ChainLink | undefined,
  at: WalkState,
  signed: { keyId: string; signature: string },
): string => {
  if (!link)
    return `its signature (the upgrade's, for entry #${at.size}) does not verify: it was changed or put in after the upgrade`;
  const own = entryText({ supplierId, seq: link.seq, prev: link.prev, hash: link.hash, keyId: signed.keyId });
  const genuine = verifier.verify(signed.keyId, own, signed.signature) === true;
  const intact = linkHash(link.prev, entry) === link.hash;
  if (genuine && !intact)
    return 'its stored content does not match what was signed: it was changed after it was written';
  if (!genuine)
    return intact
      ? `its signature does not verify under key ${signed.keyId}: it was written or rewritten without the ledger's key`
      : 'its stored content matches neither its link nor its signature: it was changed after it was written';
  if (link.seq !== at.size)
    return `is the ledger's entry #${link.seq} as signed, and stands where entry #${at.size} belongs: an entry before it was deleted, changed or moved`;
  return `is the ledger's entry #${link.seq} as signed, after a head ${link.prev.slice(0, 12)}… where the ledger's is ${at.head.slice(0, 12)}…: an entry before it was changed or replaced`;
};

/**
 * Follows one supplier's stored entries in stream order and accepts an entry only when a
 * signature of the ledger's over its text, as the walk computes it, verifies: its content
 * (hashed over the head before it), its place (the count of entries accepted before it)
 * and the head it follows. So one check says both that the service wrote the entry and that
 * it continues the ledger as accepted so far. An entry an older release wrote unsigned is
 * checked against the upgrade's signature for its place (`adopted`); one with neither is
 * refused. A refused entry changes nothing: the next one is checked against the head before
 * it, so an entry put in from elsewhere is skipped and the ledger goes on, while after a
 * changed or deleted entry nothing later continues the head (every later entry is refused).
 */
export const ledgerWalk = (supplierId: string, verifier: EntryVerifier, adopted?: Adopted, from = EMPTY_LEDGER) => {
  let at: WalkState = from;
  const step = (entry: StoredEntry): Verdict => {
    const hash = linkHash(at.head, entry);
    const link = (entry.data as { chain?: ChainLink } | null)?.chain;
    const signed =
      link?.signature !== undefined && link.keyId !== undefined
        ? { keyId: link.keyId, signature: link.signature }
        : link?.signature === undefined && adopted?.signatures[at.size] !== undefined
          ? { keyId: adopted.keyId, signature: adopted.signatures[at.size]! }
          : undefined;
    if (!signed)
      return {
        accepted: false,
        reason: link
          ? 'carries no signature and was not signed when the ledger was upgraded: it was put in from elsewhere'
          : 'carries no link nor signature and was not signed when the ledger was upgraded: it was put in from elsewhere',
      };
    const text = entryText({ supplierId, seq: at.size, prev: at.head, hash, keyId: signed.keyId });
    // the seal goes with the entry's own signature only, never with an adopted one
    const seal = link?.signature !== undefined ? link.seal : undefined;
    const verified = verifier.verify(signed.keyId, text, signed.signature, seal);
    if (verified === 'unknown')
      return {
        accepted: false,
        reason: `is signed with key ${signed.keyId}, which is not one of the ledger's keys (SVC_LEDGER_SIGNING_KEY, SVC_LEDGER_RETIRED_KEYS): it was not written by this service`,
      };
    if (!verified) return { accepted: false, reason: refusal(supplierId, verifier, entry, link, at, signed) };
    const accepted = { accepted: true as const, seq: at.size, prev: at.head, hash, keyId: signed.keyId, text };
    at = { size: at.size + 1, head: hash };
    return accepted;
  };
  return {
    step,
    get state(): WalkState {
      return at;
    },
  };
};

/** Names the signed text's shape: a verifier refuses a text of another version. */
export const CHECKPOINT_FORMAT = 'svc-ledger-checkpoint/2';
/** The shape signed before checkpoints were tied to time and to the Merkle tree: still verified. */
export const CHECKPOINT_FORMAT_V1 = 'svc-ledger-checkpoint/1';

/**
 * What a signed head says (svc-ledger-checkpoint/2): the supplier's ledger as it stands when
 * signed (its size, Merkle root and chain head), and a view of it at a moment no later (the
 * entries posted by `as_of`, a prefix of the same log). A head for a past moment thus
 * carries today's head too: two heads that disagree about the past show it, and which was
 * signed first.
 */
export interface SignedHeadClaim {
  supplier_id: string;
  key_id: string;
  /** ISO 8601 UTC: the service's clock when it signed. */
  signed_at: string;
  tree_size: number;
  /** RFC 9162 root over the entries' signed texts, hex. */
  root_hash: string;
  /** The hash chain's head after `tree_size` entries. */
  head: string;
  last_entry_id: string | null;
  /** ISO 8601 UTC, at or before `signed_at`: the view covers every entry posted at or before it. */
  as_of: string;
  as_of_tree_size: number;
  as_of_root_hash: string;
  as_of_head: string;
  as_of_last_entry_id: string | null;
}

/** The exact text a signed head's signature covers: canonical JSON of the claim and its format. */
export const signedHeadText = (claim: SignedHeadClaim): string =>
  canonicalJson({ format: CHECKPOINT_FORMAT, ...claim });

/** What a signed checkpoint says: a supplier's chain head at a moment, and the key that signs it. */
export interface CheckpointClaim {
  supplierId: string;
  /** How many ledger entries the head covers (the next entry's `seq`). */
  entries: number;
  head: string;
  lastEntryId: string | null;
  /** ISO 8601 UTC: the head covers every entry posted at or before it. */
  asOf: string;
  keyId: string;
}

/**
 * The exact text a checkpoint's signature covers (its UTF-8 bytes): canonical JSON (keys
 * sorted, no whitespace) of `{as_of, entries, format, head, key_id, last_entry_id,
 * supplier_id}`. The text travels with the signature, so a verifier checks the bytes it
 * was given and then reads them; it never has to rebuild them.
 */
export const checkpointText = (c: CheckpointClaim): string =>
  canonicalJson({
    format: CHECKPOINT_FORMAT_V1,
    supplier_id: c.supplierId,
    entries: c.entries,
    head: c.head,
    last_entry_id: c.lastEntryId,
    as_of: c.asOf,
    key_id: c.keyId,
  });

/** A signed text read back: the claim it makes, or why it is not one. */
export const readCheckpointText = (text: string): CheckpointClaim | { error: string } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'the signed text is not JSON' };
  }
  const p = parsed as Record<string, unknown>;
  if (p === null || typeof p !== 'object' || p.format !== CHECKPOINT_FORMAT_V1)
    return { error: `the signed text is not a ${CHECKPOINT_FORMAT_V1} checkpoint` };
  const { supplier_id, entries, head, last_entry_id, as_of, key_id } = p;
  if (
    typeof supplier_id !== 'string' ||
    typeof entries !== 'number' ||
    !Number.isSafeInteger(entries) ||
    entries < 0 ||
    typeof head !== 'string' ||
    !/^[0-9a-f]{64}$/.test(head) ||
    (last_entry_id !== null && typeof last_entry_id !== 'string') ||
    typeof as_of !== 'string' ||
    typeof key_id !== 'string'
  )
    return { error: 'the signed text lacks a field of the checkpoint or has one of the wrong kind' };
  const claim = { supplierId: supplier_id, entries, head, lastEntryId: last_entry_id, asOf: as_of, keyId: key_id };
  // the text is the canonical one of what it says, byte for byte: nothing rides along unsigned-looking
  if (checkpointText(claim) !== text) return { error: 'the signed text is not in its canonical form' };
  return claim;
};
