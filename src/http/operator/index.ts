import type { FastifyInstance } from 'fastify';
import { registerOperatorClockRoutes } from './clock.js';
import { registerOperatorInventoryRoutes } from './inventory.js';
import { registerOperatorOrderRoutes } from './orders.js';
import { registerOperatorPayoutRoutes } from './payouts.js';
import { registerOperatorProductRoutes } from './products.js';
import { registerOperatorSupplierRoutes } from './suppliers.js';
import { type Services } from '../services.js';

/** The operator API of shared/design/operator-contract.md, behind the operator token. */
export const registerOperatorRoutes = (app: FastifyInstance, services: Services) => {
  registerOperatorSupplierRoutes(app, services);
  registerOperatorProductRoutes(app, services);
  registerOperatorOrderRoutes(app, services);
  registerOperatorInventoryRoutes(app, services);
  registerOperatorClockRoutes(app, services);
  registerOperatorPayoutRoutes(app, services);
};
