import type { Logger } from 'pino';
import { keyedTokenHash } from '../crypto/tokens.js';
import { isKeyedTokenHash, type SupplierEvent, supplierDecider } from '../domain/supplier.js';
import { entryText, GENESIS, linkHash } from '../domain/ledger-chain.js';
import { type EventStore, pagesOf, type RecordedEvent, START, WrongExpectedRevision } from '../eventstore/port.js';
import { adoptionStreamOf, balanceStreamOf, type EntriesAdopted } from '../projections/ledger-book.js';
import { BALANCE_EVENT_TYPES } from '../projections/ledger.js';
import { type CommandDeps, metadataFor } from './context.js';
import { handle } from './handle.js';
import { supplierStream } from './streams.js';

/** The name of this release's one pass over the data older releases wrote (the `upgrades` table). */
export const KEYED_AND_SIGNED = 'keyed-token-hashes-and-signed-ledger';

const PAGE = 5000;
const UPGRADE = { correlationId: 'upgrade' };

/** Tokens still stored by a plain hash, by supplier: token id to plain hash. */
type PlainTokens = Map<string, Map<string, string>>;

const collectPlainTokens = (e: { type: string; data: unknown }, found: PlainTokens) => {
  const event = e as SupplierEvent;
  if (event.type === 'SupplierTokenIssued' && !isKeyedTokenHash(event.data.tokenHash)) {
    const tokens = found.get(event.data.supplierId) ?? new Map<string, string>();
    tokens.set(event.data.tokenId, event.data.tokenHash);
    found.set(event.data.supplierId, tokens);
  } else if (event.type === 'SupplierTokenRevoked' || event.type === 'SupplierTokenHashesKeyed') {
    // a revoked token authenticates no one: it keeps its plain hash, which nothing matches
    const tokens = found.get(event.data.supplierId);
    if (event.type === 'SupplierTokenRevoked') tokens?.delete(event.data.tokenId);
    else for (const tokenId of Object.keys(event.data.hashes)) tokens?.delete(tokenId);
  }
};

/** Keys each supplier's live tokens that an older release stored by their plain hash. */
const keyPlainTokens = async (deps: CommandDeps, found: PlainTokens): Promise<number> => {
  let keyed = 0;
  for (const [supplierId, tokens] of found) {
    if (tokens.size === 0) continue;
    const hashes = Object.fromEntries(
      [...tokens].map(([tokenId, plain]) => [tokenId, keyedTokenHash(deps.secretKey, plain)]),
    );
    // before the read models run: nothing waits for them to apply it
    const at = deps.clock.now();
    const { events } = await handle(
      deps.store,
      supplierStream(supplierId),
      supplierDecider,
      [{ type: 'KeyTokenHashes', data: { hashes, now: at.toISOString() } }],
      { at, metadata: metadataFor(deps.env, UPGRADE), cache: deps.states },
    );
    for (const e of events) if (e.type === 'SupplierTokenHashesKeyed') keyed += Object.keys(e.data.hashes).length;
  }
  return keyed;
};

/** Signatures per adoption event: a supplier's older entries are signed in events of at most this many. */
const SIGNATURES_PER_EVENT = 1000;

type Link = { seq: number; prev: string; hash: string; signature?: string };

/**
 * The signatures of a supplier's entries written before entries were signed: each over its
 * text (its content's hash over the head before it, its place, that head), as a signed entry
 * carries. Only what the older release's own chain vouches for is signed: an entry whose
 * stored link no longer matches (changed before the upgrade), or one without a link after
 * the chain began, stops the adoption there, and it and every entry after it stay refused.
 */
const signOlderEntries = (deps: CommandDeps, supplierId: string, events: RecordedEvent[]) => {
  const signer = deps.ledger.keys.signer!;
  const signatures: string[] = [];
  let head = GENESIS;
  let chainBegan = false;
  for (const e of events) {
    if (!BALANCE_EVENT_TYPES.has(e.type)) break;
    const link = (e.data as { chain?: Link } | null)?.chain;
    if (link?.signature !== undefined) break;
    const hash = linkHash(head, e);
    const seq = signatures.length;
    const holds = link ? link.seq === seq && link.prev === head && link.hash === hash : !chainBegan;
    if (!holds) return { signatures, stoppedAt: e };
    chainBegan ||= link !== undefined;
    signatures.push(signer.sign(entryText({ supplierId, seq, prev: head, hash, keyId: signer.keyId })));
    head = hash;
  }
  return { signatures, stoppedAt: undefined };
};

