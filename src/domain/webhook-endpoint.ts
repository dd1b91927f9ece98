import type { Decider } from './decider.js';
import { changedFields } from './changes.js';
import { assertNever, DomainError } from './errors.js';

/** The event types a supplier can subscribe to (spec: Events), or `*`. */
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.expired',
  'order.paid',
  'order.refunded',
  'order.disputed',
  'offer.deactivated',
  'offer.stock_low',
  'offer.repriced',
  'offer.health_warning',
  'stock.invalidated',
  'inventory.import_completed',
  'webhook.disabled',
  'payout.created',
  'payout.paid',
  'payout.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The daily signed head of a supplier's ledger (processes/ledger-checkpoint.ts): not one of
 * the contract's events, so `*` does not include it; an endpoint gets it by naming it.
 */
export const LEDGER_CHECKPOINT_EVENT = 'ledger.checkpoint';

/** What an endpoint's `events` may name: the contract's events, the ones only named explicitly, or `*`. */
export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, LEDGER_CHECKPOINT_EVENT] as const;

export const MAX_ENDPOINTS_PER_SUPPLIER = 10;
/** Spec: 30 consecutive failed attempts disable an endpoint. */
export const DISABLE_AFTER_FAILURES = 30;

export interface EndpointSettings {
  url: string;
  events: string[];
  description: string;
  /** Deliveries per second the sender keeps to; null or absent: no limit. */
  rateLimit?: number | null;
}

export type WebhookEndpointEvent =
  | {
      type: 'WebhookEndpointCreated';
      data: EndpointSettings & { endpointId: string; supplierId: string; secretSealed: string; at: string };
    }
  | {
      type: 'WebhookEndpointUpdated';
      data: { endpointId: string; supplierId: string; changes: Partial<EndpointSettings>; at: string };
    }
  | {
      type: 'WebhookEndpointDisabled';
      data: {
        endpointId: string;
        supplierId: string;
        reason: 'consecutive_failures' | 'gone' | 'supplier_request';
        consecutiveFailures: number;
        at: string;
      };
    }
  | { type: 'WebhookEndpointEnabled'; data: { endpointId: string; supplierId: string; at: string } }
  | { type: 'WebhookEndpointDeleted'; data: { endpointId: string; supplierId: string; at: string } }
  | {
      type: 'WebhookSecretRotated';
      data: {
        endpointId: string;
        supplierId: string;
        secretSealed: string;
        previousSecretSealed: string;
        previousValidUntil: string;
        /** The rotation's identity (its request's operation): a rotation is made once. Absent on older events. */
        rotationId?: string;
        at: string;
      };
    };

export type WebhookEndpointCommand =
  | {
      type: 'CreateEndpoint';
      data: EndpointSettings & { endpointId: string; supplierId: string; secretSealed: string; now: string };
    }
  | { type: 'UpdateEndpoint'; data: { changes: Partial<EndpointSettings>; now: string } }
  | {
      type: 'DisableEndpoint';
      data: { reason: 'consecutive_failures' | 'gone' | 'supplier_request'; consecutiveFailures: number; now: string };
    }
  /** Re-enabling needs a passing test-fire first: the handler runs it, the decider judges it. */
  | { type: 'EnableEndpoint'; data: { probe: { succeeded: boolean; responseStatus: number }; now: string } }
  | { type: 'DeleteEndpoint'; data: { now: string } }
  | { type: 'RotateSecret'; data: { secretSealed: string; overlapMs: number; rotationId?: string; now: string } };

export interface WebhookEndpointState {
  id: string;
  supplierId: string;
  settings: EndpointSettings;
  status: 'active' | 'disabled';
  secretSealed: string;
  previousSecretSealed: string | null;
  previousValidUntil: string | null;
  /** The last rotation's identity, when it had one. */
  lastRotationId?: string;
  disabledAt: string | null;
  deleted: boolean;
  createdAt: string;
}

