import type { LedgerKeyring, SignedCheckpoint } from '../crypto/ledger-signing.js';
import {
  CHECKPOINT_FORMAT_V1,
  type CheckpointClaim,
  GENESIS,
  readCheckpointText,
  type SignedHeadClaim,
  signedHeadText,
} from '../domain/ledger-chain.js';
import { readSignedHead, type SignedHead } from '../sdk/ledger/checkpoint.js';
import { leafHash, rootOf } from '../sdk/ledger/merkle.js';
import { type EventStore, pagesOf, START } from '../eventstore/port.js';
import { BALANCE_EVENT_TYPES } from '../projections/ledger.js';
import {
  type AcceptedEvent,
  accepted as acceptedEntry,
  type CheckedEvent,
  type LedgerBook,
} from '../projections/ledger-book.js';

/** A stored entry the ledger does not accept, and why. */
export interface RefusedEntry {
  supplierId: string;
  entryId: string;
  eventId: string;
  revision: number;
  reason: string;
}

export interface VerifyReport {
  suppliers: number;
  /** Entries accepted: each signed by the service where it stands. */
  entries: number;
  /** Of those, the entries an older release wrote, signed when the ledger was upgraded. */
  adopted: number;
  /** Every entry refused, in each supplier's order. */
  refused: RefusedEntry[];
  /** The head of each supplier's accepted entries. */
  heads: Map<string, { hash: string; entries: number }>;
}

const refusedOf = (supplierId: string, e: CheckedEvent): RefusedEntry => ({
  supplierId,
  entryId: e.data?.entryId ?? '(unknown)',
  eventId: e.id,
  revision: e.revision,
  reason: e.refused ?? '',
});

const PAGE = 5000;

/**
 * Checks every supplier's stored entries (through the event store's port, never a read
 * model) as the ledger reads them (`LedgerBook`): each must carry the service's signature
 * over its content, its place and the head before it. Names every entry refused.
 */
export const verifyLedger = async (
  store: EventStore,
  book: LedgerBook,
  options: { supplierId?: string } = {},
): Promise<VerifyReport> => {
  const report: VerifyReport = { suppliers: 0, entries: 0, adopted: 0, refused: [], heads: new Map() };
  const streams = new Map<string, CheckedEvent[]>();
  if (options.supplierId) streams.set(options.supplierId, await book.entries(options.supplierId));
  else
    for await (const page of pagesOf(store, START, PAGE))
      for (const e of page) {
        if (!BALANCE_EVENT_TYPES.has(e.type) || !e.streamId.startsWith('balance-')) continue;
        const supplierId = e.streamId.slice('balance-'.length);
        const list = streams.get(supplierId);
        if (list) list.push(e as CheckedEvent);
        else streams.set(supplierId, [e as CheckedEvent]);
      }
  for (const [supplierId, events] of [...streams].sort(([a], [b]) => a.localeCompare(b))) {
    if (events.length === 0) continue;
    report.suppliers++;
    let head = { hash: GENESIS, entries: 0 };
    for (const e of [...events].sort((a, b) => a.revision - b.revision)) {
      if (e.refused) {
        report.refused.push(refusedOf(supplierId, e));
        continue;
      }
      report.entries++;
      if (e.data.chain?.signature === undefined) report.adopted++;
      head = { hash: acceptedEntry(e).chainHead, entries: head.entries + 1 };
    }
    report.heads.set(supplierId, head);
  }
  return report;
};

/**
 * The signed checkpoint in what a supplier kept: the answer of GET /balance/proof, a
 * `ledger.checkpoint` webhook's envelope or its `data`, a statement, or the checkpoint alone.
 */
export const checkpointIn = (text: string): SignedCheckpoint | { error: string } => {
  let kept: unknown;
  try {
    kept = JSON.parse(text);
  } catch {
    return { error: 'the checkpoint file is not JSON' };
  }
  const at = (value: unknown, key: string) =>
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  for (const candidate of [kept, at(kept, 'checkpoint'), at(at(kept, 'data'), 'checkpoint')]) {
    const signed = at(candidate, 'signed');
    const signature = at(candidate, 'signature');
    if (typeof signed === 'string' && typeof signature === 'string')
      return {
        algorithm: at(candidate, 'algorithm') as 'ed25519',
        key_id: String(at(candidate, 'key_id')),
        signed,
        signature,
      };
  }
  return { error: 'the file holds no signed checkpoint (an object with `signed` and `signature`)' };
};

