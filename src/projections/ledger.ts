import { sql } from 'kysely';
import type { BalanceEvent } from '../domain/balance.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { type Gathered, type Gatherer, projector } from './projector.js';
import { type Posting } from '../domain/postings.js';

type B = RecordedEvent<BalanceEvent['data']>;

/** The supplier's own legs of each posting become the entries a supplier reads. */
export const SUPPLIER_ACCOUNTS = { supplier_pending: 'pending', supplier_available: 'available' } as const;

/** Supplier-facing entry types; a payout's moves between payout accounts touch neither of the supplier's. */
const ENTRY_TYPES: Record<BalanceEvent['type'], string> = {
  SaleCredited: 'sale',
  SaleSettled: 'settlement',
  RefundDebited: 'refund',
  PayoutCreated: 'payout',
  PayoutInTransit: 'payout',
  PayoutPaid: 'payout',
  PayoutFailed: 'payout_reversal',
  PayoutCancelled: 'payout_reversal',
};
const entryType = (eventType: string) => ENTRY_TYPES[eventType as BalanceEvent['type']] ?? eventType;

const supplierLegs = (postings: Posting[]) =>
  postings.flatMap((p) =>
    p.account in SUPPLIER_ACCOUNTS
      ? [{ account: SUPPLIER_ACCOUNTS[p.account as keyof typeof SUPPLIER_ACCOUNTS], amount: p.amount }]
      : [],
  );

export interface LedgerEntry {
  id: string;
  seq: number;
  supplier_id: string;
  type: string;
  account: 'pending' | 'available';
  amount: number;
  order_id: string | null;
  order_item_id: string | null;
  payout_id: string | null;
  created_at: string;
  available_at: string | null;
}

/**
 * The supplier-facing entries one balance event makes. The projection writes them and the
 * auditor recomputes them from the same function, so "equal" means equal field by field.
 */
export const ledgerEntries = (e: B): LedgerEntry[] => {
  const d = e.data as B['data'] & { orderId?: string; orderItemId?: string; payoutId?: string };
  const availableAt = e.type === 'SaleCredited' ? (d as { availableAt: string }).availableAt : null;
  return supplierLegs(d.postings).map((leg, i) => ({
    id: `${d.entryId}:${leg.account}`,
    // the event's place in the store orders entries as the stream wrote them, and is the
    // same after any rebuild
    seq: Number(e.position.prepare) * 4 + i,
    supplier_id: d.supplierId,
    type: entryType(e.type),
    account: leg.account,
    amount: leg.amount,
    order_id: d.orderId ?? null,
    order_item_id: d.orderItemId ?? null,
    payout_id: d.payoutId ?? null,
    created_at: d.at,
    available_at: availableAt,
  }));
};

export const BALANCE_EVENT_TYPES = new Set<string>(Object.keys(ENTRY_TYPES));

interface Posted {
  supplierId: string;
  entries: LedgerEntry[];
  at: string;
}

/** Rows per insert: 11 parameters each stays well under Postgres' 65,535 per statement. */
const CHUNK = 2000;

/**
 * A batch's entries in one insert (per 2,000), and its balance moves folded per supplier
 * into one upsert: the sums are the same whatever the batch size, to the cent.
 */
const postings: Gatherer<Posted> = {
  write: async (db, posted) => {
    const entries = posted.flatMap((p) => p.entries);
    for (let i = 0; i < entries.length; i += CHUNK)
      await db
        .insertInto('balance_entries')
        .values(entries.slice(i, i + CHUNK))
        .execute();
    const moves = new Map<string, { supplier_id: string; pending: number; available: number; updated_at: string }>();
    for (const p of posted) {
      const move = moves.get(p.supplierId) ?? { supplier_id: p.supplierId, pending: 0, available: 0, updated_at: p.at };
      for (const e of p.entries) move[e.account] += e.amount;
      move.updated_at = p.at; // the last event's moment, as one event at a time would leave it
      moves.set(p.supplierId, move);
    }
    await db
      .insertInto('balances')
      .values([...moves.values()])
      .onConflict((oc) =>
        oc.column('supplier_id').doUpdateSet({
          pending: sql`balances.pending + excluded.pending`,
          available: sql`balances.available + excluded.available`,
          updated_at: sql`excluded.updated_at`,
        }),
      )
      .execute();
  },
};

const post = (_db: unknown, e: B): Gathered<Posted> => ({
  gather: postings,
  row: { supplierId: e.data.supplierId, entries: ledgerEntries(e), at: e.data.at },
});

/** Balances and ledger entries: projections of the SupplierBalance streams. */
export const ledgerProjection = projector<BalanceEvent>({
  name: 'ledger',
  version: 2,
  tables: ['balances', 'balance_entries'],
  ddl: (s) => `
    create table ${s}.balances (
      supplier_id text primary key,
      pending bigint not null,
      available bigint not null,
      updated_at timestamptz not null
    );
    create table ${s}.balance_entries (
      id text primary key,
      seq bigint not null unique,
      supplier_id text not null,
      type text not null,
      account text not null,
      amount bigint not null,
      order_id text,
      order_item_id text,
      payout_id text,
      created_at timestamptz not null,
      available_at timestamptz
    );
    create index on ${s}.balance_entries (supplier_id, seq);
    create index on ${s}.balance_entries (payout_id) where payout_id is not null;`,
  handlers: Object.fromEntries([...BALANCE_EVENT_TYPES].map((type) => [type, post])),
});
