import * as timings from '../domain/contract-timings.js';

/**
 * The timeout of each call toward the supplier's systems, from the contract's table
 * "Supplier-side timeouts and attempts" (src/domain/contract-timings.ts, where the attempts
 * and pauses are too). Tests may lower the timeouts (never the schedule).
 */
export interface SupplierTimeouts {
  reservationMs: number;
  orderMs: number;
  pollMs: number;
  cancelMs: number;
  healthcheckMs: number;
  validateMs: number;
  executeMs: number;
  statusMs: number;
  /** Webhook success window: a 2xx within 10 s. */
  webhookMs: number;
}

export const specTimeouts: SupplierTimeouts = {
  reservationMs: timings.RESERVATION_TIMEOUT_MS,
  orderMs: timings.ORDER_TIMEOUT_MS,
  pollMs: timings.POLL_TIMEOUT_MS,
  cancelMs: timings.CANCEL_TIMEOUT_MS,
  healthcheckMs: timings.HEALTHCHECK_TIMEOUT_MS,
  validateMs: timings.VALIDATE_TIMEOUT_MS,
  executeMs: timings.EXECUTE_TIMEOUT_MS,
  statusMs: timings.STATUS_TIMEOUT_MS,
  webhookMs: timings.WEBHOOK_SUCCESS_WINDOW_MS,
};