/** Signs each supplier's older entries once, in its adoption stream; answers how many. */
const adoptOlderEntries = async (
  deps: CommandDeps,
  stored: EventStore,
  suppliers: Set<string>,
  log: Logger,
): Promise<number> => {
  let adopted = 0;
  for (const supplierId of suppliers) {
    const events = (await stored.readStream(balanceStreamOf(supplierId))).sort((a, b) => a.revision - b.revision);
    const { signatures, stoppedAt } = signOlderEntries(deps, supplierId, events);
    if (stoppedAt)
      log.error(
        { supplierId, eventId: stoppedAt.id, revision: stoppedAt.revision },
        'the upgrade signed no entry from this one on: its stored link does not match the chain the older release wrote',
      );
    if (signatures.length === 0) continue;
    const at = deps.clock.now();
    const chunks: EntriesAdopted[] = [];
    for (let from = 0; from < signatures.length; from += SIGNATURES_PER_EVENT)
      chunks.push({
        supplierId,
        from,
        keyId: deps.ledger.keys.signer!.keyId,
        signatures: signatures.slice(from, from + SIGNATURES_PER_EVENT),
        at: at.toISOString(),
      });
    try {
      await deps.store.append(
        adoptionStreamOf(supplierId),
        chunks.map((data) => ({ type: 'LedgerEntriesAdopted', data, metadata: metadataFor(deps.env, UPGRADE) })),
        'no_stream',
        at,
      );
      adopted += signatures.length;
    } catch (error) {
      // another instance starting at the same moment adopted them first
      if (!(error instanceof WrongExpectedRevision)) throw error;
    }
    deps.ledger.forgetAdoption(supplierId);
  }
  return adopted;
};

/**
 * What a start of this release does once to the data an older release wrote, before the
 * read models run: the tokens stored by a plain SHA-256 get their keyed hash (keyed over
 * the plain one, so no token is needed; src/crypto/tokens.ts), and the ledger entries
 * written unsigned are signed where they stand, in each supplier's adoption stream
 * (`ledger-adoption-{supplier}`), which the ledger's reading checks them against. One pass
 * over the whole event store, then a row in `upgrades`: a later start finds the row and
 * does nothing, so a token or an entry written later in the older shape (with SQL) is never
 * keyed or signed, and never counts. Several instances starting at once each do what they
 * find; the decider keys a token once, and an adoption stream is written once.
 */
export const adoptOlderData = async (
  deps: CommandDeps,
  /** The event store below the ledger's check: the older entries are not refused on the way in. */
  stored: EventStore,
  log: Logger,
): Promise<void> => {
  const done = await deps.db
    .selectFrom('upgrades')
    .select('name')
    .where('name', '=', KEYED_AND_SIGNED)
    .executeTakeFirst();
  if (done) return;
  const plainTokens: PlainTokens = new Map();
  const unsignedLedgers = new Set<string>();
  let events = 0;
  for await (const page of pagesOf(stored, START, PAGE))
    for (const e of page) {
      events++;
      if (e.streamId.startsWith('supplier-')) collectPlainTokens(e, plainTokens);
      else if (e.streamId.startsWith('balance-') && e.revision === 0 && BALANCE_EVENT_TYPES.has(e.type)) {
        // a ledger whose first entry carries no signature began before entries were signed
        const link = (e.data as { chain?: Link } | null)?.chain;
        if (link?.signature === undefined) unsignedLedgers.add(e.streamId.slice('balance-'.length));
      }
    }
  const tokens = await keyPlainTokens(deps, plainTokens);
  const entries = await adoptOlderEntries(deps, stored, unsignedLedgers, log);
  const summary = {
    events_read: events,
    tokens_keyed: tokens,
    ledgers_signed: unsignedLedgers.size,
    entries_signed: entries,
  };
  await deps.db
    .insertInto('upgrades')
    .values({ name: KEYED_AND_SIGNED, done_at: deps.clock.now(), summary: JSON.stringify(summary) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  if (tokens > 0 || entries > 0)
    log.warn(summary, 'the upgrade keyed the token hashes and signed the ledger entries an older release wrote');
};
