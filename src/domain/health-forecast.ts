import { HEALTHCHECK_EVERY_MS, HEALTHCHECK_IN_COOLDOWN_EVERY_MS } from './contract-timings.js';
import { COOLDOWN_MS, DEACTIVATE_AFTER_MS, HEALTH, HEALTH_DELTAS } from './offer-health.js';

/**
 * What the health table means for one offer now: the rules with their numbers, how many
 * more failures before the next consequence, and when it recovers if nothing fails. Every
 * number comes from offer-health.ts, the table the offer decider applies, so the forecast
 * and what then happens cannot drift (test/domain/health-forecast.unit.spec.ts holds it
 * against the decider, rule by rule).
 */

/**
 * What of an offer's state the forecast reads: a shape of its own, so that the offer decider,
 * which announces the forecast's warnings, can import it without a cycle.
 */
export interface HealthOf {
  health: number;
  status: string;
  stockMode: string;
  cooldownUntil: string | null;
  cooldownSince: string | null;
}

export type Consequence = 'leaves_routing' | 'cooldown' | 'deactivation';

export interface NextConsequence {
  consequence: Consequence;
  /** Failed reservation or order calls (timeout, 5xx, unexpected 4xx) that bring it about. */
  failedCalls: number | null;
  /** Failed scheduled healthchecks that bring it about (declared offers). */
  failedHealthchecks: number | null;
  /** For deactivation: the minutes of continued unavailability before it. */
  minutes: number | null;
  message: string;
}

export interface Recovery {
  /** When it is routable again if nothing fails: null when it is routable now. */
  at: string | null;
  message: string;
}

export interface HealthForecast {
  score: number;
  routingEligible: boolean;
  cooldownUntil: string | null;
  next: NextConsequence | null;
  recovery: Recovery | null;
  /** One step (a failure) from `next`: what `offer.health_warning` announces. */
  oneStepAway: boolean;
}

/** Failures of `points` (negative) each until the score is at or below `limit`, from `score`. */
const stepsTo = (score: number, points: number, reach: (s: number) => boolean) => {
  let n = 0;
  for (let s = score; !reach(s); s = Math.max(HEALTH.min, s + points)) {
    n += 1;
    if (s === HEALTH.min) return null;
  }
  return n;
};

const plural = (n: number, one: string) => `${n} more ${one}${n === 1 ? '' : 's'}`;

/** "2 more failed reservation or order calls (or 1 more failed healthcheck)". */
const failures = (calls: number, checks: number | null) =>
  `${plural(calls, 'failed reservation or order call')}${checks === null ? '' : ` (or ${plural(checks, 'failed healthcheck')})`}`;

const inCooldown = (o: HealthOf, now: Date) =>
  o.cooldownUntil !== null && new Date(o.cooldownUntil).getTime() > now.getTime();

/** The rules of the health table, with their numbers, as the API shows them. */
export const healthRules = () => ({
  start: HEALTH.start,
  routing_minimum: HEALTH.routingMinimum,
  cooldown_at_or_below: HEALTH.exhausted,
  cooldown_minutes: COOLDOWN_MS / 60_000,
  deactivation_after_cooldown_hours: DEACTIVATE_AFTER_MS / 3_600_000,
  score_after_cooldown: HEALTH.afterCooldown,
  score_after_reactivation: HEALTH.reactivation,
  points: { ...HEALTH_DELTAS },
  cooldown_at_once_for: ['missed_window', 'topup_execute_failed'],
  healthcheck_every_minutes: HEALTHCHECK_EVERY_MS / 60_000,
  healthcheck_in_cooldown_every_minutes: HEALTHCHECK_IN_COOLDOWN_EVERY_MS / 60_000,
});

/**
 * Only a declared offer's supplier is called (reservations, orders, healthchecks): an
 * uploaded offer's keys are the service's own, and no failure counts against it.
 */
const nextConsequence = (o: HealthOf, now: Date): NextConsequence | null => {
  const declared = o.stockMode === 'declared';
  if (!declared) return null;
  if (o.cooldownUntil !== null) {
    // in a cooldown: only the first healthcheck after it ends decides. Failing, it starts
    // another; the first end 24 hours or more after the cooldown began deactivates the offer
    const since = new Date(o.cooldownSince ?? now.toISOString()).getTime();
    let end = new Date(o.cooldownUntil).getTime();
    while (end < since + DEACTIVATE_AFTER_MS) end += COOLDOWN_MS;
    const minutes = Math.max(0, Math.ceil((end - now.getTime()) / 60_000));
    return {
      consequence: 'deactivation',
      failedCalls: null,
      failedHealthchecks: null,
      minutes,
      message: `${minutes} more minutes of unavailability and this offer is deactivated (24 hours of continuous cooldown)`,
    };
  }
  const calls = (reach: (s: number) => boolean) => stepsTo(o.health, HEALTH_DELTAS.call_failure, reach);
  const checks = (reach: (s: number) => boolean) =>
    declared ? stepsTo(o.health, HEALTH_DELTAS.healthcheck_failed, reach) : null;
  if (o.health >= HEALTH.routingMinimum) {
    const reach = (s: number) => s < HEALTH.routingMinimum;
    const n = calls(reach)!;
    const m = checks(reach);
    return {
      consequence: 'leaves_routing',
      failedCalls: n,
      failedHealthchecks: m,
      minutes: null,
      message: `${failures(n, m)} and this offer drops under ${HEALTH.routingMinimum}: no order is routed to it`,
    };
  }
  const reach = (s: number) => s <= HEALTH.exhausted;
  const n = calls(reach)!;
  const m = checks(reach);
  return {
    consequence: 'cooldown',
    failedCalls: n,
    failedHealthchecks: m,
    minutes: null,
    message: `${failures(n, m)} and this offer enters a ${COOLDOWN_MS / 60_000}-minute cooldown`,
  };
};

const recoveryOf = (o: HealthOf, now: Date): Recovery | null => {
  if (o.cooldownUntil !== null) {
    const until = new Date(o.cooldownUntil);
    const at = until.getTime() > now.getTime() ? until : now;
    return {
      at: at.toISOString(),
      message: `at the first passing healthcheck from ${at.toISOString()}, health returns to ${HEALTH.afterCooldown} and routing resumes`,
    };
  }
  if (o.health >= HEALTH.routingMinimum) return null;
  if (o.stockMode !== 'declared')
    return { at: null, message: `each delivery raises health; at ${HEALTH.routingMinimum} routing resumes` };
  const checks = Math.ceil((HEALTH.recoveryCeiling - o.health) / HEALTH_DELTAS.healthcheck_passed);
  const at = new Date(now.getTime() + checks * HEALTHCHECK_EVERY_MS).toISOString();
  return {
    at,
    message: `${checks} passing healthcheck${checks === 1 ? '' : 's'} (every ${HEALTHCHECK_EVERY_MS / 60_000} minutes) bring health back to ${HEALTH.routingMinimum}: about ${at}`,
  };
};

export const forecastHealth = (o: HealthOf, now: Date): HealthForecast => {
  const next = o.status === 'active' ? nextConsequence(o, now) : null;
  return {
    score: o.health,
    routingEligible: o.status === 'active' && o.health >= HEALTH.routingMinimum && !inCooldown(o, now),
    cooldownUntil: o.cooldownUntil,
    next,
    recovery: o.status === 'active' ? recoveryOf(o, now) : null,
    oneStepAway: next !== null && (next.failedCalls === 1 || next.failedHealthchecks === 1),
  };
};
