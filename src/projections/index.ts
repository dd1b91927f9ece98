import { ledgerProjection } from './ledger.js';
import { payoutsProjection } from './payouts.js';
import { offersProjection } from './offers.js';
import { ordersProjection } from './orders.js';
import { productsProjection } from './products.js';
import { routingReceiptsProjection } from './routing-receipts.js';
import type { Projector } from './projector.js';
import { suppliersProjection } from './suppliers.js';
import { webhooksProjection } from './webhooks.js';
import { webhookEventLogProjection } from './webhook-event-log.js';
import { witnessesProjection } from './witnesses.js';

/** Every projector the service runs, in no particular order (each keeps its own checkpoint). */
export const allProjectors: Projector[] = [
  suppliersProjection,
  productsProjection,
  offersProjection,
  ordersProjection,
  ledgerProjection,
  payoutsProjection,
  webhooksProjection,
  webhookEventLogProjection,
  witnessesProjection,
  routingReceiptsProjection,
];
