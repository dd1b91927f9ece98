import type { Decider, CommandData } from './decider.js';
import { type EventData, evolveWith } from './evolvers.js';
import { changedFields } from './changes.js';
import { forecastHealth } from './health-forecast.js';
import { assertNever, DomainError, invalidInput } from './errors.js';
import {
  clampHealth,
  COOLDOWN_MS,
  COOLDOWN_REASONS,
  DEACTIVATE_AFTER_MS,
  HEALTH,
  HEALTH_DELTAS,
  type HealthReason,
  REMEMBERED_OUTCOMES,
} from './offer-health.js';

export type StockMode = 'uploaded' | 'declared';
export type OfferStatus = 'draft' | 'active' | 'inactive';

/** The result of `GET {base_url}/healthcheck`, run by the handler and judged here. */
export interface ProbeResult {
  ok: boolean;
  httpStatus: number;
  latencyMs: number;
  checkedAt: string;
  error?: string;
}

export interface OfferTerms {
  price: number;
  externalRef: string;
  lowStockThreshold: number;
  deliverySlaMinutes: number;
  deliveryTime: string;
}

export interface Fulfilment {
  baseUrl: string;
  /** AES-GCM sealed `svcsec_…`; the clear secret is shown once, at creation or rotation. */
  secretSealed: string;
  /** During a rotation the old secret keeps signing beside the new one until this time. */
  previousSecretSealed: string | null;
  previousValidUntil: string | null;
  /** The last rotation's identity (its request's operation), when it had one. */
  lastRotationId?: string;
  lastHealthcheckAt: string | null;
  lastHealthcheckOk: boolean | null;
}

export type OfferEvent =
  | {
      type: 'OfferCreated';
      data: OfferTerms & {
        offerId: string;
        supplierId: string;
        productId: string;
        stockMode: StockMode;
        declaredStock: number | null;
        fulfilment: { baseUrl: string; secretSealed: string } | null;
        at: string;
      };
    }
  | {
      type: 'OfferUpdated';
      data: { offerId: string; changes: Partial<OfferTerms> & { fulfilmentBaseUrl?: string }; at: string };
    }
  | { type: 'OfferActivated'; data: { offerId: string; health: number; at: string } }
  | { type: 'OfferDeactivated'; data: { offerId: string; reason: string; at: string } }
  | {
      type: 'OfferHealthChanged';
      data: { offerId: string; health: number; delta: number; reason: string; outcomeId?: string; at: string };
    }
  | {
      type: 'OfferCooldownStarted';
      data: { offerId: string; until: string; since: string; reason: string; outcomeId?: string; at: string };
    }
  | { type: 'OfferCooldownEnded'; data: { offerId: string; health: number; at: string } }
  /** One failure from the next consequence (health-forecast.ts): announced once per approach. */
  | {
      type: 'OfferHealthWarning';
      data: {
        offerId: string;
        health: number;
        consequence: string;
        failedCalls: number | null;
        failedHealthchecks: number | null;
        message: string;
        at: string;
      };
    }
  | { type: 'DeclaredStockSet'; data: { offerId: string; declaredStock: number; at: string } }
  | { type: 'FulfilmentChecked'; data: { offerId: string; probe: ProbeResult; at: string } }
  | {
      type: 'FulfilmentSecretRotated';
      data: {
        offerId: string;
        secretSealed: string;
        previousSecretSealed: string;
        previousValidUntil: string;
        /** The rotation's identity: a rotation is made once. Absent on older events. */
        rotationId?: string;
        at: string;
      };
    }
  // a price set by the service on the supplier's behalf (its pricing rule), with the reason
  | {
      type: 'OfferPriceChanged';
      data: { offerId: string; price: number; previousPrice: number; reason: string; at: string };
    }
  /** A key's value shown again on the supplier's explicit Reveal: who (the token) and when, never the value. */
  | { type: 'InventoryItemRevealed'; data: { offerId: string; itemId: string; tokenId: string | null; at: string } };

