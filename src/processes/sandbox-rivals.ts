import type { CommandDeps } from '../commands/context.js';
import { updateOffer } from '../commands/offers.js';
import { timerCaller } from './caller.js';
import type { Timers } from './timers.js';

/**
 * The sandbox's rival suppliers: each sells the sandbox catalogue's game keys (seeded with
 * it, src/cli/sandbox-rivals.ts) at a price that moves every RIVAL_MOVE_MS, so competition
 * and pricing rules can be tried on a fresh sandbox. Their prices follow a fixed wave around
 * each offer's base price, one step per period of the service's clock: the same time gives
 * the same prices, and a test moves them by moving its clock.
 */
export const RIVALS = [
  { name: 'Sandbox Rival Nova', markup: 0 },
  { name: 'Sandbox Rival Orbit', markup: 150 },
] as const;

export const RIVAL_MOVE_MS = 10 * 60_000;

/** Percent off or over the base price, one entry per period; the rivals start at different places. */
const WAVE = [0, -4, -7, -3, 2, 5, 3, -1];

export interface RivalOffer {
  offerId: string;
  supplierId: string;
  /** Minor units, the price the wave moves around. */
  base: number;
  /** Which rival: each starts at another place in the wave, so they do not move as one. */
  place: number;
}

/** A rival offer's price at `now`: its base moved by the wave's step for the period, `place` apart from the others. */
export const rivalPrice = (base: number, place: number, now: Date): number => {
  const step = Math.floor(now.getTime() / RIVAL_MOVE_MS) + place * 3;
  const percent = WAVE[step % WAVE.length]!;
  return Math.max(1, Math.round((base * (100 + percent)) / 100));
};

export const registerRivalTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on('sandbox.rival-prices', async (t) => {
    const now = deps.clock.now();
    const caller = timerCaller(t);
    // a price it has already is no change (the offer's decider records none), so a re-run is harmless
    for (const o of t.payload.offers)
      await updateOffer(deps, o.supplierId, o.offerId, { price: rivalPrice(o.base, o.place, now) }, caller);
    return { runAgainAt: new Date((Math.floor(now.getTime() / RIVAL_MOVE_MS) + 1) * RIVAL_MOVE_MS) };
  });
};
