import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type BalanceEvent, postingSum } from '../domain/balance.js';
import {
  comparePositions,
  type EventStore,
  pagesOf,
  type Position,
  type RecordedEvent,
  START,
} from '../eventstore/port.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { BALANCE_EVENT_TYPES, type LedgerEntry, ledgerEntries, ledgerProjection } from '../projections/ledger.js';
import { payoutsProjection } from '../projections/payouts.js';

export interface AuditOptions {
  supplierId?: string;
  /** Only what was posted at or before this instant; the read models are compared likewise. */
  asOf?: Date;
  onProgress?: (eventsRead: number, total: number) => void;
}

/**
 * How far the read models compared had applied the events, read with their rows: the
 * replay counts the ledger's entries and the payouts up to there only, so a service
 * running (and its read models a little behind, or moving on) shows no false difference.
 */
interface ReplayBounds {
  entries?: Position;
  payouts?: Position;
}

export interface AuditReport {
  eventsRead: number;
  ledgerEvents: number;
  suppliers: number;
  entries: number;
  differences: string[];
}

interface Replayed {
  pending: number;
  available: number;
  entries: Map<string, LedgerEntry>;
}

/** Status a payout event leaves its payout in. */
const PAYOUT_STATUS: Record<string, string> = {
  PayoutCreated: 'pending',
  PayoutInTransit: 'in_transit',
  PayoutPaid: 'paid',
  PayoutFailed: 'failed',
  PayoutCancelled: 'cancelled',
};

const PAGE = 5000;

/** Replays every balance event from the store, independently of any read model. */
export const replayLedger = async (store: EventStore, options: AuditOptions & { until?: ReplayBounds } = {}) => {
  const within = (bound: Position | undefined, at: Position) => !bound || comparePositions(at, bound) <= 0;
  const bounds = [options.until?.entries, options.until?.payouts];
  const last = bounds.every((b) => b !== undefined)
    ? bounds.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b))
    : undefined;
  const bySupplier = new Map<string, Replayed>();
  const payouts = new Map<string, { supplierId: string; amount: number; status: string }>();
  const differences: string[] = [];
  let eventsRead = 0;
  let ledgerEvents = 0;
  const total = options.onProgress ? Number((await store.head()).prepare) : 0;
  // past both bounds the rest of the store is not read
  let passed = false;
  for await (const page of pagesOf(store, START, PAGE)) {
    const after = page.at(-1)?.position;
    if (passed || !after) break;
    eventsRead += page.length;
    for (const e of page) {
      if (!BALANCE_EVENT_TYPES.has(e.type)) continue;
      if (last && comparePositions(e.position, last) > 0) {
        passed = true;
        break;
      }
      const event = e as RecordedEvent<BalanceEvent['data']> & { refused?: string };
      if (options.supplierId && e.streamId !== `balance-${options.supplierId}`) continue;
      // an entry the ledger refused counts nowhere, and is a difference in itself
      if (event.refused) {
        differences.push(
          `entry ${event.data?.entryId ?? '(unknown)'} (event ${e.id}, ${e.streamId} revision ${e.revision}) is refused: it ${event.refused}`,
        );
        continue;
      }
      if (options.asOf && new Date(event.data.at).getTime() > options.asOf.getTime()) continue;
      ledgerEvents++;
      const sum = postingSum(event.data.postings);
      if (sum !== 0) differences.push(`event ${e.id} (${e.type}) posts a set summing to ${sum}, not 0`);
      if (within(options.until?.entries, e.position)) {
        const acc = bySupplier.get(event.data.supplierId) ?? { pending: 0, available: 0, entries: new Map() };
        for (const entry of ledgerEntries(event)) {
          acc.entries.set(entry.id, entry);
          if (entry.account === 'pending') acc.pending += entry.amount;
          else acc.available += entry.amount;
        }
        bySupplier.set(event.data.supplierId, acc);
      }
      const status = PAYOUT_STATUS[e.type];
      if (status && within(options.until?.payouts, e.position)) {
        const { payoutId, amount } = event.data as { payoutId: string; amount: number };
        payouts.set(payoutId, { supplierId: event.data.supplierId, amount, status });
      }
    }
    options.onProgress?.(Number(after.prepare), Math.max(total, Number(after.prepare)));
  }
  return { bySupplier, payouts, differences, eventsRead, ledgerEvents };
};

const describe = (e: {
  type: string;
  account: string;
  amount: number;
  order_item_id: string | null;
  payout_id: string | null;
}) => `${e.type} ${e.account} ${e.amount} (${e.payout_id ? `payout ${e.payout_id}` : `order item ${e.order_item_id}`})`;

/**
 * Replays the SupplierBalance streams, recomputes every balance and entry, and compares
 * them with the read models entry by entry and in total. Every difference is named.
 */
