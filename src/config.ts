import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';
import { isConnectionString } from './net/kurrentdb-address.js';
import { FAULT_STEPS, START_FAULT_STEPS } from './faults.js';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  SVC_ENV: z.enum(['sandbox', 'production']).default('sandbox'),
  DATABASE_URL: z.string().min(1).optional(),
  /** A read replica for the GET routes' read models (docs/scaling.md); needs DATABASE_URL. */
  DATABASE_READ_URL: z.string().min(1).optional(),
  SVC_DATA_DIR: z.string().min(1).optional(),
  SVC_OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SVC_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  /** The Ed25519 seed that signs the ledger's checkpoints (src/crypto/ledger-signing.ts). */
  SVC_LEDGER_SIGNING_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (a 32-byte Ed25519 seed)')
    .optional(),
  /**
   * How long a stopping instance keeps answering while /readyz says `stopping`, before it
   * drains: longer than the proxy in front takes to see it (docs/scaling.md). 0 without one.
   */
  /**
   * The public keys of ledger signing keys taken out of use (raw 32-byte Ed25519 keys, hex,
   * comma-separated): entries and checkpoints they signed keep verifying, and they stay published.
   */
  SVC_LEDGER_RETIRED_KEYS: z
    .string()
    .regex(/^\s*[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*\s*$/, 'public keys of 64 hex characters, comma-separated')
    .optional(),
  /**
   * Where a check without secrets (`ledger verify`, `ledger witness`) reads the ledger's
   * public keys: a file (the JSON of /.well-known/svc-ledger-signing-key, a PEM or hex) or
   * the service's URL. Never a private key.
   */
  SVC_LEDGER_PUBLIC_KEY: z.string().min(1).optional(),
  SVC_STOP_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /**
   * How long a read (and an operator write's answer) waits for the read models to apply this
   * instance's writes before it goes on with what they show: a bound for a stuck read
   * model, generous because on a busy machine a batch can take seconds.
   */
  SVC_READ_MODEL_WAIT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /**
   * The heap the command side's cache of folded aggregate states may hold, in MiB. Unset: a
   * quarter of the heap limit, at most 64 MiB (a 512 MB container's default heap gives 64).
   */
  SVC_STATE_CACHE_MB: z.coerce.number().int().min(1).max(16_384).optional(),
  SVC_TEST_CLOCK: flag,
  SVC_ALLOW_PRIVATE_TARGETS: flag,
  SVC_EVENT_STORE: z.enum(['postgres', 'kurrentdb']).default('postgres'),
  /**
   * The proxies in front whose X-Forwarded-For is believed (addresses, CIDR ranges or
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated): the client's address is then
   * the one the proxy saw, which the per-IP limit counts. Unset: the peer's address.
   */
  SVC_TRUST_PROXY: z
    .string()
    .regex(/^[0-9a-zA-Z.:/,\s]+$/, 'addresses, CIDR ranges or loopback, linklocal, uniquelocal, comma-separated')
    .optional(),
  SVC_KURRENTDB_URL: z.string().min(1).optional(),
  /** Crash tests only (src/faults.ts): the process kills itself at this pipeline step. */
  SVC_FAULT_KILL_AT: z.enum([...FAULT_STEPS, ...START_FAULT_STEPS]).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Every environment variable the service reads (deployment files are checked against it). */
export const SETTING_NAMES: readonly string[] = Object.keys(settings.shape);

const schema = settings
  .superRefine((c, ctx) => {
    if (c.SVC_ENV !== 'production') return;
    const refuse = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (c.SVC_TEST_CLOCK) refuse('SVC_TEST_CLOCK', 'the test clock is never enabled in production');
    if (c.SVC_ALLOW_PRIVATE_TARGETS)
      refuse('SVC_ALLOW_PRIVATE_TARGETS', 'private targets are never allowed in production');
    if (c.SVC_FAULT_KILL_AT) refuse('SVC_FAULT_KILL_AT', 'fault injection is never enabled in production');
    if (!c.SVC_SECRET_KEY) refuse('SVC_SECRET_KEY', 'production needs an explicit secret key');
    // every instance signs with the one key suppliers were given: none may make its own
    if (!c.SVC_LEDGER_SIGNING_KEY) refuse('SVC_LEDGER_SIGNING_KEY', 'production needs an explicit ledger signing key');
  })
  .superRefine((c, ctx) => {
    if (c.DATABASE_READ_URL && !c.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'a read replica needs DATABASE_URL: the embedded server has none',
      });
    if (c.SVC_EVENT_STORE === 'kurrentdb' && !c.SVC_KURRENTDB_URL)
      ctx.addIssue({ code: 'custom', path: ['SVC_KURRENTDB_URL'], message: 'required when SVC_EVENT_STORE=kurrentdb' });
    if (c.SVC_KURRENTDB_URL && !isConnectionString(c.SVC_KURRENTDB_URL))
      ctx.addIssue({
        code: 'custom',
        path: ['SVC_KURRENTDB_URL'],
        message:
          'must be a KurrentDB connection string: kurrentdb://host:2113?tls=false, esdb://..., or kurrentdb+discover://...',
      });
  });

