import type { Logger } from 'pino';
import type { LedgerKeyring, LedgerKeys } from '../crypto/ledger-signing.js';
import { type Adopted, EMPTY_LEDGER, ledgerWalk, type WalkState } from '../domain/ledger-chain.js';
import { type BalanceCommand, type BalanceEvent, type BalanceState, signedBalanceDecider } from '../domain/balance.js';
import type { Decider } from '../domain/decider.js';
import { overriding } from '../eventstore/overriding.js';
import type { EventStore, RecordedEvent, SubscribeOptions } from '../eventstore/port.js';
import type { Metrics } from '../metrics.js';
import { BALANCE_EVENT_TYPES } from './ledger.js';

/**
 * A balance event as the ledger reads it: `refused` says why the walk did not accept it;
 * `chainHead` is the head after an accepted one (its place is `chainSeq`). Neither is stored.
 */
export type CheckedEvent = RecordedEvent<BalanceEvent['data']> & {
  refused?: string;
  chainHead?: string;
  chainSeq?: number;
  /** The text its signature covers: its leaf in the supplier's Merkle tree. */
  entryText?: string;
};

/** An entry the ledger accepted: its head and its text are known. */
export type AcceptedEvent = CheckedEvent & { chainHead: string; entryText: string };

/** `e` as an accepted entry; an entry not refused yet without its head was not read through the ledger (a bug). */
export const accepted = (e: CheckedEvent): AcceptedEvent => {
  const { chainHead, entryText } = e;
  if (chainHead === undefined || entryText === undefined)
    throw new Error(`entry ${e.id} of ${e.streamId} was not read through the ledger`);
  return { ...e, chainHead, entryText };
};

const BALANCE = 'balance-';
export const balanceStreamOf = (supplierId: string) => `${BALANCE}${supplierId}`;
/** The signatures the upgrade made for a supplier's older, unsigned entries (src/commands/older-data.ts). */
export const adoptionStreamOf = (supplierId: string) => `ledger-adoption-${supplierId}`;

export interface EntriesAdopted {
  supplierId: string;
  /** The place of the first entry signed here; an event's signatures follow on from it. */
  from: number;
  keyId: string;
  signatures: string[];
  at: string;
}

/** Walk states kept per supplier, by the stream revision they follow: a reader a little behind another finds its own. */
const STATES_PER_SUPPLIER = 32;
const SUPPLIERS = 10_000;
const ADOPTIONS = 1_000;
const REPORTED = 10_000;

/**
 * The ledger's reading: which stored entries it accepts. Every balance event is checked as
 * `ledgerWalk` checks it (its signature over its content, its place and the head before it),
 * from the walk's state before it, which is kept per supplier for the latest revisions read:
 * a reader that goes through the ledger in order (the subscription, a command reading a
 * stream's tail, a rebuild from the start) steps from a kept state, and one that jumps
 * reads the supplier's stream up to there once. Signatures are verified once per process
 * (the keyring remembers), and one another instance sealed is not verified at all. A refused entry is marked (`refused`), counted and logged once;
 * the projections, the deciders, the proofs and the audits leave it out.
 */
export class LedgerBook {
  private readonly states = new Map<string, Map<number, WalkState>>();
  private readonly adoptions = new Map<string, Adopted | null>();
  private readonly reported = new Set<string>();
  private signing?: Decider<BalanceState, BalanceCommand, BalanceEvent>;

  constructor(
    /** The store as it is below the ledger's check (upcast, measured). */
    private readonly store: EventStore,
    readonly keys: Pick<LedgerKeys, 'keyring'> & Partial<LedgerKeys>,
    private readonly report: { metrics?: Metrics; log?: Logger } = {},
  ) {}

  /** The balance decider that signs what it decides with the current key (one per book: states are cached by decider). */
  get decider(): Decider<BalanceState, BalanceCommand, BalanceEvent> {
    if (!this.keys.signer) throw new Error('this ledger is read with public keys only: it signs nothing');
    return (this.signing ??= signedBalanceDecider(this.keys.signer));
  }

  get keyring(): LedgerKeyring {
    return this.keys.keyring;
  }

  /** One supplier's stored balance events in order, each checked. */
  async entries(supplierId: string): Promise<CheckedEvent[]> {
    const events = await this.store.readStream(balanceStreamOf(supplierId));
    await this.check(events);
    return events.filter((e) => BALANCE_EVENT_TYPES.has(e.type)) as CheckedEvent[];
  }

  /** The first of a supplier's stored entries the ledger refuses, read now. */
  async firstRefused(supplierId: string): Promise<{ entryId: string; reason: string } | null> {
    const refused = (await this.entries(supplierId)).find((e) => e.refused);
    return refused ? { entryId: refused.data?.entryId ?? '(unknown)', reason: refused.refused! } : null;
  }