// eslint-disable-next-line max-lines-per-function -- one pass over the ledger's events and its read model
export const auditLedger = async (
  store: EventStore,
  db: Kysely<Database>,
  options: AuditOptions = {},
): Promise<AuditReport> => {
  const snapshot = await readModelsNow(db, options);
  const replay = await replayLedger(store, { ...options, until: snapshot.until });
  const differences = [...replay.differences];

  const stored = snapshot.entries;
  const storedById = new Map(stored.map((r) => [r.id, r]));
  const storedBySupplier = new Map<string, typeof stored>();
  for (const row of stored) {
    const rows = storedBySupplier.get(row.supplier_id);
    if (rows) rows.push(row);
    else storedBySupplier.set(row.supplier_id, [row]);
  }
  // totals: the current balance rows without --as-of; the read model's entries up to it otherwise
  const balances = options.asOf ? undefined : new Map(snapshot.balances.map((b) => [b.supplier_id, b]));

  // every supplier either side knows of, a balance row without any ledger event included
  const supplierIds = new Set([...replay.bySupplier.keys(), ...storedBySupplier.keys(), ...(balances?.keys() ?? [])]);
  let entries = 0;
  for (const supplierId of [...supplierIds].sort()) {
    const expected = replay.bySupplier.get(supplierId) ?? {
      pending: 0,
      available: 0,
      entries: new Map<string, LedgerEntry>(),
    };
    const rows = storedBySupplier.get(supplierId) ?? [];
    entries += expected.entries.size;
    for (const [id, want] of expected.entries) {
      const got = storedById.get(id);
      if (!got || got.supplier_id !== supplierId) {
        differences.push(`supplier ${supplierId}: entry ${id} (${describe(want)}) is missing from the read model`);
        continue;
      }
      const fields: [string, unknown, unknown][] = [
        // the order the entries and their cursors are read in
        ['seq', want.seq, got.seq],
        ['type', want.type, got.type],
        ['account', want.account, got.account],
        ['amount', want.amount, got.amount],
        ['order_id', want.order_id, got.order_id],
        ['order_item_id', want.order_item_id, got.order_item_id],
        ['payout_id', want.payout_id, got.payout_id],
        ['created_at', want.created_at, got.created_at.toISOString()],
        ['available_at', want.available_at, got.available_at?.toISOString() ?? null],
      ];
      for (const [field, w, g] of fields)
        if (w !== g)
          differences.push(
            `supplier ${supplierId}: entry ${id} ${field} is ${JSON.stringify(g)} in the read model, ${JSON.stringify(w)} in the ledger`,
          );
    }
    for (const row of rows)
      if (!expected.entries.has(row.id))
        differences.push(
          `supplier ${supplierId}: entry ${row.id} (${describe(row)}) is in the read model but not in the ledger`,
        );

    const got = balances
      ? (balances.get(supplierId) ?? { pending: 0, available: 0 })
      : rows.reduce((acc, r) => ({ ...acc, [r.account]: acc[r.account as 'pending'] + r.amount }), {
          pending: 0,
          available: 0,
        });
    if (got.pending !== expected.pending)
      differences.push(
        `supplier ${supplierId}: pending is ${got.pending} in the read model, ${expected.pending} in the ledger`,
      );
    if (got.available !== expected.available)
      differences.push(
        `supplier ${supplierId}: available is ${got.available} in the read model, ${expected.available} in the ledger`,
      );
  }
  // payouts: their current status and amount (the read model holds no history to compare as of a moment)
  if (!options.asOf) {
    const rows = new Map(snapshot.payouts.map((r) => [r.id, r]));
    for (const [id, want] of [...replay.payouts].sort(([a], [b]) => a.localeCompare(b))) {
      const got = rows.get(id);
      if (!got)
        differences.push(
          `supplier ${want.supplierId}: payout ${id} (${want.status}, ${want.amount}) is missing from the read model`,
        );
      else if (got.status !== want.status || got.amount !== want.amount || got.supplier_id !== want.supplierId)
        differences.push(
          `supplier ${want.supplierId}: payout ${id} is ${got.status} ${got.amount} in the read model, ${want.status} ${want.amount} in the ledger`,
        );
    }
    for (const [id, row] of rows)
      if (!replay.payouts.has(id))
        differences.push(`supplier ${row.supplier_id}: payout ${id} is in the read model but not in the ledger`);
  }
  return {
    eventsRead: replay.eventsRead,
    ledgerEvents: replay.ledgerEvents,
    suppliers: supplierIds.size,
    entries,
    differences,
  };
};

/**
 * The ledger's read models as one moment saw them (one repeatable-read snapshot), with how
 * far each projector had applied the events then: its rows and its checkpoint are written
 * in one transaction, so the rows are exactly the events up to that position.
 */
const readModelsNow = (db: Kysely<Database>, options: AuditOptions) =>
  db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const entriesAt = (await readCheckpoint(trx, ledgerProjection.name))?.position;
      const payoutsAt = (await readCheckpoint(trx, payoutsProjection.name))?.position;
      let entries = trx.selectFrom('balance_entries').selectAll();
      if (options.supplierId) entries = entries.where('supplier_id', '=', options.supplierId);
      if (options.asOf) entries = entries.where('created_at', '<=', options.asOf);
      let balances = trx.selectFrom('balances').select(['supplier_id', 'pending', 'available']);
      if (options.supplierId) balances = balances.where('supplier_id', '=', options.supplierId);
      let payouts = trx.selectFrom('payouts').select(['id', 'supplier_id', 'amount', 'status']);
      if (options.supplierId) payouts = payouts.where('supplier_id', '=', options.supplierId);
      return {
        until: { entries: entriesAt, payouts: payoutsAt } satisfies ReplayBounds,
        entries: await entries.execute(),
        balances: await balances.execute(),
        payouts: await payouts.execute(),
      };
    });