export type OfferCommand =
  | { type: 'CreateOffer'; data: Extract<OfferEvent, { type: 'OfferCreated' }>['data'] & { productSellable: boolean } }
  | {
      type: 'UpdateOffer';
      data: {
        changes: Partial<OfferTerms> & { fulfilmentBaseUrl?: string };
        /** Whether a pricing rule sets this offer's price now: then a price by hand is refused. */
        pricingRuleOn?: boolean;
        now: string;
      };
    }
  | { type: 'ActivateOffer'; data: { probe?: ProbeResult; now: string } }
  | { type: 'DeactivateOffer'; data: { reason: string; now: string } }
  | { type: 'SetDeclaredStock'; data: { declaredStock: number; now: string } }
  | { type: 'RecordHealthcheck'; data: { probe: ProbeResult; now: string } }
  /**
   * `outcomeId` names what caused the outcome (an order item's missed window, one
   * reservation's failure): the offer applies each outcome once, so a step re-run after a
   * crash cannot charge the same penalty twice.
   */
  | { type: 'RecordOutcome'; data: { reason: HealthReason; outcomeId?: string; now: string } }
  /** `runId` names the timer run (its due time), so a run re-tried after a crash applies its outcome once. */
  | { type: 'RecordScheduledHealthcheck'; data: { probe: ProbeResult; runId?: string; now: string } }
  | {
      type: 'RotateFulfilmentSecret';
      data: { secretSealed: string; now: string; overlapMs: number; rotationId?: string };
    }
  | { type: 'RepriceOffer'; data: { price: number; reason: string; maxChangesPerHour: number; now: string } }
  | { type: 'RecordReveal'; data: { itemId: string; tokenId: string | null; now: string } };

export interface OfferState {
  id: string;
  supplierId: string;
  productId: string;
  stockMode: StockMode;
  status: OfferStatus;
  terms: OfferTerms;
  declaredStock: number | null;
  fulfilment: Fulfilment | null;
  health: number;
  cooldownUntil: string | null;
  /** Start of the current unbroken cooldown (extensions keep it). */
  cooldownSince: string | null;
  activatedAt: string | null;
  everActive: boolean;
  /** The latest outcome ids applied (at most REMEMBERED_OUTCOMES), newest last. */
  appliedOutcomes: readonly string[];
  createdAt: string;
  updatedAt: string;
  /** When the pricing rule changed the price, newest last (the last hour's are what count). */
  repricedAt?: string[];
}

export const INITIAL_HEALTH = HEALTH.start;
export const REACTIVATION_HEALTH = HEALTH.reactivation;

const offerCreated = (d: EventData<OfferEvent, 'OfferCreated'>): OfferState => ({
  id: d.offerId,
  supplierId: d.supplierId,
  productId: d.productId,
  stockMode: d.stockMode,
  status: 'draft',
  terms: {
    price: d.price,
    externalRef: d.externalRef,
    lowStockThreshold: d.lowStockThreshold,
    deliverySlaMinutes: d.deliverySlaMinutes,
    deliveryTime: d.deliveryTime,
  },
  declaredStock: d.declaredStock,
  fulfilment: d.fulfilment && {
    ...d.fulfilment,
    previousSecretSealed: null,
    previousValidUntil: null,
    lastHealthcheckAt: null,
    lastHealthcheckOk: null,
  },
  health: INITIAL_HEALTH,
  cooldownUntil: null,
  cooldownSince: null,
  activatedAt: null,
  everActive: false,
  appliedOutcomes: [],
  createdAt: d.at,
  updatedAt: d.at,
});

