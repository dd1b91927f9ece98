import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import { type EventData, evolveWith } from './evolvers.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-endpoint.js';

/**
 * A forwarding session (`listen`): it receives a supplier's webhook events while the one who
 * opened it keeps polling, signed with a secret of its own, and ends when they stop. It
 * takes no endpoint slot, and what it was handed is never retried after it ends.
 */

/** What a session may name: the contract's events, or `*` (the daily ledger checkpoint is for endpoints). */
export const LISTEN_EVENT_TYPES = WEBHOOK_EVENT_TYPES;

/** A session lives this long past its opening or its last poll: a poll renews it. */
export const LISTEN_LEASE_MS = 60_000;
/** Sessions one supplier may have live at once (several terminals, a colleague's machine). */
export const MAX_LISTEN_SESSIONS = 5;

export type ListenEndReason = 'closed' | 'lease_lapsed';

export type WebhookListenSessionEvent =
  | {
      type: 'WebhookListenSessionOpened';
      data: { sessionId: string; supplierId: string; events: string[]; secretSealed: string; at: string };
    }
  | {
      type: 'WebhookListenSessionEnded';
      data: { sessionId: string; supplierId: string; reason: ListenEndReason; at: string };
    };

export type WebhookListenSessionCommand =
  | {
      type: 'OpenListenSession';
      data: {
        sessionId: string;
        supplierId: string;
        events: string[];
        secretSealed: string;
        /** The supplier's sessions live now, this one not among them. */
        live: number;
        now: string;
      };
    }
  | { type: 'EndListenSession'; data: { reason: ListenEndReason; now: string } };

export interface WebhookListenSessionState {
  id: string;
  supplierId: string;
  events: string[];
  secretSealed: string;
  openedAt: string;
  ended: { reason: ListenEndReason; at: string } | null;
}

type Evolved = WebhookListenSessionState | null;
type Data<T extends WebhookListenSessionEvent['type']> = EventData<WebhookListenSessionEvent, T>;

export const webhookListenSessionDecider: Decider<Evolved, WebhookListenSessionCommand, WebhookListenSessionEvent> = {
  initialState: null,

  evolve: evolveWith<Evolved, WebhookListenSessionEvent>({
    WebhookListenSessionOpened: (_state, d: Data<'WebhookListenSessionOpened'>) => ({
      id: d.sessionId,
      supplierId: d.supplierId,
      events: d.events,
      secretSealed: d.secretSealed,
      openedAt: d.at,
      ended: null,
    }),
    WebhookListenSessionEnded: (state, d: Data<'WebhookListenSessionEnded'>) =>
      state && { ...state, ended: { reason: d.reason, at: d.at } },
  }),

  decide(command, state) {
    switch (command.type) {
      case 'OpenListenSession': {
        const { live, now, ...data } = command.data;
        // the same opening run again (its answer lost): made already
        if (state) return [];
        if (live >= MAX_LISTEN_SESSIONS)
          throw new DomainError(
            'invalid_state',
            `at most ${MAX_LISTEN_SESSIONS} listen sessions at once: stop one, or wait ${LISTEN_LEASE_MS / 1000} s for an interrupted one to lapse`,
          );
        return [{ type: 'WebhookListenSessionOpened', data: { ...data, at: now } }];
      }
      case 'EndListenSession':
        if (!state) throw new DomainError('not_found', 'listen session not found');
        if (state.ended) return [];
        return [
          {
            type: 'WebhookListenSessionEnded',
            data: {
              sessionId: state.id,
              supplierId: state.supplierId,
              reason: command.data.reason,
              at: command.data.now,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