/** What a kept checkpoint claims, in either format: the entries it covers and their head. */
export interface KeptClaim {
  supplierId: string;
  keyId: string;
  /** The entries the head covers (a v2 head: the ledger when it was signed). */
  entries: number;
  head: string;
  lastEntryId: string | null;
  /** v2: the Merkle root over those entries. */
  rootHash?: string;
  /** v2: when it was signed. */
  signedAt?: string;
  /** The moment viewed (v1: the moment its head was taken as of). */
  asOf: string;
  /** v2: the view as of `asOf`. */
  view?: { entries: number; head: string; rootHash: string; lastEntryId: string | null };
}

export interface CheckpointReport {
  /** Why the checkpoint itself is not believed (its key, its signature, its text); nothing was compared. */
  refused?: string;
  claim?: KeptClaim;
  /** The first stored entry that no longer matches what the checkpoint covers. */
  mismatch?: { entryId: string; eventId: string | null; revision: number; reason: string };
  /** Entries refused after those the checkpoint covers. */
  refusedAfter: RefusedEntry[];
  /** Entries dated at or before the checkpoint's `as_of` that its view did not hold: written later, backdated. */
  backdated: RefusedEntry[];
  /** The ledger's accepted entries now (after the checkpoint's too). */
  entries: number;
}

const claimOfV1 = (c: CheckpointClaim): KeptClaim => ({
  supplierId: c.supplierId,
  keyId: c.keyId,
  entries: c.entries,
  head: c.head,
  lastEntryId: c.lastEntryId,
  asOf: c.asOf,
});

const claimOfV2 = (h: SignedHead): KeptClaim => ({
  supplierId: h.supplier_id,
  keyId: h.key_id,
  entries: h.tree_size,
  head: h.head,
  lastEntryId: h.last_entry_id,
  rootHash: h.root_hash,
  signedAt: h.signed_at,
  asOf: h.as_of,
  view: {
    entries: h.as_of_tree_size,
    head: h.as_of_head,
    rootHash: h.as_of_root_hash,
    lastEntryId: h.as_of_last_entry_id,
  },
});

/** The checkpoint's claim, if its key is one of the ledger's and its signature holds. */
const believed = (keyring: LedgerKeyring, checkpoint: SignedCheckpoint): KeptClaim | { refused: string } => {
  if (checkpoint.algorithm !== 'ed25519')
    return { refused: `it is signed with ${String(checkpoint.algorithm)}; the ledger signs with ed25519` };
  const verified = keyring.verify(checkpoint.key_id, checkpoint.signed, checkpoint.signature);
  if (verified === 'unknown')
    return {
      refused: `it is signed with key ${checkpoint.key_id}, which is not one of the ledger's public keys (${keyring.published.map((k) => k.key_id).join(', ')})`,
    };
  if (!verified)
    return { refused: 'its signature does not verify: the checkpoint was changed, or the ledger did not sign it' };
  if (checkpoint.signed.includes(`"format":"${CHECKPOINT_FORMAT_V1}"`)) {
    const claim = readCheckpointText(checkpoint.signed);
    if ('error' in claim) return { refused: claim.error };
    if (claim.keyId !== checkpoint.key_id)
      return { refused: `its text names key ${claim.keyId}, not ${checkpoint.key_id}` };
    return claimOfV1(claim);
  }
  const keys = keyring.published.map((k) => ({ keyId: k.key_id, publicKey: k.public_key }));
  const read = readSignedHead(checkpoint, keys);
  if (!read.ok) return { refused: read.reason };
  const { format: _format, ...claim } = JSON.parse(checkpoint.signed) as SignedHeadClaim & { format: string };
  // the text is the canonical one of what it says, byte for byte
  if (signedHeadText(claim) !== checkpoint.signed) return { refused: 'the signed text is not in its canonical form' };
  return claimOfV2(read.head);
};

