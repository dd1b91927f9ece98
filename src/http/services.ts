import type { ReplicaReads } from './replica-reads.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { CommandDeps } from '../commands/context.js';
import type { Config } from '../config.js';
import type { LedgerSigningKey } from '../crypto/ledger-signing.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import type { EventStore } from '../eventstore/port.js';
import type { Metrics } from '../metrics.js';
import type { Timers } from '../processes/timers.js';
import type { ProjectionRunner } from '../projections/runner.js';
import type { LedgerBook } from '../projections/ledger-book.js';
import type { LimitTable } from './limits.js';
import type { MarketView } from './product-resource.js';
import type { RateLimiter } from './rate-limiter.js';

/** What the HTTP layer is given by the composition root (src/service.ts builds it). */
export interface Services {
  config: Config;
  clock: Clock;
  /** Reads wait until the read models applied this instance's answered writes (src/projections/read-fence.ts). */
  db: Kysely<Database>;
  /**
   * The same pool without that wait: for probes, which must answer at once, and for tables
   * no projection writes (idempotency rows), which never trail the events.
   */
  plainDb: Kysely<Database>;
  store: EventStore;
  projections: ProjectionRunner;
  timers: Timers;
  /**
   * The supplier API's commands: a write answers once its events are stored, and the next
   * read on this instance waits for the read models (src/projections/read-fence.ts).
   */
  commands: CommandDeps;
  /**
   * The operator API's commands: a write answers once the read models applied it, so every
   * instance reads it next (a supplier created, a token revoked, limits raised).
   */
  operatorCommands: CommandDeps;
  /**
   * Settles once the read models applied every write this instance answered: for a caller
   * whose next read may reach another instance (the console's redirect after a form).
   */
  readsApplied(): Promise<void>;
  /** Reads from a replica with read-your-writes, when DATABASE_READ_URL is set. */
  replicaReads?: ReplicaReads;
  rateLimiter: RateLimiter;
  limits: LimitTable;
  operatorToken: string;
  secretBox: SecretBox;
  /** Signs the ledger's checkpoints; its public half is published at /.well-known/svc-ledger-signing-key. */
  ledgerKey: LedgerSigningKey;
  /** Which stored ledger entries the ledger accepts (each signed where it stands), and its keys. */
  ledger: LedgerBook;
  log: Logger;
  metrics: Metrics;
  /** The product's market as one supplier sees it. */
  market(productIds: string[], supplierId: string): Promise<Map<string, MarketView>>;
  isReady(): boolean;
  /**
   * The event store was found holding less than this instance saw, and the instance is
   * dropping what it held and rebuilding its read models (src/store-rewind.ts): `/readyz`
   * says `store_rewound` and writes are refused with 503.
   */
  isRewound(): boolean;
  /** How many times the instance has found its store went back in time (a write begun before the last is not answered as done). */
  rewinds(): number;
  /** Stopping: /readyz says so, for the proxy in front to stop sending before the drain. */
  isStopping(): boolean;
  /** Present only with the test clock: moves time and runs what fell due. */
  advanceClock?: (seconds: number) => Promise<Date>;
}