  /** Marks the refused balance events among `events` (any events, in store order). */
  async check(events: readonly RecordedEvent[]): Promise<void> {
    const verifiedBefore = this.keyring.verified;
    const sealedBefore = this.keyring.sealed;
    for (const e of events) {
      if (!e.streamId.startsWith(BALANCE) || !BALANCE_EVENT_TYPES.has(e.type)) continue;
      const supplierId = e.streamId.slice(BALANCE.length);
      const before = await this.stateBefore(supplierId, e.revision);
      const walk = ledgerWalk(supplierId, this.keyring, await this.adoptedIfNeeded(supplierId, e), before);
      const verdict = walk.step(e);
      const checked = e as CheckedEvent;
      if (verdict.accepted) {
        delete checked.refused;
        checked.chainHead = verdict.hash;
        checked.chainSeq = verdict.seq;
        checked.entryText = verdict.text;
      } else {
        checked.refused = verdict.reason;
        delete checked.chainHead;
        delete checked.chainSeq;
        delete checked.entryText;
        this.reportRefused(supplierId, checked, verdict.reason);
      }
      this.keep(supplierId, e.revision, walk.state);
    }
    if (this.keyring.verified > verifiedBefore)
      this.report.metrics?.ledgerSignaturesVerified.inc(this.keyring.verified - verifiedBefore);
    if (this.keyring.sealed > sealedBefore)
      this.report.metrics?.ledgerSealsAccepted.inc(this.keyring.sealed - sealedBefore);
  }

  /** The adoption's signatures, read only for an entry that carries none of its own. */
  private async adoptedIfNeeded(supplierId: string, e: RecordedEvent): Promise<Adopted | undefined> {
    const link = (e.data as { chain?: { signature?: string } } | null)?.chain;
    return link?.signature === undefined ? this.adoptionOf(supplierId) : undefined;
  }

  async adoptionOf(supplierId: string): Promise<Adopted | undefined> {
    const known = this.adoptions.get(supplierId);
    if (known !== undefined) return known ?? undefined;
    const signatures: string[] = [];
    let keyId: string | undefined;
    for (const e of await this.store.readStream(adoptionStreamOf(supplierId))) {
      const d = e.data as EntriesAdopted;
      if (e.type !== 'LedgerEntriesAdopted' || d.from !== signatures.length || (keyId && d.keyId !== keyId)) continue;
      keyId = d.keyId;
      signatures.push(...d.signatures);
    }
    const adopted = keyId ? { keyId, signatures } : null;
    if (this.adoptions.size >= ADOPTIONS) this.adoptions.delete(this.adoptions.keys().next().value!);
    this.adoptions.set(supplierId, adopted);
    return adopted ?? undefined;
  }

  /** Forgets a supplier's adoption as read (the upgrade just wrote it). */
  forgetAdoption(supplierId: string): void {
    this.adoptions.delete(supplierId);
  }

  private async stateBefore(supplierId: string, revision: number): Promise<WalkState> {
    if (revision === 0) return EMPTY_LEDGER;
    const kept = this.states.get(supplierId)?.get(revision - 1);
    if (kept) return kept;
    // a reader that jumped: the stream up to the revision before, walked once
    const earlier = (await this.store.readStream(balanceStreamOf(supplierId))).filter((e) => e.revision < revision);
    const adopted = await this.adoptionOf(supplierId);
    const walk = ledgerWalk(supplierId, this.keyring, adopted);
    for (const e of earlier) {
      if (BALANCE_EVENT_TYPES.has(e.type)) walk.step(e);
      this.keep(supplierId, e.revision, walk.state);
    }
    return walk.state;
  }

  private keep(supplierId: string, revision: number, state: WalkState): void {
    let kept = this.states.get(supplierId);
    if (kept) this.states.delete(supplierId);
    else {
      kept = new Map();
      if (this.states.size >= SUPPLIERS) this.states.delete(this.states.keys().next().value!);
    }
    this.states.set(supplierId, kept); // the most recent supplier last
    kept.delete(revision);
    kept.set(revision, state);
    if (kept.size > STATES_PER_SUPPLIER) kept.delete(kept.keys().next().value!);
  }

  private reportRefused(supplierId: string, e: CheckedEvent, reason: string): void {
    if (this.reported.has(e.id)) return;
    if (this.reported.size >= REPORTED) this.reported.delete(this.reported.keys().next().value!);
    this.reported.add(e.id);
    this.report.metrics?.ledgerEntriesRefused.inc();
    this.report.log?.error(
      { supplierId, entryId: e.data?.entryId ?? null, eventId: e.id, revision: e.revision },
      `ledger entry refused: it ${reason}; it counts in no balance, statement or payout`,
    );
  }
}

/**
 * The store every reader of the service goes through: balance events come out checked by
 * `book` (`refused` set on those the ledger does not accept), so no projection, decider or
 * process manager counts an entry the service did not sign where it stands.
 */
export const ledgerCheckedStore = (store: EventStore, book: LedgerBook): EventStore =>
  overriding(store, {
    readStream: async (streamId, fromRevision) => {
      const events = await store.readStream(streamId, fromRevision);
      if (streamId.startsWith(BALANCE)) await book.check(events);
      return events;
    },
    readAll: async (after, limit) => {
      const events = await store.readAll(after, limit);
      await book.check(events);
      return events;
    },
    subscribe: (options: SubscribeOptions) =>
      store.subscribe({
        ...options,
        onEvents: async (events) => {
          await book.check(events);
          return options.onEvents(events);
        },
      }),
  });
