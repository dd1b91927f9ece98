import type { CommandDeps } from '../commands/context.js';
import type { Projector } from '../projections/projector.js';
import { fulfilmentProcess, registerFulfilmentTimers } from './fulfilment.js';
import { orderProcess, registerOrderTimers } from './orders.js';
import { importProcess, registerImportTimers } from './inventory-imports.js';
import { keyCollisionProcess, registerKeyCollisionTimers } from './key-collisions.js';
import { payoutProcess, registerPayoutTimers } from './payouts.js';
import type { Timers } from './timers.js';
import { registerSandboxTimers } from './sandbox.js';
import { registerSandboxPayoutTimers, sandboxPayoutProcess } from './sandbox-payouts.js';
import { registerRivalTimers } from './sandbox-rivals.js';
import { registerWebhookTimers, webhookProcess } from './webhooks.js';
import type { WebhookListeners } from './webhook-listeners.js';
import { pricingProcess, registerPricingTimers } from './pricing.js';
import type { ProjectionRunner } from '../projections/runner.js';

/**
 * The event side of every process manager (run by the projection runner, never rebuilt).
 * `listeners`: who may have webhook endpoints (without it, every webhook source event is fanned out).
 */
export const processProjectors = (listeners?: WebhookListeners): Projector[] => [
  orderProcess,
  fulfilmentProcess,
  webhookProcess(listeners),
  payoutProcess,
  sandboxPayoutProcess,
  pricingProcess,
  keyCollisionProcess,
  importProcess,
];

/** The timer side of every process manager. */
export const registerProcessTimers = (
  timers: Timers,
  deps: CommandDeps,
  rank: (productId: string) => Promise<string[]>,
  projections: ProjectionRunner,
) => {
  registerOrderTimers(timers, deps);
  registerFulfilmentTimers(timers, deps, rank);
  registerWebhookTimers(timers, deps, projections);
  registerSandboxTimers(timers, deps);
  registerRivalTimers(timers, deps);
  registerPayoutTimers(timers, deps);
  registerSandboxPayoutTimers(timers, deps);
  registerKeyCollisionTimers(timers, deps);
  registerImportTimers(timers, deps);
  registerPricingTimers(timers, deps, projections);
};
