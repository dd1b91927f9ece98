import { createMarketplaceClient, type MarketplaceClientOptions } from '../client.js';
import { readSignedHead, type SignedCheckpoint, type SignedHead } from './checkpoint.js';
import type { Cosignature, WitnessKey } from './cosignature.js';
import type { LedgerPublicKey } from './keys.js';
import { verifyConsistency } from './verify.js';

/** What a witness keeps between runs: the last head it accepted, exactly as it was signed. */
export interface WitnessState {
  supplier_id: string;
  checkpoint: SignedCheckpoint;
  accepted_at: string;
}

export interface WitnessOptions extends MarketplaceClientOptions {
  /** The ledger's public keys (GET /.well-known/svc-ledger-signing-key, or a copy): the witness holds no secret of the service's. */
  keys: readonly LedgerPublicKey[];
  /** The witness's own key: it cosigns each head it accepts. */
  witnessKey: WitnessKey;
  /** Where the last accepted head is kept. */
  load(): Promise<WitnessState | undefined>;
  save(state: WitnessState): Promise<void>;
  /** Sends the cosignature to the service, which publishes it (default true). */
  publish?: boolean;
  now?: () => Date;
}

/** A head as a witness names it in what it reports. */
export const describeHead = (h: SignedHead) => `${h.tree_size} entries, root ${h.root_hash}, signed at ${h.signed_at}`;

export type WitnessOutcome =
  | { ok: true; head: SignedHead; previous?: SignedHead; cosignature: Cosignature; published: boolean }
  | {
      ok: false;
      /** `fork`: the new head does not extend the accepted one; `invalid`: a head not the ledger's. */
      kind: 'fork' | 'invalid';
      reason: string;
      /** The head accepted before, and the one offered now (when it is the ledger's). */
      accepted?: SignedHead;
      offered?: SignedHead;
    };

/**
 * One run of a witness over a supplier's ledger: fetch the head signed now, check it is the
 * ledger's (its key among `keys`), and, when a head was accepted before, that the new one
 * extends it (same supplier, at least as many entries, an RFC 9162 consistency proof from the
 * service between the two); then cosign it with the witness's own key, publish the
 * cosignature, and keep the head as the last accepted. A fork or a rewrite (a head that does
 * not extend the accepted one, fewer entries, another root at the same size) is reported with
 * both heads, and nothing is kept or cosigned.
 */
export const witnessOnce = async (options: WitnessOptions): Promise<WitnessOutcome> => {
  const api = createMarketplaceClient(options);
  const { data: answer } = await api.GET('/api/v1/balance/proof');
  const offered = readSignedHead(answer.checkpoint, options.keys);
  if (!offered.ok) return { ok: false, kind: 'invalid', reason: `the head the service offers: ${offered.reason}` };
  const kept = await options.load();
  let previous: SignedHead | undefined;
  if (kept) {
    const accepted = readSignedHead(kept.checkpoint, options.keys);
    if (!accepted.ok) return { ok: false, kind: 'invalid', reason: `the head kept as accepted: ${accepted.reason}` };
    previous = accepted.head;
    const fork = (reason: string): WitnessOutcome => ({
      ok: false,
      kind: 'fork',
      reason,
      accepted: accepted.head,
      offered: offered.head,
    });
    if (offered.head.supplier_id !== accepted.head.supplier_id)
      return fork(
        `the head offered is supplier ${offered.head.supplier_id}'s, the one accepted ${accepted.head.supplier_id}'s`,
      );
    if (offered.head.tree_size < accepted.head.tree_size)
      return fork('the ledger holds fewer entries than the head accepted: entries were taken away');
    const { data: between } = await api.GET('/api/v1/balance/proof/consistency', {
      params: { query: { from: accepted.head.tree_size, to: offered.head.tree_size } },
    });
    const consistent = verifyConsistency(kept.checkpoint, answer.checkpoint, between.proof, options.keys);
    if (!consistent.ok) return fork(consistent.reason);
  }
  const now = (options.now ?? (() => new Date()))();
  const cosignature = options.witnessKey.cosign(answer.checkpoint, now.toISOString());
  const publish = options.publish ?? true;
  if (publish) await api.POST('/api/v1/balance/cosignatures', { body: cosignature });
  await options.save({
    supplier_id: offered.head.supplier_id,
    checkpoint: answer.checkpoint,
    accepted_at: now.toISOString(),
  });
  return { ok: true, head: offered.head, ...(previous && { previous }), cosignature, published: publish };
};

export interface WitnessRunOptions extends WitnessOptions {
  /** How many steps to take: 1 by default; 0 runs until `signal` aborts or a step fails. */
  steps?: number;
  /** The pause between two steps (default a minute). */
  everyMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** One line per step: what was accepted, or the fork with both heads. */
  out?: (line: string) => void;
}

/** What a step reports: a head accepted and cosigned, or what is wrong, naming both heads. */
export const describeOutcome = (o: WitnessOutcome): string => {
  if (o.ok)
    return `ACCEPTED supplier ${o.head.supplier_id}: ${describeHead(o.head)}${o.previous ? `, consistent with ${describeHead(o.previous)}` : ', the first head this witness keeps'}; cosigned by ${o.cosignature.witness_key_id}${o.published ? ' and published' : ''}`;
  const heads = [
    o.accepted && `accepted: ${describeHead(o.accepted)}`,
    o.offered && `offered: ${describeHead(o.offered)}`,
  ].filter(Boolean);
  return `${o.kind === 'fork' ? 'FORK' : 'REFUSED'}: ${o.reason}${heads.length > 0 ? `\n  ${heads.join('\n  ')}` : ''}`;
};

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * A witness run: `steps` steps of `witnessOnce`, `everyMs` apart, each reported on `out`;
 * stops at the first head it refuses and answers that step's outcome (or the last one's).
 * The service's errors (an answer of 400 or more, a refused connection) are thrown: they say
 * nothing about the ledger, and nothing was kept.
 */
export const runWitness = async (options: WitnessRunOptions): Promise<WitnessOutcome> => {
  const steps = options.steps ?? 1;
  const sleep = options.sleep ?? pause;
  const step = async () => {
    const outcome = await witnessOnce(options);
    options.out?.(describeOutcome(outcome));
    return outcome;
  };
  let last = await step();
  for (let i = 1; last.ok && (steps === 0 || i < steps); i++) {
    await sleep(options.everyMs ?? 60_000, options.signal);
    if (options.signal?.aborted) break;
    last = await step();
  }
  return last;
};