const entryOf = (e: CheckedEvent) => ({ entryId: e.data?.entryId ?? '(unknown)', eventId: e.id, revision: e.revision });

/** Where the ledger's first `size` accepted entries no longer give `head` (and `root`): the last of them is named. */
const covered = (
  accepted: AcceptedEvent[],
  texts: string[],
  what: string,
  size: number,
  head: string,
  lastEntryId: string | null,
  root: string | undefined,
): CheckpointReport['mismatch'] => {
  if (size === 0)
    return head === GENESIS
      ? undefined
      : {
          entryId: '(none)',
          eventId: null,
          revision: -1,
          reason: `is not there: ${what} covers no entry but its head is not the empty chain's`,
        };
  const last = accepted[size - 1];
  if (!last)
    return {
      entryId: lastEntryId ?? '(unknown)',
      eventId: null,
      revision: size - 1,
      reason: `is gone: ${what} covers ${size} entries and the ledger holds ${accepted.length}, entries were deleted`,
    };
  const rootNow = root === undefined ? undefined : rootOf(texts.slice(0, size).map((t) => leafHash(t))).toString('hex');
  if (last.chainHead !== head || (root !== undefined && rootNow !== root))
    return {
      ...entryOf(last),
      reason: `is the last entry ${what} covers and the head after it is ${last.chainHead.slice(0, 12)}…, where ${what} signed ${head.slice(0, 12)}…: it or an entry before it was rewritten, links, signatures and all`,
    };
  if (last.data.entryId !== lastEntryId)
    return { ...entryOf(last), reason: `stands where ${what}'s last entry ${lastEntryId} stood` };
  return undefined;
};

/**
 * Checks a supplier's ledger against a checkpoint it kept, with the ledger's public keys only:
 * the checkpoint's signature first, then the supplier's stored entries as the ledger reads
 * them. A refused entry among those it covers is named with why; a rewrite that kept every
 * signature (only the key's holder can) shows in the head and the Merkle root, and the last
 * entry covered is named (a single head cannot say which entry before it changed); fewer
 * entries than it covers were deleted. A head of the time-bound format checks its view as
 * of `as_of` too, and names every entry dated at or before `as_of` that the view did not
 * hold: an entry written after it with an earlier date.
 */
export const verifyCheckpoint = async (book: LedgerBook, checkpoint: SignedCheckpoint): Promise<CheckpointReport> => {
  const claim = believed(book.keyring, checkpoint);
  if ('refused' in claim) return { refused: claim.refused, refusedAfter: [], backdated: [], entries: 0 };
  const events = await book.entries(claim.supplierId);
  const report: CheckpointReport = { claim, refusedAfter: [], backdated: [], entries: 0 };
  const accepted: AcceptedEvent[] = [];
  for (const event of events) {
    if (!event.refused) {
      accepted.push(acceptedEntry(event));
      continue;
    }
    if (accepted.length < claim.entries) return { ...report, mismatch: { ...entryOf(event), reason: event.refused } };
    report.refusedAfter.push(refusedOf(claim.supplierId, event));
  }
  report.entries = accepted.length;
  const texts = accepted.map((e) => e.entryText);
  const mismatch =
    covered(accepted, texts, 'the checkpoint', claim.entries, claim.head, claim.lastEntryId, claim.rootHash) ??
    (claim.view &&
      covered(
        accepted,
        texts,
        `the checkpoint's view as of ${claim.asOf}`,
        claim.view.entries,
        claim.view.head,
        claim.view.lastEntryId,
        claim.view.rootHash,
      ));
  if (mismatch) return { ...report, mismatch };
  const view = claim.view;
  if (view) {
    const asOf = Date.parse(claim.asOf);
    report.backdated = accepted
      .slice(view.entries)
      .filter((e) => Date.parse(e.data.at) <= asOf)
      .map((e) => ({
        supplierId: claim.supplierId,
        ...entryOf(e),
        reason: `is dated ${e.data.at}, at or before the checkpoint's as_of ${claim.asOf}, and is not among the ${view.entries} entries it held then: it was written after the checkpoint with an earlier date`,
      }));
  }
  return report;
};
