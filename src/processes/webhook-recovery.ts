import { sql } from 'kysely';
import type { CommandDeps } from '../commands/context.js';
import { load } from '../commands/handle.js';
import { webhookEndpointDecider } from '../domain/webhook-endpoint.js';
import { newId } from '../ids.js';
import { envelopeBody, outgoingFor } from '../outbound/webhook-events.js';
import type { Timers } from './timers.js';
import type { DeliverySender } from './webhook-sender.js';
import { webhookStream } from '../commands/streams.js';

/** Spec-free choice: a recovery reaches at most 14 days back (docs/decisions.md). */
export const RECOVERY_WINDOW_MS = 14 * 24 * 3600_000;
/** Events per timer run: a long recovery continues in the next run, never past a timer lease. */
const BATCH = 50;

/**
 * `webhook.recover`: every event since `since` (up to the request's moment) that the
 * endpoint subscribes to and that concerned its supplier becomes a new delivery marked
 * `recovered`, sent one after another in event order through the endpoint's rate limit.
 * A failed recovered delivery takes the usual retry ladder. The envelope is the event's
 * (same `id`, the dedupe key); its `data` is built as at fan-out, from the read models now.
 */
// eslint-disable-next-line max-lines-per-function -- the recovery run: one batch per call, in order
export const registerRecoveryTimers = (timers: Timers, deps: CommandDeps, sender: DeliverySender) => {
  // eslint-disable-next-line max-lines-per-function -- the recovery run: one batch per call, in order
  timers.on('webhook.recover', async (t) => {
    const p = t.payload;
    const { state: endpoint } = await load(
      deps.store,
      webhookStream(p.endpointId),
      webhookEndpointDecider,
      deps.states,
    );
    if (!endpoint || endpoint.deleted || endpoint.status !== 'active') return; // stopped: disabled or deleted meanwhile
    const [afterCommit, afterPrepare] = p.after ? p.after.split('/') : ['-1', '-1'];
    const { rows } = await sql<{
      event_id: string;
      commit_position: string;
      prepare_position: string;
      event_type: string;
    }>`
      select event_id, commit_position::text, prepare_position::text, event_type from webhook_event_log l
      where created_at >= ${new Date(p.since)} and created_at <= ${new Date(p.until)}
        and (commit_position, prepare_position) > (${afterCommit}::numeric, ${afterPrepare}::bigint)
      -- the table's numbers, qualified: unqualified, ORDER BY would take the text columns of
      -- the select list, and "1029" sorts before "821"
      order by l.commit_position, l.prepare_position
      limit ${BATCH}`.execute(deps.db);
    for (const row of rows) {
      const events = endpoint.settings.events;
      if (!events.includes('*') && !events.includes(row.event_type)) continue;
      const [event] = await deps.store.readAll(
        { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) - 1n },
        1,
      );
      if (!event || event.id !== row.event_id) continue;
      const outgoing = await outgoingFor(deps.db, event);
      const data = outgoing?.bySupplier.get(p.supplierId);
      if (!outgoing || !data || outgoing.exceptEndpoint === endpoint.id) continue;
      // a run repeated after a crash does not send the same event twice for this recovery
      const done = await deps.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('recovery_id', '=', p.recoveryId)
        .where('event_id', '=', event.id)
        .executeTakeFirst();
      if (done) continue;
      // sent now, in event order; a failed one takes the ladder from the deliveries' table
      await sender.sendNew({
        id: newId(),
        event_id: event.id,
        event_type: outgoing.type,
        supplier_id: p.supplierId,
        endpoint_id: endpoint.id,
        body: envelopeBody(event, outgoing.type, data, deps.env),
        attempts: 0,
        recovered: true,
        recovery_id: p.recoveryId,
      });
    }
    const last = rows.at(-1);
    if (rows.length === BATCH && last)
      await timers.schedule('webhook.recover', `${p.recoveryId}:${p.batch + 1}`, deps.clock.now(), {
        ...p,
        after: `${last.commit_position}/${last.prepare_position}`,
        batch: p.batch + 1,
      });
  });
};