export const webhookEndpointDecider: Decider<
  WebhookEndpointState | null,
  WebhookEndpointCommand,
  WebhookEndpointEvent
> = {
  initialState: null,

  evolve(state, event) {
    if (event.type === 'WebhookEndpointCreated') {
      const { endpointId, supplierId, secretSealed, at, url, events, description, rateLimit } = event.data;
      return {
        id: endpointId,
        supplierId,
        settings: { url, events, description, ...(rateLimit && { rateLimit }) },
        status: 'active',
        secretSealed,
        previousSecretSealed: null,
        previousValidUntil: null,
        disabledAt: null,
        deleted: false,
        createdAt: at,
      };
    }
    if (!state) return state;
    switch (event.type) {
      case 'WebhookEndpointUpdated':
        return { ...state, settings: { ...state.settings, ...event.data.changes } };
      case 'WebhookEndpointDisabled':
        return { ...state, status: 'disabled', disabledAt: event.data.at };
      case 'WebhookEndpointEnabled':
        return { ...state, status: 'active', disabledAt: null };
      case 'WebhookEndpointDeleted':
        return { ...state, deleted: true };
      case 'WebhookSecretRotated':
        return {
          ...state,
          secretSealed: event.data.secretSealed,
          previousSecretSealed: event.data.previousSecretSealed,
          previousValidUntil: event.data.previousValidUntil,
          ...(event.data.rotationId !== undefined && { lastRotationId: event.data.rotationId }),
        };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    if (command.type === 'CreateEndpoint') {
      if (state) throw new DomainError('invalid_state', `webhook endpoint ${state.id} exists`);
      const { now, ...data } = command.data;
      return [{ type: 'WebhookEndpointCreated', data: { ...data, at: now } }];
    }
    if (!state || state.deleted) throw new DomainError('not_found', 'webhook endpoint not found');
    const ids = { endpointId: state.id, supplierId: state.supplierId };
    switch (command.type) {
      case 'UpdateEndpoint': {
        const changes = changedFields<EndpointSettings>(command.data.changes, state.settings);
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'WebhookEndpointUpdated', data: { ...ids, changes, at: command.data.now } }];
      }
      case 'DisableEndpoint':
        if (state.status === 'disabled') return [];
        return [
          {
            type: 'WebhookEndpointDisabled',
            data: {
              ...ids,
              reason: command.data.reason,
              consecutiveFailures: command.data.consecutiveFailures,
              at: command.data.now,
            },
          },
        ];
      case 'EnableEndpoint':
        if (state.status === 'active') return [];
        if (!command.data.probe.succeeded)
          throw new DomainError(
            'invalid_state',
            `the test delivery answered ${command.data.probe.responseStatus || 'nothing'}; the endpoint stays disabled`,
            {
              probe: command.data.probe,
            },
          );
        return [{ type: 'WebhookEndpointEnabled', data: { ...ids, at: command.data.now } }];
      case 'DeleteEndpoint':
        return [{ type: 'WebhookEndpointDeleted', data: { ...ids, at: command.data.now } }];
      case 'RotateSecret':
        return rotate(state, command.data);
      default:
        return assertNever(command);
    }
  },
};

/** A new secret; the one before signs beside it for the overlap. The same rotation again is made already. */
const rotate = (
  state: WebhookEndpointState,
  data: Extract<WebhookEndpointCommand, { type: 'RotateSecret' }>['data'],
): WebhookEndpointEvent[] => {
  const { secretSealed, overlapMs, rotationId, now } = data;
  // its request run again after its answer was lost
  if (rotationId !== undefined && state.lastRotationId === rotationId) return [];
  return [
    {
      type: 'WebhookSecretRotated',
      data: {
        endpointId: state.id,
        supplierId: state.supplierId,
        secretSealed,
        previousSecretSealed: state.secretSealed,
        previousValidUntil: new Date(Date.parse(now) + overlapMs).toISOString(),
        ...(rotationId !== undefined && { rotationId }),
        at: now,
      },
    },
  ];
};
