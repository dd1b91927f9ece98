import type { Logger } from 'pino';
import { keyedTokenHash } from '../crypto/tokens.js';
import { isKeyedTokenHash, type SupplierEvent, supplierDecider } from '../domain/supplier.js';
import { pagesOf, START } from '../eventstore/port.js';
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

/**
 * What a start of this release does once to the data an older release wrote, before the
 * read models run: the tokens stored by a plain SHA-256 get their keyed hash (keyed over
 * the plain one, so no token is needed; src/crypto/tokens.ts). One pass over the whole
 * event store, then a row in `upgrades`: a later start finds the row and does nothing, so
 * a token written later in the older shape (with SQL) is never keyed, and never works.
 * Several instances starting at once each key what they find; the decider keys a token once.
 */
export const adoptOlderData = async (deps: CommandDeps, log: Logger): Promise<void> => {
  const done = await deps.db
    .selectFrom('upgrades')
    .select('name')
    .where('name', '=', KEYED_AND_SIGNED)
    .executeTakeFirst();
  if (done) return;
  const plainTokens: PlainTokens = new Map();
  let events = 0;
  for await (const page of pagesOf(deps.store, START, PAGE))
    for (const e of page) {
      events++;
      if (e.streamId.startsWith('supplier-')) collectPlainTokens(e, plainTokens);
    }
  const tokens = await keyPlainTokens(deps, plainTokens);
  const summary = { events_read: events, tokens_keyed: tokens };
  await deps.db
    .insertInto('upgrades')
    .values({ name: KEYED_AND_SIGNED, done_at: deps.clock.now(), summary: JSON.stringify(summary) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  if (tokens > 0) log.warn(summary, 'the upgrade keyed the token hashes an older release stored');
};
