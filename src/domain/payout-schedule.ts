import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import { PAYOUT_MINIMUM, type PayoutMethod } from './payout.js';

/**
 * A supplier's automatic payouts (like Stripe's payout schedule): `daily` runs at 00:00 UTC,
 * `weekly` on Mondays at 00:00 UTC, each paying out the whole available balance when it is
 * at least `minimumAmount`; `manual` (the default) creates none.
 */
export type PayoutInterval = 'manual' | 'daily' | 'weekly';

export interface PayoutSchedule {
  supplierId: string;
  interval: PayoutInterval;
  minimumAmount: number;
  method: PayoutMethod;
}

export type PayoutScheduleEvent = { type: 'PayoutScheduleSet'; data: PayoutSchedule & { at: string } };
export type PayoutScheduleCommand = { type: 'SetPayoutSchedule'; data: PayoutSchedule & { now: string } };
export type PayoutScheduleState = PayoutSchedule | null;

export const payoutScheduleDecider: Decider<PayoutScheduleState, PayoutScheduleCommand, PayoutScheduleEvent> = {
  initialState: null,
  evolve: (_state, event) => {
    const { at: _at, ...schedule } = event.data;
    return schedule;
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'SetPayoutSchedule': {
        const { now, ...schedule } = command.data;
        if (schedule.minimumAmount < PAYOUT_MINIMUM)
          throw new DomainError(
            'payout_below_minimum',
            `minimum_amount is at least ${PAYOUT_MINIMUM} minor units (the fee schedule's payout minimum)`,
            {
              minimum: { amount: PAYOUT_MINIMUM, currency: 'EUR' },
            },
          );
        if (
          state &&
          state.interval === schedule.interval &&
          state.minimumAmount === schedule.minimumAmount &&
          state.method === schedule.method
        )
          return [];
        return [{ type: 'PayoutScheduleSet', data: { ...schedule, at: now } }];
      }
      default:
        return assertNever(command.type);
    }
  },
};

const DAY_MS = 24 * 60 * 60_000;

/** The first run strictly after `after`: the next midnight UTC, or the next Monday's. */
export const nextPayoutRun = (interval: 'daily' | 'weekly', after: Date): Date => {
  const midnight = Math.floor(after.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  if (interval === 'daily') return new Date(midnight);
  const weekday = new Date(midnight).getUTCDay(); // 0 Sunday .. 6 Saturday
  return new Date(midnight + ((8 - weekday) % 7) * DAY_MS);
};
