import type { BalanceEvent } from '../domain/balance.js';
import { type LedgerSigningKey, type SignedCheckpoint, verifyCheckpointSignature } from '../crypto/ledger-signing.js';
import { type CheckpointClaim, chainWalk, GENESIS, readCheckpointText } from '../domain/ledger-chain.js';
import { type EventStore, pagesOf, type RecordedEvent, START } from '../eventstore/port.js';
import { BALANCE_EVENT_TYPES } from '../projections/ledger.js';
import { balanceStreamOf } from '../projections/ledger-history.js';

export interface ChainBreak {
  supplierId: string;
  entryId: string;
  eventId: string;
  revision: number;
  reason: string;
}

export interface VerifyReport {
  suppliers: number;
  entries: number;
  /** Entries written before the chain existed: covered by the next link, not checked alone. */
  unchained: number;
  /** The first break of each supplier's chain. */
  breaks: ChainBreak[];
  /** The head of each supplier whose chain holds. */
  heads: Map<string, { hash: string; entries: number }>;
}

type B = RecordedEvent<BalanceEvent['data']>;

/** Walks one supplier's chain in stream order; stops at its first break. */
const verifyStream = (supplierId: string, events: B[], report: VerifyReport) => {
  const walk = chainWalk();
  for (const event of events) {
    const step = walk.step(event);
    if ('fault' in step) {
      report.breaks.push({
        supplierId,
        entryId: event.data?.entryId ?? '(unknown)',
        eventId: event.id,
        revision: event.revision,
        reason: step.fault.reason,
      });
      break;
    }
    report.entries++;
  }
  report.unchained += walk.unchained;
  if (!walk.fault) report.heads.set(supplierId, walk.head);
};

const PAGE = 5000;

/**
 * Recomputes every supplier's hash chain from the event store (through its port, never a
 * read model) and reports the first break of each: an entry changed, deleted or reordered.
 */
export const verifyLedger = async (store: EventStore, options: { supplierId?: string } = {}): Promise<VerifyReport> => {
  const report: VerifyReport = { suppliers: 0, entries: 0, unchained: 0, breaks: [], heads: new Map() };
  const streams = new Map<string, B[]>();
  if (options.supplierId)
    streams.set(options.supplierId, (await store.readStream(balanceStreamOf(options.supplierId))) as B[]);
  else
    for await (const page of pagesOf(store, START, PAGE))
      for (const e of page) {
        if (!BALANCE_EVENT_TYPES.has(e.type) || !e.streamId.startsWith('balance-')) continue;
        const supplierId = e.streamId.slice('balance-'.length);
        const list = streams.get(supplierId);
        if (list) list.push(e as B);
        else streams.set(supplierId, [e as B]);
      }
  for (const [supplierId, events] of [...streams].sort(([a], [b]) => a.localeCompare(b))) {
    if (events.length === 0) continue;
    report.suppliers++;
    // the store's order within a stream is its revision order; a reordering shows in the links
    verifyStream(
      supplierId,
      [...events].sort((a, b) => a.revision - b.revision),
      report,
    );
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
  /** The first stored entry that no longer matches what the checkpoint covers, or that breaks the chain. */
  mismatch?: { entryId: string; eventId: string | null; revision: number; reason: string };
  /** The ledger's entries now (after the checkpoint's too). */
  entries: number;
}

/**
 * Checks a supplier's ledger against a checkpoint it kept: the checkpoint's signature under
 * this service's key first, then the supplier's stored entries, walked as `ledger verify`
 * does, up to the head the checkpoint covers. A stored link that fails names its entry; a
 * rewrite that recomputed every link after its change shows only in the head, and the
 * last entry the checkpoint covers is named (a single head cannot say which entry before
 * it changed); fewer entries than the checkpoint covers were deleted.
 */
export const verifyCheckpoint = async (
  store: EventStore,
  key: LedgerSigningKey,
  checkpoint: SignedCheckpoint,
): Promise<CheckpointReport> => {
  if (checkpoint.algorithm !== 'ed25519' || checkpoint.key_id !== key.keyId)
    return {
      refused: `it is signed with ${checkpoint.algorithm} key ${checkpoint.key_id}; this service signs with ed25519 key ${key.keyId}`,
      entries: 0,
    };
  if (!verifyCheckpointSignature(key.publicKey, checkpoint.signed, checkpoint.signature))
    return {
      refused: 'its signature does not verify: the checkpoint was changed, or this service did not sign it',
      entries: 0,
    };
  const claim = readCheckpointText(checkpoint.signed);
  if ('error' in claim) return { refused: claim.error, entries: 0 };
  const events = ((await store.readStream(balanceStreamOf(claim.supplierId))) as B[])
    .filter((e) => BALANCE_EVENT_TYPES.has(e.type))
    .sort((a, b) => a.revision - b.revision);
  const report: CheckpointReport = { claim, entries: events.length };
  const walk = chainWalk();
  for (const [index, event] of events.entries()) {
    const entry = { entryId: event.data?.entryId ?? '(unknown)', eventId: event.id, revision: event.revision };
    const step = walk.step(event);
    if ('fault' in step) return { ...report, mismatch: { ...entry, reason: step.fault.reason } };
    if (index !== claim.entries - 1) continue;
    if (step.head !== claim.head)
      return {
        ...report,
        mismatch: {
          ...entry,
          reason: `is the last entry the checkpoint covers and the head after it is ${step.head.slice(0, 12)}…, where the checkpoint signed ${claim.head.slice(0, 12)}…: it or an entry before it was rewritten, links and all`,
        },
      };
    if (entry.entryId !== claim.lastEntryId)
      return {
        ...report,
        mismatch: { ...entry, reason: `stands where the checkpoint's last entry ${claim.lastEntryId} stood` },
      };
  }
  if (events.length < claim.entries)
    return {
      ...report,
      mismatch: {
        entryId: claim.lastEntryId ?? '(unknown)',
        eventId: null,
        revision: claim.entries - 1,
        reason: `is gone: the checkpoint covers ${claim.entries} entries and the ledger holds ${events.length}, entries were deleted`,
      },
    };
  if (claim.entries === 0 && claim.head !== GENESIS)
    return { ...report, refused: "it covers no entry but its head is not the empty chain's" };
  return report;
};
