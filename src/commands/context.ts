import { traceContext } from '../tracing.js';
import type { Kysely } from 'kysely';
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import type { Metrics } from '../metrics.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/schema.js';
import type { TargetPolicy } from '../net/targets.js';
import type { SupplierTimeouts } from '../outbound/supplier-timeouts.js';
import type { Environment } from '../config.js';
import type { Decider, DomainEvent, Step } from '../domain/decider.js';
import type { EventMetadata, EventStore, Position } from '../eventstore/port.js';
import type { ProjectionRunner } from '../projections/runner.js';
import type { LedgerBook } from '../projections/ledger-book.js';
import { type Handled, handle, type StreamStates } from './handle.js';
import { handleTogether, type StreamOf, type Writes } from './handle-together.js';

/**
 * How long an operation's identity lives: its Idempotency-Key is kept this long from the
 * first request, and a run resumed under it starts within that time (http/idempotency.ts).
 */
export const OPERATION_RETENTION_MS = 24 * 60 * 60_000;

export interface CommandDeps {
  store: EventStore;
  clock: Clock;
  env: Environment;
  projections: ProjectionRunner;
  states: StreamStates;
  /** Write-side tables that are not events (sealed inventory values). */
  db: Kysely<Database>;
  secretBox: SecretBox;
  /** SVC_SECRET_KEY, also the key of inventory fingerprints. */
  secretKey: string;
  targets: TargetPolicy;
  timeouts: SupplierTimeouts;
  /** For outbound HTTPS to hosts with a private CA (tests trust their own certificate). */
  dispatcher?: Dispatcher;
  /** The ledger: its signing decider, and which stored entries it accepts. */
  ledger: LedgerBook;
  /** Counts and times outbound calls (absent in tests that build deps by hand). */
  metrics?: Metrics;
}

/** Who asked and why: becomes the events' metadata (never a secret). */
export interface Caller {
  correlationId?: string;
  causationId?: string;
  supplierId?: string;
}

export const metadataFor = (env: Environment, caller: Caller): EventMetadata => ({
  ...(caller.correlationId && { correlation_id: caller.correlationId }),
  ...(caller.causationId && { causation_id: caller.causationId }),
  ...(caller.supplierId && { supplier_id: caller.supplierId }),
  mode: env === 'sandbox' ? 'test' : 'live',
  // with tracing on, the work the events cause later (projections) joins the writer's trace
  ...traceContext(),
});

/**
 * Runs one command and, when it wrote, waits (bounded) until the read models have applied
 * it, so the caller's next read sees its own write.
 */
export const execute = <S, C extends object, E extends DomainEvent>(
  deps: CommandDeps,
  streamId: string,
  decider: Decider<S, C, E>,
  command: (now: string) => NoInfer<C>,
  caller: Caller,
): Promise<Handled<S, E>> => executeSteps(deps, streamId, decider, (now) => [command(now)], caller);

/** `execute` for several steps of one request on one stream: one append for all of them. */
export const executeSteps = async <S, C extends object, E extends DomainEvent>(
  deps: CommandDeps,
  streamId: string,
  decider: Decider<S, C, E>,
  steps: (now: string) => readonly Step<S, NoInfer<C>>[],
  caller: Caller,
): Promise<Handled<S, E>> => {
  const at = deps.clock.now();
  const result = await handle(deps.store, streamId, decider, steps(at.toISOString()), {
    at,
    metadata: metadataFor(deps.env, caller),
    cache: deps.states,
  });
  if (result.position) await waitForReadModels(deps, result.position);
  return result;
};

/**
 * `execute` for steps on several streams that belong together: decided as `handleTogether`
 * decides them, written in one append, and waited for once.
 */
export const executeTogether = async <T>(
  deps: CommandDeps,
  streams: readonly StreamOf[],
  decide: (writes: Writes, now: string) => T,
  caller: Caller,
): Promise<T> => {
  const at = deps.clock.now();
  const now = at.toISOString();
  const { result, position } = await handleTogether(deps.store, streams, (writes) => decide(writes, now), {
    at,
    metadata: metadataFor(deps.env, caller),
    cache: deps.states,
  });
  if (position) await waitForReadModels(deps, position);
  return result;
};

export const waitForReadModels = (deps: CommandDeps, position: Position) => deps.projections.waitFor(position);
