import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PayoutEvent } from '../domain/payout.js';
import type { PayoutScheduleEvent } from '../domain/payout-schedule.js';
import { projector } from './projector.js';

const transition = (db: Kysely<Database>, payoutId: string, set: Record<string, unknown>, at: string) =>
  db
    .updateTable('payouts')
    .set({ ...set, updated_at: at })
    .where('id', '=', payoutId);

/** Payouts and payout schedules as suppliers read them (version 2: where each payout went). */
export const payoutsProjection = projector<PayoutEvent | PayoutScheduleEvent>({
  name: 'payouts',
  version: 2,
  tables: ['payouts', 'payout_schedules'],
  ddl: (s) => `
    create table ${s}.payouts (
      id text primary key,
      seq bigint not null unique,
      supplier_id text not null,
      amount bigint not null,
      method text not null,
      status text not null,
      trigger text not null,
      destination_id text,
      destination text,
      failure_code text,
      created_at timestamptz not null,
      in_transit_at timestamptz,
      paid_at timestamptz,
      failed_at timestamptz,
      cancelled_at timestamptz,
      updated_at timestamptz not null
    );
    create index on ${s}.payouts (supplier_id, seq);
    create table ${s}.payout_schedules (
      supplier_id text primary key,
      interval text not null,
      minimum_amount bigint not null,
      method text not null,
      updated_at timestamptz not null
    );`,
  handlers: {
    PayoutCreated: (db, e) =>
      db.insertInto('payouts').values({
        id: e.data.payoutId,
        // the position orders payouts as they were created, and is the same after a rebuild
        seq: Number(e.position.prepare),
        supplier_id: e.data.supplierId,
        amount: e.data.amount,
        method: e.data.method,
        status: 'pending',
        trigger: e.data.trigger,
        destination_id: e.data.destination?.destinationId ?? null,
        destination: e.data.destination?.masked ?? null,
        failure_code: null,
        created_at: e.data.at,
        updated_at: e.data.at,
      }),
    PayoutInTransit: (db, e) =>
      transition(db, e.data.payoutId, { status: 'in_transit', in_transit_at: e.data.at }, e.data.at),
    PayoutPaid: (db, e) => transition(db, e.data.payoutId, { status: 'paid', paid_at: e.data.at }, e.data.at),
    PayoutFailed: (db, e) =>
      transition(
        db,
        e.data.payoutId,
        { status: 'failed', failed_at: e.data.at, failure_code: e.data.failureCode },
        e.data.at,
      ),
    PayoutCancelled: (db, e) =>
      transition(db, e.data.payoutId, { status: 'cancelled', cancelled_at: e.data.at }, e.data.at),
    PayoutScheduleSet: (db, e) => {
      const row = {
        interval: e.data.interval,
        minimum_amount: e.data.minimumAmount,
        method: e.data.method,
        updated_at: e.data.at,
      };
      return db
        .insertInto('payout_schedules')
        .values({ supplier_id: e.data.supplierId, ...row })
        .onConflict((oc) => oc.column('supplier_id').doUpdateSet(row));
    },
  },
});
