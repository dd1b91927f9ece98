import type { LedgerKeyring, SignedCheckpoint } from '../crypto/ledger-signing.js';
import { type CheckpointClaim, GENESIS, readCheckpointText } from '../domain/ledger-chain.js';
import { type EventStore, pagesOf, START } from '../eventstore/port.js';
import { BALANCE_EVENT_TYPES } from '../projections/ledger.js';
import type { CheckedEvent, LedgerBook } from '../projections/ledger-book.js';

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
      head = { hash: e.chainHead!, entries: head.entries + 1 };
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

export interface CheckpointReport {
  /** Why the checkpoint itself is not believed (its key, its signature, its text); nothing was compared. */
  refused?: string;
  claim?: CheckpointClaim;
  /** The first stored entry that no longer matches what the checkpoint covers. */
  mismatch?: { entryId: string; eventId: string | null; revision: number; reason: string };
  /** Entries refused after those the checkpoint covers. */
  refusedAfter: RefusedEntry[];
  /** The ledger's accepted entries now (after the checkpoint's too). */
  entries: number;
}

/** The checkpoint's claim, if its key is one of the ledger's and its signature holds. */
const believed = (keyring: LedgerKeyring, checkpoint: SignedCheckpoint): CheckpointClaim | { refused: string } => {
  if (checkpoint.algorithm !== 'ed25519')
    return { refused: `it is signed with ${String(checkpoint.algorithm)}; the ledger signs with ed25519` };
  const verified = keyring.verify(checkpoint.key_id, checkpoint.signed, checkpoint.signature);
  if (verified === 'unknown')
    return {
      refused: `it is signed with key ${checkpoint.key_id}, which is not one of the ledger's public keys (${keyring.published.map((k) => k.key_id).join(', ')})`,
    };
  if (!verified)
    return { refused: 'its signature does not verify: the checkpoint was changed, or the ledger did not sign it' };
  const claim = readCheckpointText(checkpoint.signed);
  if ('error' in claim) return { refused: claim.error };
  if (claim.keyId !== checkpoint.key_id)
    return { refused: `its text names key ${claim.keyId}, not ${checkpoint.key_id}` };
  return claim;
};

/**
 * Checks a supplier's ledger against a checkpoint it kept, with the ledger's public keys only:
 * the checkpoint's signature first, then the supplier's stored entries as the ledger reads
 * them, up to the head the checkpoint covers. A refused entry among those it covers is named
 * with why; a rewrite that kept every signature (only the key's holder can) shows in the
 * head, and the last entry the checkpoint covers is named (a single head cannot say which
 * entry before it changed); fewer entries than it covers were deleted.
 */
export const verifyCheckpoint = async (book: LedgerBook, checkpoint: SignedCheckpoint): Promise<CheckpointReport> => {
  const claim = believed(book.keyring, checkpoint);
  if ('refused' in claim) return { refused: claim.refused, refusedAfter: [], entries: 0 };
  const events = await book.entries(claim.supplierId);
  const report: CheckpointReport = { claim, refusedAfter: [], entries: 0 };
  for (const event of events) {
    const entry = { entryId: event.data?.entryId ?? '(unknown)', eventId: event.id, revision: event.revision };
    if (event.refused) {
      if (report.entries < claim.entries) return { ...report, mismatch: { ...entry, reason: event.refused } };
      report.refusedAfter.push(refusedOf(claim.supplierId, event));
      continue;
    }
    report.entries++;
    if (report.entries !== claim.entries) continue;
    if (event.chainHead !== claim.head)
      return {
        ...report,
        mismatch: {
          ...entry,
          reason: `is the last entry the checkpoint covers and the head after it is ${event.chainHead!.slice(0, 12)}…, where the checkpoint signed ${claim.head.slice(0, 12)}…: it or an entry before it was rewritten, links, signatures and all`,
        },
      };
    if (entry.entryId !== claim.lastEntryId)
      return {
        ...report,
        mismatch: { ...entry, reason: `stands where the checkpoint's last entry ${claim.lastEntryId} stood` },
      };
  }
  if (report.entries < claim.entries)
    return {
      ...report,
      mismatch: {
        entryId: claim.lastEntryId ?? '(unknown)',
        eventId: null,
        revision: claim.entries - 1,
        reason: `is gone: the checkpoint covers ${claim.entries} entries and the ledger holds ${report.entries}, entries were deleted`,
      },
    };
  if (claim.entries === 0 && claim.head !== GENESIS)
    return { ...report, refused: "it covers no entry but its head is not the empty chain's" };
  return report;
};
