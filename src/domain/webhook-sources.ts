import type { WebhookEventType } from './webhook-endpoint.js';

/** Which domain event becomes which webhook event (docs/webhooks.md). */
export const SOURCES: Record<string, WebhookEventType> = {
  OrderPlaced: 'order.created',
  OrderPaid: 'order.paid',
  OrderRefunded: 'order.refunded',
  OrderExpired: 'order.expired',
  OrderDisputed: 'order.disputed',
  OfferDeactivated: 'offer.deactivated',
  OfferStockLow: 'offer.stock_low',
  OfferPriceChanged: 'offer.repriced',
  OfferHealthWarning: 'offer.health_warning',
  InventoryItemInvalidated: 'stock.invalidated',
  InventoryImportCompleted: 'inventory.import_completed',
  WebhookEndpointDisabled: 'webhook.disabled',
  PayoutCreated: 'payout.created',
  PayoutPaid: 'payout.paid',
  PayoutFailed: 'payout.failed',
};
