import type { OrderAttempt, ReturnAttempt } from '../domain/fulfilment-process.js';
import type { HeldOnUpload } from '../domain/inventory.js';
import type { ExecuteAttempt } from '../domain/topup-process.js';
import type { RecoveryPayload } from '../domain/webhook-recovery-process.js';

export type { RecoveryPayload };

/** A sandbox order's scenario that acts once the order is paid. */
export type LateScenario = 'refunded' | 'disputed';

type None = Record<string, never>;

/**
 * Every timer kind and its payload, in one map: `Timers.schedule`, `scheduleTimer` and
 * `Timers.on` take a kind from it and the payload it names, so a payload cannot be
 * scheduled in one shape and read in another, and a kind that is not here does not compile.
 */
export interface TimerPayloads {
  'order.expire': None;
  'order.provision': None;
  'inventory.reservation-expiry': { offerId: string; orderId: string; orderItemId: string };
  /** An import's chunks, recorded one after another until it completes. */
  'inventory.import': None;
  /** An upload's items stored under review: the other suppliers' items they collide with are looked at. */
  'inventory.collision': { offerId: string; held: (HeldOnUpload & { heldItemId: string })[] };
  'ledger.post-sales': None;
  'ledger.post-refunds': { orderId?: string; items: { supplierId: string; orderItemId: string }[] };
  'ledger.settle': { supplierId: string };
  'declared.start': None;
  'declared.order': OrderAttempt;
  'declared.poll': { orderId: string };
  'declared.return': ReturnAttempt;
  'declared.rerouted': { orderId: string };
  'declared.cancelled': { orderId: string; reason: string };
  'declared.refunded': { orderId: string; orderItemIds: string[] };
  'topup.start': None;
  'topup.execute': ExecuteAttempt;
  'topup.status': { orderId: string; firstAt: string };
  'topup.post-sale': { orderId: string };
  'topup.failed': { orderId: string; executeFailed?: boolean };
  'offer.healthcheck': None;
  'pricing.market-changed': { offerId: string; position: string };
  'pricing.limit-lifted': { offerId: string };
  'sandbox.scenario': { scenario: LateScenario };
  /** The sandbox's rival offers, whose prices move every few minutes (processes/sandbox-rivals.ts). */
  'sandbox.rival-prices': { offers: { offerId: string; supplierId: string; base: number; place: number }[] };
  'webhook.fanout': { position: string };
  /** Written by instances from before migration 015 only (a rolling upgrade): handed over to the deliveries' table. */
  'webhook.deliver': { deliveryId: string; attempt: number };
  'webhook.recover': RecoveryPayload;
  'webhook.purge': None;
  /** At a `listen` session's lease end: ends the session unless a poll renewed the lease meanwhile. */
  'webhook.listen-lease': None;
  'maintenance.purge': None;
  'payout.schedule': None;
  /** The sandbox's bank: moves a payout sent to a destination along, step by step (processes/sandbox-payouts.ts). */
  'payout.sandbox-bank': { supplierId: string; destinationId: string };
  /** Daily at 00:00 UTC: the signed ledger heads to the endpoints that name `ledger.checkpoint`. */
  'ledger.checkpoint': None;
}

export type TimerKind = keyof TimerPayloads;
