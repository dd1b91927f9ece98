import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { CommandDeps } from '../commands/context.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import type { EventStore } from '../eventstore/port.js';
import type { Metrics } from '../metrics.js';
import type { Timers } from '../processes/timers.js';
import type { ProjectionRunner } from '../projections/runner.js';
import type { LimitTable } from './limits.js';
import type { MarketView } from './product-resource.js';
import type { RateLimiter } from './rate-limiter.js';

/** What the HTTP layer is given by the composition root (src/service.ts builds it). */
export interface Services {
  config: Config;
  clock: Clock;
  db: Kysely<Database>;
  store: EventStore;
  projections: ProjectionRunner;
  timers: Timers;
  commands: CommandDeps;
  rateLimiter: RateLimiter;
  limits: LimitTable;
  operatorToken: string;
  secretBox: SecretBox;
  log: Logger;
  metrics: Metrics;
  /** The product's market as one supplier sees it. */
  market(productIds: string[], supplierId: string): Promise<Map<string, MarketView>>;
  isReady(): boolean;
  /** Present only with the test clock: moves time and runs what fell due. */
  advanceClock?: (seconds: number) => Promise<Date>;
}