/** Every event after the offer's creation, on its state with `updatedAt` moved to the event's time. */
const evolveLater = evolveWith<OfferState, Exclude<OfferEvent, { type: 'OfferCreated' }>>({
  OfferUpdated: (state, { changes: { fulfilmentBaseUrl, ...terms } }) => ({
    ...state,
    terms: { ...state.terms, ...terms },
    fulfilment:
      state.fulfilment && fulfilmentBaseUrl !== undefined
        ? { ...state.fulfilment, baseUrl: fulfilmentBaseUrl }
        : state.fulfilment,
  }),
  OfferActivated: (state, { health, at }) => ({
    ...state,
    status: 'active',
    health,
    cooldownUntil: null,
    cooldownSince: null,
    activatedAt: at,
    everActive: true,
  }),
  OfferHealthChanged: (state, { health, outcomeId }) => ({
    ...state,
    health,
    appliedOutcomes: remember(state.appliedOutcomes, outcomeId),
  }),
  OfferCooldownStarted: (state, { until, since, outcomeId }) => ({
    ...state,
    cooldownUntil: until,
    cooldownSince: since,
    appliedOutcomes: remember(state.appliedOutcomes, outcomeId),
  }),
  OfferCooldownEnded: (state, { health }) => ({ ...state, health, cooldownUntil: null, cooldownSince: null }),
  OfferHealthWarning: (state) => state,
  OfferDeactivated: (state) => ({ ...state, status: 'inactive' }),
  DeclaredStockSet: (state, { declaredStock }) => ({ ...state, declaredStock }),
  FulfilmentChecked: (state, { probe }) => ({
    ...state,
    fulfilment: state.fulfilment && {
      ...state.fulfilment,
      lastHealthcheckAt: probe.checkedAt,
      lastHealthcheckOk: probe.ok,
    },
  }),
  FulfilmentSecretRotated: (state, data) => ({
    ...state,
    fulfilment: state.fulfilment && {
      ...state.fulfilment,
      secretSealed: data.secretSealed,
      previousSecretSealed: data.previousSecretSealed,
      previousValidUntil: data.previousValidUntil,
      ...(data.rotationId !== undefined && { lastRotationId: data.rotationId }),
    },
  }),
  InventoryItemRevealed: (state) => state,
  OfferPriceChanged: (state, { price, reason, at }) => ({
    ...state,
    terms: { ...state.terms, price },
    repricedAt:
      reason === PRICING_RULE_REASON ? [...(state.repricedAt ?? []), at].slice(-REPRICE_HISTORY) : state.repricedAt,
  }),
});