export type Environment = 'sandbox' | 'production';

export interface Config {
  port: number;
  host: string;
  env: Environment;
  databaseUrl: string | undefined;
  databaseReadUrl: string | undefined;
  stopGraceMs: number;
  readModelWaitMs: number;
  /** What the cache of folded aggregate states may hold (SVC_STATE_CACHE_MB). */
  stateCacheBytes: number;
  dataDir: string;
  operatorToken: string | undefined;
  secretKey: string | undefined;
  ledgerSigningKey: string | undefined;
  /** Public keys (hex) of the ledger's retired signing keys. */
  ledgerRetiredKeys: string[];
  /** SVC_LEDGER_PUBLIC_KEY: a file or URL of the ledger's public keys, for checks without secrets. */
  ledgerPublicKey?: string;
  testClock: boolean;
  allowPrivateTargets: boolean;
  eventStore: 'postgres' | 'kurrentdb';
  kurrentdbUrl: string | undefined;
  /** SVC_TRUST_PROXY, as fastify's trustProxy takes it; undefined trusts no proxy. */
  trustProxy?: string;
  logLevel: string;
  /** Time to receive a whole request, body included (default in src/http/app.ts). */
  requestTimeoutMs?: number;
  /** A connection with no traffic either way for this long is closed (default in src/http/app.ts). */
  connectionTimeoutMs?: number;
}

export class ConfigError extends Error {}

/** Parses every setting once; the rest of the service receives the typed result. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    env: c.SVC_ENV,
    databaseUrl: c.DATABASE_URL,
    databaseReadUrl: c.DATABASE_READ_URL,
    stopGraceMs: c.SVC_STOP_GRACE_MS,
    readModelWaitMs: c.SVC_READ_MODEL_WAIT_MS,
    stateCacheBytes: c.SVC_STATE_CACHE_MB === undefined ? defaultStateCacheBytes() : c.SVC_STATE_CACHE_MB * MIB,
    dataDir: path.resolve(c.SVC_DATA_DIR ?? path.join('.data', c.SVC_ENV)),
    operatorToken: c.SVC_OPERATOR_TOKEN,
    secretKey: c.SVC_SECRET_KEY?.toLowerCase(),
    ledgerSigningKey: c.SVC_LEDGER_SIGNING_KEY?.toLowerCase(),
    ledgerRetiredKeys: c.SVC_LEDGER_RETIRED_KEYS?.split(',').map((k) => k.trim().toLowerCase()) ?? [],
    ...(c.SVC_LEDGER_PUBLIC_KEY && { ledgerPublicKey: c.SVC_LEDGER_PUBLIC_KEY }),
    testClock: c.SVC_TEST_CLOCK,
    allowPrivateTargets: c.SVC_ALLOW_PRIVATE_TARGETS,
    eventStore: c.SVC_EVENT_STORE,
    kurrentdbUrl: c.SVC_KURRENTDB_URL,
    ...(c.SVC_TRUST_PROXY && { trustProxy: c.SVC_TRUST_PROXY }),
    logLevel: c.LOG_LEVEL,
  };
};

const MIB = 2 ** 20;

/**
 * A quarter of the heap V8 may grow to (`--max-old-space-size`, or what Node chose for the
 * machine or container), at most 64 MiB: past that the states' hits gain little, and the
 * rest of the heap is the requests', the projections' and the collector's headroom.
 */
export const defaultStateCacheBytes = (): number =>
  Math.min(64 * MIB, Math.floor(getHeapStatistics().heap_size_limit / 4 / MIB) * MIB);
