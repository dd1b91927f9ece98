/**
 * Offer health (spec: Limits, offer health): an integer 0 to 100, starting at 100; routing
 * needs 70. The spec names the signals; the points are ours (docs/decisions.md).
 *
 * This file is the one home of every health number: the offer decider applies them, routing
 * gates on them and the forecast (health-forecast.ts) predicts from them, so what a
 * supplier is told cannot drift from what happens.
 */
export const HEALTH = {
  start: 100,
  routingMinimum: 70,
  /** At or below this the offer is exhausted: a cooldown starts. */
  exhausted: 40,
  afterCooldown: 70,
  /** Activating an offer that was active before restarts it here. */
  reactivation: 70,
  /** Shown to competitors as the `excellent` band (a display band, no consequence). */
  excellentBand: 90,
  /** A passing healthcheck never lifts health above this (the way back to routing). */
  recoveryCeiling: 70,
  max: 100,
  min: 0,
} as const;

export const HEALTH_DELTAS = {
  /** items ready within 60 s of POST /orders */
  fast_delivery: +3,
  /** items ready later inside the allocation window */
  delivery: +1,
  /** reservation or order call failed: timeout, 5xx, unexpected 4xx */
  call_failure: -5,
  out_of_stock: -2,
  healthcheck_failed: -10,
  /** top-up validate timeout or 5xx */
  topup_validate_failure: -2,
  /** top-up execute definitive failure (also starts a cooldown) */
  topup_execute_failed: -25,
  /** 10-minute allocation window missed (also starts a cooldown) */
  missed_window: -30,
  /**
   * A passing scheduled healthcheck while below the routing minimum and out of cooldown:
   * the way back to routing (decisions: health recovery). Never lifts the score above 70.
   */
  healthcheck_passed: +5,
} as const;

export type HealthReason = keyof typeof HEALTH_DELTAS;

/** Reasons that start a cooldown whatever the score. */
export const COOLDOWN_REASONS: ReadonlySet<HealthReason> = new Set(['topup_execute_failed', 'missed_window']);

export const COOLDOWN_MS = 2 * 60 * 60_000;
/** 24 hours of continuous cooldown deactivate the offer. */
export const DEACTIVATE_AFTER_MS = 24 * 60 * 60_000;

/**
 * How many outcome ids an offer remembers to refuse a second application. A repeat comes
 * from a step re-run after a crash, within minutes; older ids can be forgotten.
 */
export const REMEMBERED_OUTCOMES = 256;

export const clampHealth = (n: number) => Math.max(HEALTH.min, Math.min(HEALTH.max, n));
