import { describe, it } from 'vitest';
import {
  type ExecuteAttempt,
  type TopupAction,
  type TopupAnswer,
  type TopupItem,
  type TopupState,
  topupWorkflow,
} from '../../src/domain/topup-process.js';
import { givenWorkflow } from './given-workflow.js';

/** The spec's top-up rows (execute 30 s, 3 attempts 10 s apart; status polls; stale validation) as decisions. */

const t0 = new Date('2026-01-05T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const s = (seconds: number) => at(seconds * 1000);
const min = 60_000;

const topup = (id: string, extra: Partial<TopupItem> = {}): TopupItem => ({
  orderItemId: id,
  offerId: `offer-${id}`,
  source: 'topup',
  status: 'reserved',
  topup: { validatedAt: t0.toISOString() },
  ...extra,
});
const order = (...items: TopupItem[]): TopupState => ({ orderId: 'o1', items });
const given = givenWorkflow(topupWorkflow);

const attempt = (n: number): ExecuteAttempt => ({
  orderId: 'o1',
  orderItemId: 'i1',
  attempt: n,
  firstAt: t0.toISOString(),
});
const scheduleStatus = (when: Date): TopupAction => ({
  kind: 'schedule',
  timer: 'topup.status',
  key: 'i1',
  at: when,
  payload: { orderId: 'o1', firstAt: t0.toISOString() },
});

describe('top-ups: POST /topup/execute after capture', () => {
  it('every top-up item still reserved is executed at once, as attempt 1; its 15-minute window starts now', () => {
    given(order(topup('i1'), topup('i2', { status: 'cancelled' }), { ...topup('i3'), source: 'declared' }))
      .when({ type: 'PaymentCaptured', now: s(3) })
      .then([
        {
          kind: 'schedule',
          timer: 'topup.execute',
          key: 'i1:1',
          at: s(3),
          payload: { orderId: 'o1', orderItemId: 'i1', attempt: 1, firstAt: s(3).toISOString() },
        },
      ]);
  });

  it('a validation up to 15 minutes old is executed as it is', () => {
    given(order(topup('i1')))
      .when({ type: 'ExecuteDue', attempt: attempt(1), now: at(15 * min) })
      .then([{ kind: 'executeTopup', attempt: attempt(1) }]);
  });

  it('a validation more than 15 minutes old is validated again before the first attempt (not before a retry)', () => {
    given(order(topup('i1')))
      .when({ type: 'ExecuteDue', attempt: attempt(1), now: at(15 * min + 1) })
      .then([{ kind: 'revalidate', attempt: attempt(1) }]);
    given(order(topup('i1')))
      .when({ type: 'ExecuteDue', attempt: attempt(2), now: at(16 * min) })
      .then([{ kind: 'executeTopup', attempt: attempt(2) }]);
  });

  it('an item no longer reserved, or without a validated operation, is not executed', () => {
    given(order(topup('i1', { status: 'refunded' })))
      .when({ type: 'ExecuteDue', attempt: attempt(1), now: t0 })
      .then([]);
    given(order(topup('i1', { topup: null })))
      .when({ type: 'ExecuteDue', attempt: attempt(1), now: t0 })
      .then([]);
  });

  it('the fresh validation is recorded, then the new operation is executed', () => {
    given(order(topup('i1')))
      .when({
        type: 'Revalidated',
        attempt: attempt(1),
        answer: { kind: 'valid', operationId: 'op2', accountLabel: 'Player' },
      })
      .then([{ kind: 'recordRevalidation', attempt: attempt(1), operationId: 'op2', accountLabel: 'Player' }]);
    given(order(topup('i1')))
      .when({ type: 'RevalidationRecorded', attempt: attempt(1), at: s(16 * 60).toISOString() })
      .then([{ kind: 'executeTopup', attempt: attempt(1) }])
      .state(order(topup('i1', { topup: { validatedAt: s(16 * 60).toISOString() } })));
    given(order(topup('i1', { topup: null })))
      .when({ type: 'RevalidationRecorded', attempt: attempt(1), at: s(16 * 60).toISOString() })
      .then([]);
  });

  it('a refused or unanswered re-validation fails the top-up at the revalidation stage, without an execute', () => {
    const message = 'the account could not be validated again before execution';
    given(order(topup('i1')))
      .when({ type: 'Revalidated', attempt: attempt(1), answer: { kind: 'invalid', code: 'account_ineligible' } })
      .then([{ kind: 'failTopup', orderItemId: 'i1', code: 'account_ineligible', message, stage: 'revalidation' }]);
    given(order(topup('i1')))
      .when({ type: 'Revalidated', attempt: attempt(1), answer: { kind: 'unavailable' } })
      .then([{ kind: 'failTopup', orderItemId: 'i1', code: 'validation_unavailable', message, stage: 'revalidation' }]);
  });

  it('completed or failed is definitive', () => {
    given(order(topup('i1')))
      .when({
        type: 'ExecuteAnswered',
        attempt: attempt(1),
        answer: { kind: 'completed', receiptRef: 'R-1' },
        now: s(1),
      })
      .then([{ kind: 'completeTopup', orderItemId: 'i1', receiptRef: 'R-1' }]);
    given(order(topup('i1')))
      .when({
        type: 'ExecuteAnswered',
        attempt: attempt(2),
        answer: { kind: 'failed', code: 'account_banned', message: 'banned' },
        now: s(11),
      })
      .then([{ kind: 'failTopup', orderItemId: 'i1', code: 'account_banned', message: 'banned' }]);
  });

  it('a timeout or 5xx is retried 10 s later, up to the third attempt', () => {
    given(order(topup('i1')))
      .when({ type: 'ExecuteAnswered', attempt: attempt(1), answer: { kind: 'unknown' }, now: s(30) })
      .then([{ kind: 'schedule', timer: 'topup.execute', key: 'i1:2', at: s(40), payload: attempt(2) }]);
    given(order(topup('i1')))
      .when({ type: 'ExecuteAnswered', attempt: attempt(2), answer: { kind: 'unknown' }, now: s(70) })
      .then([{ kind: 'schedule', timer: 'topup.execute', key: 'i1:3', at: s(80), payload: attempt(3) }]);
  });

  it('processing (202), or the third attempt unanswered, polls the status 10 s later', () => {
    given(order(topup('i1')))
      .when({ type: 'ExecuteAnswered', attempt: attempt(1), answer: { kind: 'processing' }, now: s(1) })
      .then([scheduleStatus(s(11))]);
    given(order(topup('i1')))
      .when({ type: 'ExecuteAnswered', attempt: attempt(3), answer: { kind: 'unknown' }, now: s(110) })
      .then([scheduleStatus(s(120))]);
  });
});

describe('top-ups: GET /topup/operations/{id} every 10 s for a minute, then every 30 s, until 15 minutes', () => {
  const polled = (now: Date, answer: TopupAnswer = { kind: 'processing' }) =>
    given(order(topup('i1'))).when({
      type: 'StatusAnswered',
      orderItemId: 'i1',
      firstAt: t0.toISOString(),
      answer,
      now,
    });

  it('a due status poll asks only for an item still reserved with an operation', () => {
    given(order(topup('i1')))
      .when({ type: 'StatusDue', orderItemId: 'i1', firstAt: t0.toISOString() })
      .then([{ kind: 'pollStatus', orderItemId: 'i1', firstAt: t0.toISOString() }]);
    given(order(topup('i1', { status: 'delivered' })))
      .when({ type: 'StatusDue', orderItemId: 'i1', firstAt: t0.toISOString() })
      .then([]);
  });

  it('still processing in the first minute: again in 10 s; after it: again in 30 s', () => {
    polled(s(10)).then([{ kind: 'pollAgain', at: s(20) }]);
    polled(s(59)).then([{ kind: 'pollAgain', at: s(69) }]);
    polled(s(60)).then([{ kind: 'pollAgain', at: s(90) }]);
  });

  it('an unanswered poll counts as processing', () => {
    polled(s(30), { kind: 'unknown' }).then([{ kind: 'pollAgain', at: s(40) }]);
  });

  it('the last poll falls on the 15-minute mark; unresolved then, the top-up fails', () => {
    polled(s(890)).then([{ kind: 'pollAgain', at: at(15 * min) }]);
    polled(at(15 * min)).then([
      { kind: 'failTopup', orderItemId: 'i1', code: 'unresolved', message: 'no result within 15 minutes' },
    ]);
  });

  it("completed or failed on a poll is definitive, even at the window's end", () => {
    polled(at(15 * min), { kind: 'completed', receiptRef: 'R-9' }).then([
      { kind: 'completeTopup', orderItemId: 'i1', receiptRef: 'R-9' },
    ]);
    polled(s(120), { kind: 'failed', code: 'topup_failed', message: '' }).then([
      { kind: 'failTopup', orderItemId: 'i1', code: 'topup_failed', message: '' },
    ]);
  });
});

describe('top-ups: a definitive failure', () => {
  it('refunds the buyer and costs the offer topup_execute_failed (-25 and a cooldown)', () => {
    given(order(topup('i1', { status: 'cancelled' })))
      .when({ type: 'TopupFailed', orderItemId: 'i1', executeFailed: true })
      .then([
        { kind: 'refund', orderItemId: 'i1' },
        { kind: 'recordOutcome', offerId: 'offer-i1', reason: 'topup_execute_failed', cause: 'i1' },
      ]);
  });

  it('a failed re-validation refunds without an execute failure (its validate outcome already counted)', () => {
    given(order(topup('i1', { status: 'cancelled' })))
      .when({ type: 'TopupFailed', orderItemId: 'i1', executeFailed: false })
      .then([{ kind: 'refund', orderItemId: 'i1' }]);
    given(order()).when({ type: 'TopupFailed', orderItemId: 'i1', executeFailed: true }).then([]);
  });
});
