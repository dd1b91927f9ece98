import { describe, it } from 'vitest';
import {
  type LoggedEvent,
  RECOVERY_BATCH,
  type RecoveryPayload,
  recoveryWorkflow,
} from '../../src/domain/webhook-recovery-process.js';
import { givenWorkflow } from './given-workflow.js';

/** Webhook recovery (spec, Webhooks): the events since `since` the endpoint subscribes to, in order, a batch per run. */

const given = givenWorkflow(recoveryWorkflow);
const now = new Date('2026-01-05T10:00:00.000Z');

const recovery: RecoveryPayload = {
  recoveryId: 'rec1',
  endpointId: 'wh1',
  supplierId: 'sup1',
  since: '2026-01-01T00:00:00.000Z',
  until: '2026-01-05T09:59:00.000Z',
  after: null,
  batch: 1,
};
const endpoint = (events: string[], active = true) => ({ id: 'wh1', active, events });
const logged = (n: number, eventType = 'order.paid'): LoggedEvent => ({
  eventId: `e${n}`,
  eventType,
  position: `${n}/${n}`,
});
const due = (e: ReturnType<typeof endpoint> | null) => ({ type: 'RecoveryDue', recovery, endpoint: e }) as const;

describe('webhook recovery', () => {
  it('a due run of an active endpoint reads the next batch; the endpoint is the state', () => {
    const wh = endpoint(['*']);
    given()
      .when(due(wh))
      .then([{ kind: 'readBatch', recovery }])
      .state(wh);
  });

  it('stops once the endpoint is disabled or deleted meanwhile', () => {
    given()
      .when(due(endpoint(['*'], false)))
      .then([]);
    given().when(due(null)).then([]);
  });

  it('recovers the events the endpoint subscribes to, in log order, and only those', () => {
    const events = [logged(1, 'order.paid'), logged(2, 'payout.created'), logged(3, 'order.refunded')];
    given(null, due(endpoint(['order.paid', 'order.refunded'])))
      .when({ type: 'BatchRead', recovery, events, now })
      .then([
        { kind: 'recoverEvent', recovery, event: logged(1, 'order.paid') },
        { kind: 'recoverEvent', recovery, event: logged(3, 'order.refunded') },
      ]);
  });

  it('a full batch continues in the next run, after its last event, even when none of it was subscribed', () => {
    const events = Array.from({ length: RECOVERY_BATCH }, (_, i) => logged(i + 1, 'payout.created'));
    given(null, due(endpoint(['order.paid'])))
      .when({ type: 'BatchRead', recovery, events, now })
      .then([
        {
          kind: 'schedule',
          timer: 'webhook.recover',
          key: 'rec1:2',
          at: now,
          payload: { ...recovery, after: `${RECOVERY_BATCH}/${RECOVERY_BATCH}`, batch: 2 },
        },
      ]);
  });

  it('a short batch is the last: the recovery is done', () => {
    given(null, due(endpoint(['*'])))
      .when({ type: 'BatchRead', recovery, events: [], now })
      .then([]);
  });
});
