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

/** Adds each new event's link, continuing from the stream's head. */
export const chainEvents = <E extends { type: string; data: object }>(
  head: string,
  length: number,
  events: E[],
): E[] => {
  let prev = head;
  return events.map((event, i) => {
    const hash = linkHash(prev, event);
    const chained = { ...event, data: { ...event.data, chain: { seq: length + i, prev, hash } } };
    prev = hash;
    return chained;
  });
};

/** One stored entry as the chain's walk sees it: its place in the stream and its content. */
export interface StoredEntry {
  revision: number;
  type: string;
  data: unknown;
}

/** Where a walk over a supplier's stored entries stopped trusting them, and why. */
export interface ChainFault {
  /** The entry's place in the stream (0 for the first). */
  index: number;
  reason: string;
}

/**
 * Follows one supplier's stored entries in stream order: `step` answers the head after
 * the entry, or the chain's first fault (then every later step answers it too). Entries
 * older than the chain carry no link and are hashed into the head, but only before the
 * first linked one: once a supplier's chain has begun every entry is written with its link,
 * so an entry without one after it had its link removed (an edit that hoped to pass as
 * an old entry).
 */
export const chainWalk = () => {
  let head = GENESIS;
  let index = 0;
  let unchained = 0;
  /** The first linked entry's place, once there is one. */
  let began: number | undefined;
  let fault: ChainFault | undefined;
  const step = (entry: StoredEntry): { head: string } | { fault: ChainFault } => {
    if (fault) return { fault };
    const broken = (reason: string) => ({ fault: (fault = { index, reason }) });
    if (entry.revision !== index)
      return broken(
        `is at revision ${entry.revision} where revision ${index} was expected: ${entry.revision > index ? 'an entry before it was deleted' : 'entries were reordered'}`,
      );
    const hash = linkHash(head, entry);
    const link = (entry.data as { chain?: ChainLink } | null)?.chain;
    if (link) {
      if (link.seq !== index)
        return broken(
          `was written as entry #${link.seq} of the chain and is stored as #${index}: entries were deleted or reordered`,
        );
      if (link.prev !== head)
        return broken(
          `does not follow the entry before it (its previous hash is ${link.prev.slice(0, 12)}…, the chain's is ${head.slice(0, 12)}…): an entry before it was changed`,
        );
      if (link.hash !== hash)
        return broken(`its stored content does not match its hash: it was changed after it was written`);
      began ??= index;
    } else if (began !== undefined)
      return broken(
        `carries no link though the chain began at entry #${began} before it: its link was removed, it was tampered with`,
      );
    else unchained++;
    head = hash;
    index++;
    return { head };
  };
  return {
    step,
    /** The head after the last entry stepped over (before any fault), and how many it covers. */
    get head() {
      return { hash: head, entries: index };
    },
    /** Entries older than the chain: covered by the first link after them, not checked alone. */
    get unchained() {
      return unchained;
    },
    get fault() {
      return fault;
    },
  };
};

/** Names the signed text's shape: a verifier refuses a text of another version. */
export const CHECKPOINT_FORMAT = 'svc-ledger-checkpoint/1';

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
    format: CHECKPOINT_FORMAT,
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
  if (p === null || typeof p !== 'object' || p.format !== CHECKPOINT_FORMAT)
    return { error: `the signed text is not a ${CHECKPOINT_FORMAT} checkpoint` };
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
