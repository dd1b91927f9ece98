import { describe, it } from 'vitest';
import {
  type WebhookListenSessionEvent,
  webhookListenSessionDecider,
} from '../../src/domain/webhook-listen-session.js';
import { givenFor } from '../support/given.js';

const given = givenFor(webhookListenSessionDecider);
const t0 = '2026-01-05T10:00:00.000Z';
const t1 = '2026-01-05T10:01:00.000Z';
const ids = { sessionId: 'ls1', supplierId: 's1' };

const opened: WebhookListenSessionEvent = {
  type: 'WebhookListenSessionOpened',
  data: { ...ids, events: ['order.paid'], secretSealed: 'S0', at: t0 },
};
const open = (live: number) => ({
  type: 'OpenListenSession' as const,
  data: { ...ids, events: ['order.paid'], secretSealed: 'S0', live, now: t0 },
});
const end = (reason: 'closed' | 'lease_lapsed') => ({ type: 'EndListenSession' as const, data: { reason, now: t1 } });

describe('WebhookListenSession', () => {
  it('opens while the supplier has fewer than five live sessions', () => {
    given().when(open(4)).then([opened]);
  });

  it('a sixth live session is refused', () => {
    given().when(open(5)).thenThrows('invalid_state');
  });

  it('the same opening again (its request run again) is made already', () => {
    given(opened).when(open(5)).then([]);
  });

  it('ends once, closed or lapsed, and then stays ended', () => {
    given(opened)
      .when(end('lease_lapsed'))
      .then([{ type: 'WebhookListenSessionEnded', data: { ...ids, reason: 'lease_lapsed', at: t1 } }]);
    given(opened, { type: 'WebhookListenSessionEnded', data: { ...ids, reason: 'closed', at: t1 } })
      .when(end('lease_lapsed'))
      .then([]);
  });

  it('a session never opened cannot end', () => {
    given().when(end('closed')).thenThrows('not_found');
  });
});
