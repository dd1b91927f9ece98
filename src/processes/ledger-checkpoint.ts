import { sql } from 'kysely';
import type { CommandDeps } from '../commands/context.js';
import type { LedgerSigningKey } from '../crypto/ledger-signing.js';
import { LEDGER_CHECKPOINT_EVENT } from '../domain/webhook-endpoint.js';
import { newId } from '../ids.js';
import { ledgerAsOf } from '../projections/ledger-history.js';
import { brokenDetail, type LedgerProof, ledgerProof } from '../resources/ledger-proof.js';
import type { Timers } from './timers.js';
import { latestCosignatures } from '../projections/witness-reads.js';

const DAY_MS = 24 * 60 * 60_000;

/** The next 00:00 UTC after `now`. */
export const nextMidnight = (now: Date): Date => new Date((Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS);

/** A day's checkpoint for one supplier: its envelope id, the same on every run of that day. */
const checkpointEventId = (supplierId: string, asOf: Date) =>
  `ledger_checkpoint_${asOf.toISOString().slice(0, 10).replace(/-/g, '')}_${supplierId}`;

/** One supplier's checkpoint to each of its endpoints that named the event: a delivery each, due now. */
const deliver = async (deps: CommandDeps, proof: LedgerProof, endpointIds: string[], asOf: Date) => {
  const supplierId = proof.supplier_id;
  // the witnesses' latest cosignatures travel with the day's head
  const cosignatures = await latestCosignatures(deps.db, supplierId);
  const now = deps.clock.now();
  const eventId = checkpointEventId(supplierId, asOf);
  const body = JSON.stringify({
    id: eventId,
    type: LEDGER_CHECKPOINT_EVENT,
    mode: deps.env === 'sandbox' ? 'test' : 'live',
    api_version: 'v1',
    test_fire: false,
    created_at: asOf.toISOString(),
    data: { ...proof, cosignatures },
  });
  await deps.db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        id: newId(),
        event_id: eventId,
        event_type: LEDGER_CHECKPOINT_EVENT,
        supplier_id: supplierId,
        endpoint_id: endpointId,
        body,
        test_fire: false,
        status: 'pending',
        attempts: 0,
        created_at: now,
        updated_at: now,
        next_attempt_at: now,
        claimed_by: null,
        recovery_id: null,
      })),
    )
    // the deliveries' unique index (one per event and endpoint, recoveries and test-fires aside)
    .onConflict((oc) =>
      oc
        .columns(['event_id', 'endpoint_id'])
        .where(sql<boolean>`not test_fire and not recovered`)
        .doNothing(),
    )
    .execute();
};

/**
 * The daily `ledger.checkpoint` webhook: at 00:00 UTC every supplier with an active
 * endpoint that names `ledger.checkpoint` in its `events` (explicitly: `*` is the
 * contract's list, which does not hold it) is sent its chain head as of that midnight,
 * signed, so a copy of the head lives outside the service every day. Deliveries go through
 * the webhook sender (its signatures, retries and delivery log). A run repeated after a
 * crash makes no second delivery: the envelope id follows from the day and the supplier,
 * and a delivery is made once per event and endpoint. A supplier whose chain is broken
 * gets none; the break is logged, naming the entry.
 */
export const registerLedgerCheckpoints = (timers: Timers, deps: CommandDeps, key: LedgerSigningKey) => {
  timers.on('ledger.checkpoint', async (timer) => {
    // the midnight it was due at, however late it runs: a run's content follows from the day
    const asOf = new Date(Math.floor(timer.dueAt.getTime() / DAY_MS) * DAY_MS);
    const endpoints = await deps.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'supplier_id'])
      .where('status', '=', 'active')
      .where('deleted', '=', false)
      .where(sql<boolean>`${LEDGER_CHECKPOINT_EVENT} = any(events)`)
      .orderBy('id')
      .execute();
    const bySupplier = new Map<string, string[]>();
    for (const e of endpoints) bySupplier.set(e.supplier_id, [...(bySupplier.get(e.supplier_id) ?? []), e.id]);
    for (const [supplierId, endpointIds] of bySupplier) {
      const proof = ledgerProof(
        supplierId,
        asOf,
        deps.clock.now(),
        await ledgerAsOf(deps.ledger, supplierId, asOf),
        key,
      );
      if ('broken' in proof) {
        timers.log.error(
          { supplierId, entryId: proof.broken.entryId },
          `ledger checkpoint not sent: ${brokenDetail(proof)}`,
        );
        continue;
      }
      await deliver(deps, proof, endpointIds, asOf);
    }
    if (bySupplier.size > 0) timers.wake();
    return { runAgainAt: nextMidnight(deps.clock.now()) };
  });
};
