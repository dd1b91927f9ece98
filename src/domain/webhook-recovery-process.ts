import { workflow } from './workflow.js';

/**
 * A webhook recovery as pure decisions: which of the events since `since` become recovered
 * deliveries (those the endpoint subscribes to), in event order, a batch per timer run, and
 * whether another batch follows. Whether an event concerned the endpoint's supplier, and
 * whether this recovery sent it already, is read when it is recovered (src/processes/webhook-recovery.ts).
 */

/** Events per timer run: a long recovery continues in the next run, never past a timer lease. */
export const RECOVERY_BATCH = 50;

/** One run of a webhook recovery (the `webhook.recover` timer's payload): the next batch of events since `since`. */
export interface RecoveryPayload {
  recoveryId: string;
  endpointId: string;
  supplierId: string;
  since: string;
  until: string;
  /** The last event handled, as `commit/prepare`; null before the first. */
  after: string | null;
  batch: number;
}

/** The endpoint as a recovery reads it; null when it is gone. */
export type RecoveryEndpoint = { id: string; active: boolean; events: readonly string[] } | null;

/** An event of the webhook event log, in global order. */
export interface LoggedEvent {
  eventId: string;
  eventType: string;
  /** `commit/prepare`, as the payload's `after`. */
  position: string;
}

export type RecoveryInput =
  | { type: 'RecoveryDue'; recovery: RecoveryPayload; endpoint: RecoveryEndpoint }
  /** The log's next events after `recovery.after`, at most a batch; `now` is when they were read. */
  | { type: 'BatchRead'; recovery: RecoveryPayload; events: readonly LoggedEvent[]; now: Date };

export type RecoveryAction =
  | { kind: 'readBatch'; recovery: RecoveryPayload }
  /** A new delivery marked `recovered` for this event, sent now (a failed one takes the retry ladder). */
  | { kind: 'recoverEvent'; recovery: RecoveryPayload; event: LoggedEvent }
  | { kind: 'schedule'; timer: 'webhook.recover'; key: string; at: Date; payload: RecoveryPayload };

const subscribes = (events: readonly string[], type: string) => events.includes('*') || events.includes(type);

/** A full batch may have more behind it: the next run takes up after its last event. */
const nextBatch = (p: RecoveryPayload, last: LoggedEvent, now: Date): RecoveryAction => ({
  kind: 'schedule',
  timer: 'webhook.recover',
  key: `${p.recoveryId}:${p.batch + 1}`,
  at: now,
  payload: { ...p, after: last.position, batch: p.batch + 1 },
});

export const recoveryWorkflow = workflow<RecoveryInput, RecoveryEndpoint, RecoveryAction>({
  name: 'webhook-recovery',
  initialState: null,
  decide: {
    // stopped: the endpoint was disabled or deleted meanwhile
    RecoveryDue: (input, endpoint) => (endpoint?.active ? [{ kind: 'readBatch', recovery: input.recovery }] : []),
    BatchRead: (input, endpoint) => {
      const subscribed = endpoint ? input.events.filter((e) => subscribes(endpoint.events, e.eventType)) : [];
      const recover = subscribed.map((event): RecoveryAction => ({
        kind: 'recoverEvent',
        recovery: input.recovery,
        event,
      }));
      const last = input.events.at(-1);
      return input.events.length === RECOVERY_BATCH && last
        ? [...recover, nextBatch(input.recovery, last, input.now)]
        : recover;
    },
  },
  evolve: { RecoveryDue: (_, input) => input.endpoint },
});
