import { sql } from 'kysely';
import type { CommandDeps } from '../commands/context.js';
import { stateOf } from '../commands/handle.js';
import { webhookStream } from '../commands/streams.js';
import {
  type LoggedEvent,
  RECOVERY_BATCH,
  type RecoveryAction,
  type RecoveryEndpoint,
  type RecoveryInput,
  type RecoveryPayload,
  recoveryWorkflow,
} from '../domain/webhook-recovery-process.js';
import { webhookEndpointDecider } from '../domain/webhook-endpoint.js';
import { newId } from '../ids.js';
import { envelopeBody, outgoingFor } from '../outbound/webhook-events.js';
import type { DueTimer } from './timers.js';
import type { DeliverySender } from './webhook-sender.js';
import type { Performers, WorkflowRunner } from './workflow-runner.js';

/** Spec-free choice: a recovery reaches at most 14 days back (docs/decisions.md). */
export const RECOVERY_WINDOW_MS = 14 * 24 * 3600_000;

interface RecoveryEnv {
  deps: CommandDeps;
  sender: DeliverySender;
}

interface RecoveryRun extends RecoveryEnv {
  t: DueTimer;
}

/** The log's next batch of events in the recovery's time range, after the last one handled. */
const readBatch = async (deps: CommandDeps, p: RecoveryPayload): Promise<LoggedEvent[]> => {
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
    limit ${RECOVERY_BATCH}`.execute(deps.db);
  return rows.map((r) => ({
    eventId: r.event_id,
    eventType: r.event_type,
    position: `${r.commit_position}/${r.prepare_position}`,
  }));
};

/** Whether this recovery sent the event already (a run repeated after a crash does not send it twice). */
const sentAlready = async (deps: CommandDeps, recoveryId: string, eventId: string) =>
  !!(await deps.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('recovery_id', '=', recoveryId)
    .where('event_id', '=', eventId)
    .executeTakeFirst());

/**
 * One event as a recovered delivery, sent now, in event order; a failed one takes the ladder
 * from the deliveries' table. The envelope is the event's (same `id`, the dedupe key); its
 * `data` is built as at fan-out, from the read models now. An event that did not concern the
 * endpoint's supplier (or came from this endpoint) is passed over.
 */
const recoverEvent = async ({ deps, sender }: RecoveryRun, p: RecoveryPayload, logged: LoggedEvent) => {
  const [commit, prepare] = logged.position.split('/') as [string, string];
  const [event] = await deps.store.readAll({ commit: BigInt(commit), prepare: BigInt(prepare) - 1n }, 1);
  if (!event || event.id !== logged.eventId) return;
  const outgoing = await outgoingFor(deps.db, event);
  const data = outgoing?.bySupplier.get(p.supplierId);
  if (!outgoing || !data || outgoing.exceptEndpoint === p.endpointId) return;
  if (await sentAlready(deps, p.recoveryId, event.id)) return;
  await sender.sendNew({
    id: newId(),
    event_id: event.id,
    event_type: outgoing.type,
    supplier_id: p.supplierId,
    endpoint_id: p.endpointId,
    body: envelopeBody(event, outgoing.type, data, deps.env),
    attempts: 0,
    recovered: true,
    recovery_id: p.recoveryId,
  });
};

const perform: Performers<RecoveryRun, RecoveryInput, RecoveryAction> = {
  readBatch: async (r, a) => {
    const events = await readBatch(r.deps, a.recovery);
    return { type: 'BatchRead', recovery: a.recovery, events, now: r.deps.clock.now() };
  },
  recoverEvent: async (r, a) => recoverEvent(r, a.recovery, a.event),
};

const endpointOf = async (deps: CommandDeps, endpointId: string): Promise<RecoveryEndpoint> => {
  const state = await stateOf(deps, webhookStream(endpointId), webhookEndpointDecider);
  return state && { id: state.id, active: !state.deleted && state.status === 'active', events: state.settings.events };
};

/**
 * `webhook.recover`: every event since `since` (up to the request's moment) that the
 * endpoint subscribes to and that concerned its supplier becomes a new delivery marked
 * `recovered`, sent one after another in event order through the endpoint's rate limit.
 */
export const recoveryRunner: WorkflowRunner<RecoveryEnv, RecoveryRun, RecoveryEndpoint, RecoveryInput, RecoveryAction> =
  {
    workflow: recoveryWorkflow,
    stateOf: () => recoveryWorkflow.initialState,
    perform,
    start: {
      'webhook.recover': async (env, t) => [
        { ...env, t },
        { type: 'RecoveryDue', recovery: t.payload, endpoint: await endpointOf(env.deps, t.payload.endpointId) },
      ],
    },
  };
