import { describe, expect, it } from 'vitest';
import { type BalanceEvent, balanceDecider } from '../../src/domain/balance.js';
import { nextPayoutRun } from '../../src/domain/payout-schedule.js';
import { givenFor } from '../support/given.js';

const given = givenFor(balanceDecider);
const t0 = '2026-01-05T10:00:00.000Z';
const ref = { supplierId: 's1', orderId: 'o1', orderItemId: 'i1' };

const credited: BalanceEvent = {
  type: 'SaleCredited',
  data: {
    ...ref,
    entryId: 'sale-i1',
    gross: 3000,
    commission: 255,
    net: 2745,
    availableAt: t0,
    postings: [
      { account: 'buyer_funds', amount: -3000 },
      { account: 'supplier_pending', amount: 2745 },
      { account: 'platform_commission', amount: 255 },
    ],
    at: t0,
  },
};
const settled: BalanceEvent = {
  type: 'SaleSettled',
  data: {
    ...ref,
    entryId: 'settlement-i1',
    net: 2745,
    postings: [
      { account: 'supplier_pending', amount: -2745 },
      { account: 'supplier_available', amount: 2745 },
    ],
    at: t0,
  },
};
const created = (amount: number): BalanceEvent => ({
  type: 'PayoutCreated',
  data: {
    supplierId: 's1',
    payoutId: 'p1',
    entryId: 'payout-p1',
    amount,
    method: 'sepa_bank_transfer',
    trigger: 'manual',
    postings: [
      { account: 'supplier_available', amount: -amount },
      { account: 'payouts_pending', amount },
    ],
    at: t0,
  },
});
const create = (amount: number) => ({
  type: 'CreatePayout' as const,
  data: {
    supplierId: 's1',
    payoutId: 'p1',
    amount,
    method: 'sepa_bank_transfer' as const,
    trigger: 'manual' as const,
    now: t0,
  },
});
const inTransit: BalanceEvent = {
  type: 'PayoutInTransit',
  data: {
    supplierId: 's1',
    payoutId: 'p1',
    entryId: 'payout-in-transit-p1',
    amount: 2500,
    postings: [
      { account: 'payouts_pending', amount: -2500 },
      { account: 'payouts_in_transit', amount: 2500 },
    ],
    at: t0,
  },
};

describe('payouts in the balance decider', () => {
  it('creates a payout from available: a balanced move to payouts_pending', () => {
    given(credited, settled)
      .when(create(2500))
      .then([created(2500)]);
    expect(given(credited, settled, created(2500)).state()).toMatchObject({ available: 245, pending: 0 });
  });

  it('refuses below the minimum, above available, and not positive; a second create of the same id posts nothing', () => {
    given(credited, settled)
      .when(create(1999))
      .thenThrows('payout_below_minimum', { minimum: { amount: 2000, currency: 'EUR' } });
    given(credited, settled)
      .when(create(2746))
      .thenThrows('insufficient_available_balance', { available: { amount: 2745, currency: 'EUR' } });
    given(credited)
      .when(create(2000))
      .thenThrows('insufficient_available_balance', { available: { amount: 0, currency: 'EUR' } });
    given(credited, settled).when(create(0)).thenThrows('validation_failed');
    given(credited, settled, created(2500)).when(create(2500)).then([]);
  });

  it('moves pending -> in_transit -> paid over the payout accounts; failure gives the amount back from where it stood', () => {
    given(credited, settled, created(2500))
      .when({ type: 'MarkPayoutInTransit', data: { payoutId: 'p1', now: t0 } })
      .then([inTransit]);
    given(credited, settled, created(2500), inTransit)
      .when({ type: 'MarkPayoutPaid', data: { payoutId: 'p1', now: t0 } })
      .then([
        {
          type: 'PayoutPaid',
          data: {
            supplierId: 's1',
            payoutId: 'p1',
            entryId: 'payout-paid-p1',
            amount: 2500,
            postings: [
              { account: 'payouts_in_transit', amount: -2500 },
              { account: 'paid_out', amount: 2500 },
            ],
            at: t0,
          },
        },
      ]);
    given(credited, settled, created(2500), inTransit)
      .when({ type: 'FailPayout', data: { payoutId: 'p1', failureCode: 'account_closed', now: t0 } })
      .then([
        {
          type: 'PayoutFailed',
          data: {
            supplierId: 's1',
            payoutId: 'p1',
            entryId: 'payout-failure-p1',
            amount: 2500,
            from: 'in_transit',
            failureCode: 'account_closed',
            postings: [
              { account: 'payouts_in_transit', amount: -2500 },
              { account: 'supplier_available', amount: 2500 },
            ],
            at: t0,
          },
        },
      ]);
    given(credited, settled, created(2500), inTransit)
      .when({ type: 'CancelPayout', data: { payoutId: 'p1', now: t0 } })
      .thenThrows('invalid_state', { payout_status: 'in_transit' });
    given(credited, settled, created(2500))
      .when({ type: 'MarkPayoutPaid', data: { payoutId: 'p1', now: t0 } })
      .thenThrows('invalid_state', { payout_status: 'pending' });
    given(credited, settled)
      .when({ type: 'MarkPayoutPaid', data: { payoutId: 'p1', now: t0 } })
      .thenThrows('not_found');
    given(credited, settled, created(2500), inTransit)
      .when({ type: 'MarkPayoutInTransit', data: { payoutId: 'p1', now: t0 } })
      .then([]);
  });

  it('a refund after a payout takes available below zero', () => {
    const state = given(credited, settled, created(2745)).state();
    expect(state.available).toBe(0);
    const [refund] = balanceDecider.decide({ type: 'DebitRefund', data: { orderItemId: 'i1', now: t0 } }, state);
    expect(balanceDecider.evolve(state, refund!).available).toBe(-2745);
  });

  it('schedules: daily at the next 00:00 UTC, weekly at the next Monday 00:00 UTC', () => {
    expect(nextPayoutRun('daily', new Date('2026-01-05T10:00:00Z')).toISOString()).toBe('2026-01-06T00:00:00.000Z');
    expect(nextPayoutRun('daily', new Date('2026-01-06T00:00:00Z')).toISOString()).toBe('2026-01-07T00:00:00.000Z');
    expect(nextPayoutRun('weekly', new Date('2026-01-05T10:00:00Z')).toISOString()).toBe('2026-01-12T00:00:00.000Z'); // a Monday
    expect(nextPayoutRun('weekly', new Date('2026-01-11T23:59:59Z')).toISOString()).toBe('2026-01-12T00:00:00.000Z');
    expect(nextPayoutRun('weekly', new Date('2026-01-12T00:00:00Z')).toISOString()).toBe('2026-01-19T00:00:00.000Z');
  });
});
