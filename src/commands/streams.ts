/**
 * Every stream id in one place: an aggregate's stream is `<kind>-<id>`, and a reader that
 * names a stream (a command, a process, the console) names it through these.
 */
export const offerStream = (offerId: string) => `offer-${offerId}`;
export const inventoryStream = (offerId: string) => `inventory-${offerId}`;
export const pricingRuleStream = (offerId: string) => `pricing-rule-${offerId}`;
export const payoutScheduleStream = (supplierId: string) => `payout-schedule-${supplierId}`;
export const supplierStream = (supplierId: string) => `supplier-${supplierId}`;
export const orderStream = (orderId: string) => `order-${orderId}`;
/** The routing receipt of an order's checkout (domain/routing-receipt.ts). */
export const routingStream = (orderId: string) => `routing-${orderId}`;
export const balanceStream = (supplierId: string) => `balance-${supplierId}`;
export const productStream = (productId: string) => `product-${productId}`;
/** A supplier's certification results, one stream per supplier. */
export const certificationStream = (supplierId: string) => `certifications-${supplierId}`;
export const webhookStream = (endpointId: string) => `webhook-${endpointId}`;
/** The witnesses' cosignatures of a supplier's ledger heads. */
export const witnessStream = (supplierId: string) => `ledger-witness-${supplierId}`;
export const importStream = (importId: string) => `inventory-import-${importId}`;
/** A `listen` forwarding session's opening and end. */
export const listenSessionStream = (sessionId: string) => `listen-session-${sessionId}`;
/** A supplier's payout destinations (bank accounts, PayPal addresses) and which is the default. */
export const payoutDestinationsStream = (supplierId: string) => `payout-destinations-${supplierId}`;
