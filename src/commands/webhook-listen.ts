import { newWebhookSecret } from '../crypto/signature.js';
import { DomainError } from '../domain/errors.js';
import { required } from '../domain/required.js';
import {
  LISTEN_LEASE_MS,
  type ListenEndReason,
  type WebhookListenSessionCommand,
  webhookListenSessionDecider,
  type WebhookListenSessionState,
} from '../domain/webhook-listen-session.js';
import { newId } from '../ids.js';
import { deliveryHeaders } from '../outbound/webhook-send.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { listenSessionStream } from './streams.js';

/** Events one poll hands over at most. */
export const POLL_BATCH = 100;
/** How often a waiting poll looks for new events. */
const POLL_LOOK_MS = 250;

export interface OpenedSession {
  session: WebhookListenSessionState;
  secret: string;
  leaseUntil: Date;
}

const loadSession = async (deps: CommandDeps, sessionId: string) =>
  await stateOf(deps, listenSessionStream(sessionId), webhookListenSessionDecider);

/** The supplier's session, or not_found: another supplier's is as unknown as none. */
export const loadListenSession = async (
  deps: CommandDeps,
  supplierId: string,
  sessionId: string,
): Promise<WebhookListenSessionState> => {
  const state = await loadSession(deps, sessionId);
  if (!state || state.supplierId !== supplierId)
    throw new DomainError('not_found', `listen session ${sessionId} not found`);
  return state;
};

/** Why a session takes no more polls: closed, or its lease ran out. */
const ended = (session: WebhookListenSessionState) =>
  new DomainError(
    'invalid_state',
    session.ended?.reason === 'closed'
      ? `listen session ${session.id} was closed`
      : `listen session ${session.id} ended: no poll for ${LISTEN_LEASE_MS / 1000} s`,
    { ended_at: session.ended?.at ?? null, reason: session.ended?.reason ?? 'lease_lapsed' },
  );

/** The session's row with its lease from `now`: kept once (an opening run again finds it). */
const keepLive = (deps: CommandDeps, session: WebhookListenSessionState, leaseUntil: Date) =>
  deps.db
    .insertInto('webhook_listen_sessions')
    .values({
      id: session.id,
      supplier_id: session.supplierId,
      events: session.events,
      lease_until: leaseUntil,
      created_at: session.openedAt,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet({ lease_until: leaseUntil }))
    .execute();

/**
 * Opens a forwarding session: its own secret (shown in this answer only), the event types it
 * receives, and a lease that its polls renew. The fan-out copies events to it from the
 * moment this answers; an opening run again under its Idempotency-Key finds the session it
 * made (with that secret) while it lives.
 */
export const openListenSession = async (
  deps: CommandDeps,
  supplierId: string,
  events: string[],
  caller: Caller,
  operationId?: string,
): Promise<OpenedSession> => {
  const sessionId = operationId ?? newId();
  const made = operationId ? await loadSession(deps, sessionId) : null;
  if (made) {
    // the first run made it and its answer was lost: shown now, while it lives
    if (made.supplierId !== supplierId) throw new DomainError('not_found', `listen session ${sessionId} not found`);
    if (made.ended) throw ended(made);
    const leaseUntil = new Date(deps.clock.now().getTime() + LISTEN_LEASE_MS);
    await keepLive(deps, made, leaseUntil);
    return { session: made, secret: deps.secretBox.open(made.secretSealed), leaseUntil };
  }
  const now = deps.clock.now();
  const { count } = await deps.db
    .selectFrom('webhook_listen_sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('supplier_id', '=', supplierId)
    .where('lease_until', '>', now)
    .executeTakeFirstOrThrow();
  const secret = newWebhookSecret();
  const result = await execute(
    deps,
    listenSessionStream(sessionId),
    webhookListenSessionDecider,
    (at): WebhookListenSessionCommand => ({
      type: 'OpenListenSession',
      data: {
        sessionId,
        supplierId,
        events,
        secretSealed: deps.secretBox.seal(secret),
        live: Number(count),
        now: at,
      },
    }),
    caller,
  );
  const session = required(result.state, `listen session ${sessionId}`);
  const leaseUntil = new Date(Date.parse(session.openedAt) + LISTEN_LEASE_MS);
  await keepLive(deps, session, leaseUntil);
  return { session, secret, leaseUntil };
};

/** Ends a session: it receives nothing more, and what it was not handed yet is dropped. */
export const endListenSession = async (
  deps: CommandDeps,
  sessionId: string,
  reason: ListenEndReason,
  caller: Caller,
): Promise<void> => {
  await execute(
    deps,
    listenSessionStream(sessionId),
    webhookListenSessionDecider,
    (now): WebhookListenSessionCommand => ({ type: 'EndListenSession', data: { reason, now } }),
    caller,
  );
  await deps.db.deleteFrom('webhook_listen_sessions').where('id', '=', sessionId).execute();
  await deps.db.deleteFrom('webhook_listen_events').where('session_id', '=', sessionId).execute();
};

export interface ForwardedEvent {
  id: string;
  event_id: string;
  event_type: string;
  created_at: string;
  /** Signed now with the session's secret: the headers a webhook delivery carries. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A poll: drops the events `ack` names (handed over before), renews the lease, and answers
 * the events waiting, oldest first, each signed now with the session's secret. With none
 * waiting it looks again until `waitMs` passed (real time: a wait for I/O, not a business
 * duration) or `stopping()` says the instance stops.
 */
export const pollListenSession = async (
  deps: CommandDeps,
  supplierId: string,
  sessionId: string,
  options: { ack: string[]; waitMs: number; stopping: () => boolean; caller: Caller },
): Promise<{ events: ForwardedEvent[]; leaseUntil: Date }> => {
  const session = await loadListenSession(deps, supplierId, sessionId);
  if (session.ended) throw ended(session);
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + LISTEN_LEASE_MS);
  const renewed = await deps.db
    .updateTable('webhook_listen_sessions')
    .set({ lease_until: leaseUntil })
    .where('id', '=', sessionId)
    .where('lease_until', '>', now)
    .executeTakeFirst();
  if (renewed.numUpdatedRows === 0n) {
    // lapsed before its timer came round: ended now, as the timer would
    await endListenSession(deps, sessionId, 'lease_lapsed', options.caller);
    throw ended({ ...session, ended: { reason: 'lease_lapsed', at: now.toISOString() } });
  }
  if (options.ack.length > 0)
    await deps.db
      .deleteFrom('webhook_listen_events')
      .where('session_id', '=', sessionId)
      .where('id', 'in', options.ack)
      .execute();
  const started = performance.now();
  let rows = await waiting(deps, sessionId);
  while (rows.length === 0 && performance.now() - started < options.waitMs && !options.stopping()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_LOOK_MS));
    rows = await waiting(deps, sessionId);
  }
  const secret = deps.secretBox.open(session.secretSealed);
  const signedAt = deps.clock.now();
  return {
    events: rows.map((r) => ({
      id: r.id,
      event_id: r.event_id,
      event_type: r.event_type,
      created_at: new Date(r.created_at).toISOString(),
      headers: deliveryHeaders(
        { id: r.id, eventId: r.event_id, eventType: r.event_type, body: r.body },
        [secret],
        signedAt,
      ),
      body: r.body,
    })),
    leaseUntil,
  };
};

const waiting = (deps: CommandDeps, sessionId: string) =>
  deps.db
    .selectFrom('webhook_listen_events')
    .select(['id', 'event_id', 'event_type', 'body', 'created_at'])
    .where('session_id', '=', sessionId)
    .orderBy('id')
    .limit(POLL_BATCH)
    .execute();
