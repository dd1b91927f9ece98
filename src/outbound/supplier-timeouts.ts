/**
 * Timeouts, attempts and pauses toward the supplier's systems: the spec's table
 * "Supplier-side timeouts and attempts". Tests may lower the timeouts (never the schedule).
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
  reservationMs: 10_000,
  orderMs: 10_000,
  pollMs: 10_000,
  cancelMs: 10_000,
  healthcheckMs: 5_000,
  validateMs: 10_000,
  executeMs: 30_000,
  statusMs: 10_000,
  webhookMs: 10_000,
};