export const offerDecider: Decider<OfferState | null, OfferCommand, OfferEvent> = {
  initialState: null,

  evolve(state, event) {
    if (event.type === 'OfferCreated') return offerCreated(event.data);
    if (!state) return state;
    // a reveal is part of the offer's history, not a change of the offer
    if (event.type === 'InventoryItemRevealed') return state;
    return evolveLater({ ...state, updatedAt: event.data.at }, event);
  },

  decide(command, state) {
    if (command.type === 'CreateOffer') {
      if (state) throw new DomainError('offer_exists', `offer ${state.id} already exists`);
      const { productSellable, ...data } = command.data;
      if (!productSellable) throw new DomainError('product_not_sellable', `product ${data.productId} is not sellable`);
      return [{ type: 'OfferCreated', data }];
    }
    if (!state) throw new DomainError('not_found', 'offer not found');
    switch (command.type) {
      case 'UpdateOffer':
        return updateOffer(state, command.data);
      case 'ActivateOffer':
        return activateOffer(state, command.data);
      case 'DeactivateOffer':
        return deactivateOffer(state, command.data);
      case 'SetDeclaredStock':
        return setDeclaredStock(state, command.data);
      case 'RecordHealthcheck':
        return recordHealthcheck(state, command.data);
      case 'RecordOutcome':
        return withWarning(state, recordOutcome(state, command.data), command.data.now);
      case 'RecordScheduledHealthcheck':
        return withWarning(state, recordScheduledHealthcheck(state, command.data), command.data.now);
      case 'RotateFulfilmentSecret':
        return rotateFulfilmentSecret(state, command.data);
      case 'RepriceOffer':
        return repriceOffer(state, command.data);
      case 'RecordReveal':
        return [
          {
            type: 'InventoryItemRevealed',
            data: {
              offerId: state.id,
              itemId: command.data.itemId,
              tokenId: command.data.tokenId,
              at: command.data.now,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};

const remember = (ids: readonly string[], id: string | undefined): readonly string[] =>
  id === undefined || ids[ids.length - 1] === id ? ids : [...ids.slice(-(REMEMBERED_OUTCOMES - 1)), id];

export const PRICING_RULE_REASON = 'pricing_rule';
const REPRICE_HISTORY = 100;
const HOUR_MS = 3600_000;

/** The pricing rule's price changes within the hour before `now`, oldest first. */
export const repricesInLastHour = (state: OfferState, now: string): string[] =>
  (state.repricedAt ?? []).filter((at) => new Date(now).getTime() - new Date(at).getTime() < HOUR_MS);

const inCooldown = (state: OfferState, now: string) =>
  state.cooldownUntil !== null && new Date(state.cooldownUntil).getTime() > new Date(now).getTime();

/** Starts a 2-hour cooldown, or extends the running one (its start stays, for the 24-hour rule). */
const cooldown = (state: OfferState, reason: string, now: string, outcomeId?: string): OfferEvent => ({
  type: 'OfferCooldownStarted',
  data: {
    offerId: state.id,
    until: new Date(new Date(now).getTime() + COOLDOWN_MS).toISOString(),
    since: state.cooldownSince ?? now,
    reason,
    ...(outcomeId !== undefined && { outcomeId }),
    at: now,
  },
});

const fieldName = (k: string) =>
  ({
    deliverySlaMinutes: 'delivery_sla_minutes',
    deliveryTime: 'delivery_time',
    fulfilmentBaseUrl: 'fulfilment.base_url',
  })[k] ?? k;

export const declaredOnlyError = (fields: string[]) =>
  invalidInput(
    fields.map((f) => ({ input: f, message: 'only for declared offers' })),
    `${fields.join(', ')} only apply to declared offers`,
  );

const probeDetail = (probe: ProbeResult | undefined) =>
  !probe
    ? 'the fulfilment healthcheck did not run'
    : probe.httpStatus === 0
      ? `GET /healthcheck failed after ${probe.latencyMs} ms: ${probe.error ?? 'no answer'}`
      : `GET /healthcheck answered ${probe.httpStatus} after ${probe.latencyMs} ms`;

// ---- one function per command: what each decides, given the state as it stands

const updateOffer = (state: OfferState, data: CommandData<OfferCommand, 'UpdateOffer'>): OfferEvent[] => {
  const offerId = state.id;
  const { changes, now } = data;
  if (state.stockMode === 'uploaded') {
    const declaredOnly = (['deliverySlaMinutes', 'deliveryTime', 'fulfilmentBaseUrl'] as const).filter(
      (k) => changes[k] !== undefined,
    );
    if (declaredOnly.length > 0) throw declaredOnlyError(declaredOnly.map(fieldName));
  }
  const changed = changedFields<typeof changes>(changes, {
    ...state.terms,
    fulfilmentBaseUrl: state.fulfilment?.baseUrl,
  });
  // the rule would set its own price again at the next market change: a price by hand
  // that looks saved and is then undone is worse than a refusal that says why
  if (changed.price !== undefined && data.pricingRuleOn)
    throw new DomainError(
      'pricing_rule_active',
      'a pricing rule sets this offer’s price: remove the rule, or change its floor and ceiling, to set the price by hand',
    );
  if (Object.keys(changed).length === 0) return [];
  return [{ type: 'OfferUpdated', data: { offerId, changes: changed, at: now } }];
};

const activateOffer = (state: OfferState, data: CommandData<OfferCommand, 'ActivateOffer'>): OfferEvent[] => {
  const offerId = state.id;
  const { probe, now } = data;
  if (state.status === 'active') return []; // idempotent
  if (state.stockMode === 'declared') {
    if (!probe?.ok)
      throw new DomainError('fulfilment_unreachable', probeDetail(probe), {
        probe: probe && {
          ok: probe.ok,
          http_status: probe.httpStatus,
          latency_ms: probe.latencyMs,
          checked_at: probe.checkedAt,
          ...(probe.error && { error: probe.error }),
        },
      });
  }
  const health = state.everActive ? REACTIVATION_HEALTH : state.health;
  const checked: OfferEvent[] = probe ? [{ type: 'FulfilmentChecked', data: { offerId, probe, at: now } }] : [];
  return [...checked, { type: 'OfferActivated', data: { offerId, health, at: now } }];
};

const deactivateOffer = (state: OfferState, data: CommandData<OfferCommand, 'DeactivateOffer'>): OfferEvent[] => {
  const offerId = state.id;
  if (state.status !== 'active') return [];
  return [{ type: 'OfferDeactivated', data: { offerId, reason: data.reason, at: data.now } }];
};

const setDeclaredStock = (state: OfferState, data: CommandData<OfferCommand, 'SetDeclaredStock'>): OfferEvent[] => {
  const offerId = state.id;
  if (state.stockMode !== 'declared')
    throw new DomainError(
      'stock_mode_mismatch',
      'declared stock is for declared offers; this offer holds uploaded stock',
    );
  if (state.declaredStock === data.declaredStock) return [];
  return [
    {
      type: 'DeclaredStockSet',
      data: { offerId, declaredStock: data.declaredStock, at: data.now },
    },
  ];
};

const recordHealthcheck = (state: OfferState, data: CommandData<OfferCommand, 'RecordHealthcheck'>): OfferEvent[] => {
  const offerId = state.id;
  if (state.stockMode !== 'declared')
    throw new DomainError('stock_mode_mismatch', 'uploaded offers have no fulfilment endpoint to check');
  return [{ type: 'FulfilmentChecked', data: { offerId, probe: data.probe, at: data.now } }];
};

/**
 * A failure that leaves the offer one failure from its next consequence (out of routing, a
 * cooldown) is followed by a warning, once: a later failure that leaves it still one step
 * away (none can: each one moves it on) or the consequence itself warns no more.
 */
const withWarning = (state: OfferState, events: OfferEvent[], now: string): OfferEvent[] => {
  // a warning follows a failure: a recovery that lands one step from a consequence is no news
  if (!events.some((e) => e.type === 'OfferHealthChanged' && e.data.delta < 0)) return events;
  const after = events.reduce((s, e) => evolveLater(s, e as Exclude<OfferEvent, { type: 'OfferCreated' }>), state);
  const at = new Date(now);
  const ahead = forecastHealth(after, at);
  if (!ahead.oneStepAway || forecastHealth(state, at).oneStepAway || !ahead.next) return events;
  const { consequence, failedCalls, failedHealthchecks, message } = ahead.next;
  return [
    ...events,
    {
      type: 'OfferHealthWarning',
      data: { offerId: state.id, health: after.health, consequence, failedCalls, failedHealthchecks, message, at: now },
    },
  ];
};

const recordOutcome = (state: OfferState, data: CommandData<OfferCommand, 'RecordOutcome'>): OfferEvent[] => {
  const offerId = state.id;
  const { reason, outcomeId, now } = data;
  if (state.status !== 'active') return [];
  if (outcomeId !== undefined && state.appliedOutcomes.includes(outcomeId)) return []; // applied already
  const delta = HEALTH_DELTAS[reason];
  const health = clampHealth(state.health + delta);
  const id = outcomeId === undefined ? {} : { outcomeId };
  const events: OfferEvent[] =
    health === state.health
      ? []
      : [
          {
            type: 'OfferHealthChanged',
            data: { offerId, health, delta: health - state.health, reason, ...id, at: now },
          },
        ];
  if (COOLDOWN_REASONS.has(reason) || (health <= HEALTH.exhausted && !inCooldown(state, now)))
    events.push(cooldown(state, reason, now, outcomeId));
  return events;
};

const recordScheduledHealthcheck = (
  state: OfferState,
  data: CommandData<OfferCommand, 'RecordScheduledHealthcheck'>,
): OfferEvent[] => {
  const offerId = state.id;
  const { probe, runId, now } = data;
  if (state.stockMode !== 'declared') return [];
  const outcomeId = runId === undefined ? undefined : `healthcheck:${runId}`;
  if (outcomeId !== undefined && state.appliedOutcomes.includes(outcomeId)) return []; // this run was recorded already
  const checked: OfferEvent = { type: 'FulfilmentChecked', data: { offerId, probe, at: now } };
  if (state.status !== 'active') return [checked];
  if (state.cooldownUntil === null) {
    if (probe.ok) {
      // below the routing minimum with no cooldown to end: passing checks lead back to 70
      if (state.health >= HEALTH.recoveryCeiling) return [checked];
      const health = Math.min(HEALTH.recoveryCeiling, state.health + HEALTH_DELTAS.healthcheck_passed);
      return [
        checked,
        {
          type: 'OfferHealthChanged',
          data: {
            offerId,
            health,
            delta: health - state.health,
            reason: 'healthcheck_passed',
            ...(outcomeId !== undefined && { outcomeId }),
            at: now,
          },
        },
      ];
    }
    const health = clampHealth(state.health + HEALTH_DELTAS.healthcheck_failed);
    const events: OfferEvent[] = [checked];
    if (health !== state.health)
      events.push({
        type: 'OfferHealthChanged',
        data: {
          offerId,
          health,
          delta: health - state.health,
          reason: 'healthcheck_failed',
          ...(outcomeId !== undefined && { outcomeId }),
          at: now,
        },
      });
    if (health <= HEALTH.exhausted) events.push(cooldown(state, 'healthcheck_failed', now, outcomeId));
    return events;
  }
  // in cooldown: probes are recorded; the first one after it ends decides
  if (inCooldown(state, now)) return [checked];
  if (probe.ok)
    return [checked, { type: 'OfferCooldownEnded', data: { offerId, health: HEALTH.afterCooldown, at: now } }];
  if (new Date(now).getTime() - new Date(state.cooldownSince ?? now).getTime() >= DEACTIVATE_AFTER_MS)
    return [checked, { type: 'OfferDeactivated', data: { offerId, reason: 'health_exhausted', at: now } }];
  return [checked, cooldown(state, 'healthcheck_failed', now, outcomeId)];
};

const rotateFulfilmentSecret = (
  state: OfferState,
  data: CommandData<OfferCommand, 'RotateFulfilmentSecret'>,
): OfferEvent[] => {
  const offerId = state.id;
  if (!state.fulfilment) throw new DomainError('stock_mode_mismatch', 'uploaded offers have no fulfilment secret');
  const { secretSealed, now, overlapMs, rotationId } = data;
  // the same rotation again (its request run again after its answer was lost): made already
  if (rotationId !== undefined && state.fulfilment.lastRotationId === rotationId) return [];
  return [
    {
      type: 'FulfilmentSecretRotated',
      data: {
        offerId,
        secretSealed,
        previousSecretSealed: state.fulfilment.secretSealed,
        previousValidUntil: new Date(new Date(now).getTime() + overlapMs).toISOString(),
        ...(rotationId !== undefined && { rotationId }),
        at: now,
      },
    },
  ];
};

const repriceOffer = (state: OfferState, data: CommandData<OfferCommand, 'RepriceOffer'>): OfferEvent[] => {
  const offerId = state.id;
  const { price, reason, maxChangesPerHour, now } = data;
  // only an offer on the market is repriced; a price it already has is no change
  if (state.status !== 'active' || price === state.terms.price) return [];
  if (reason === PRICING_RULE_REASON && repricesInLastHour(state, now).length >= maxChangesPerHour) return [];
  return [{ type: 'OfferPriceChanged', data: { offerId, price, previousPrice: state.terms.price, reason, at: now } }];
};
