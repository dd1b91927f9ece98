import type { BalanceEvent } from '../domain/balance.js';
import { type ChainLink, GENESIS, linkHash } from '../domain/ledger-chain.js';
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
  heads: Map<string, { hash: string; entries: number }>;
}

type B = RecordedEvent<BalanceEvent['data']>;

/** Walks one supplier's chain in stream order; stops at its first break. */
const verifyStream = (supplierId: string, events: B[], report: VerifyReport) => {
  let head = GENESIS;
  let index = 0;
  for (const event of events) {
    const brk = (reason: string) =>
      report.breaks.push({
        supplierId,
        entryId: event.data?.entryId ?? '(unknown)',
        eventId: event.id,
        revision: event.revision,
        reason,
      });
    if (event.revision !== index) {
      brk(
        `is at revision ${event.revision} where revision ${index} was expected: ${event.revision > index ? 'an entry before it was deleted' : 'entries were reordered'}`,
      );
      return;
    }
    const hash = linkHash(head, event);
    const link = (event.data as { chain?: ChainLink }).chain;
    report.entries++;
    if (link) {
      if (link.seq !== index)
        return void brk(
          `was written as entry #${link.seq} of the chain and is stored as #${index}: entries were deleted or reordered`,
        );
      if (link.prev !== head)
        return void brk(
          `does not follow the entry before it (its previous hash is ${link.prev.slice(0, 12)}…, the chain's is ${head.slice(0, 12)}…): an entry before it was changed`,
        );
      if (link.hash !== hash)
        return void brk(`its stored content does not match its hash: it was changed after it was written`);
    } else report.unchained++;
    head = hash;
    index++;
  }
  report.heads.set(supplierId, { hash: head, entries: index });
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
