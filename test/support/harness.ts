import { Writable } from 'node:stream';
import pino from 'pino';
import { TestClock } from '../../src/clock.js';
import { type Config, type Environment, loadConfig } from '../../src/config.js';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { newOperatorToken } from '../../src/crypto/tokens.js';
import { derivedLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import type { LimitTable } from '../../src/http/limits.js';
import type { SupplierTimeouts } from '../../src/outbound/supplier-timeouts.js';
import { type RunningService, startService } from '../../src/service.js';
import { createTestDatabase } from './database.js';
import { type Client, client } from './http.js';

export interface TestService extends RunningService {
  clock: TestClock;
  databaseUrl: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** `${origin}/api/v1` */
  baseUrl: string;
  operatorToken: string;
  operator: Client;
  /** Every log line the service wrote, as parsed JSON. */
  logs: Record<string, unknown>[];
  /** Registers a supplier through the operator API; returns its id, token and a client. */
  newSupplier(name?: string): Promise<{ id: string; token: string; api: Client }>;
  /** Creates a product through the operator API. */
  newProduct(fields?: Record<string, unknown>): Promise<any>;
  advance(seconds: number): Promise<void>;
}

export interface TestServiceOptions {
  env?: Environment;
  limits?: Partial<LimitTable>;
  testClockEndpoint?: boolean;
  databaseUrl?: string;
  /** A read replica's URL (DATABASE_READ_URL) for the GET routes' read models. */
  readDatabaseUrl?: string;
  operatorToken?: string;
  secretKey?: string;
  clock?: TestClock;
  extraConfig?: Partial<Config>;
  /** Lower timeouts toward suppliers, so a test provokes a timeout without waiting seconds. */
  supplierTimeouts?: Partial<SupplierTimeouts>;
  /** PEM of a certificate authority the service trusts for outbound HTTPS. */
  trustedCa?: string;
}

/** The secret key of each database a test service was started on, for the next instance on it. */
const secretKeys = new Map<string, string>();

/**
 * Starts the whole service on a fresh database and a real socket, with a test clock that
 * only moves when the test says so. Timers never run in the background: `drain()` and
 * `advance()` run due work deterministically.
 */
export const startTestService = async (options: TestServiceOptions = {}): Promise<TestService> => {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const clock = options.clock ?? new TestClock(new Date('2026-01-05T10:00:00.000Z'));
  // instances on one database share its secret key, as production instances share
  // SVC_SECRET_KEY: the token hashes, sealed values and the ledger's key derive from it
  const secretKey = options.secretKey ?? secretKeys.get(databaseUrl) ?? newSecretKey();
  if (!secretKeys.has(databaseUrl)) secretKeys.set(databaseUrl, secretKey);
  const config: Config = {
    ...loadConfig({ LOG_LEVEL: 'info', PORT: '0', SVC_ALLOW_PRIVATE_TARGETS: '1' }),
    // in the settings, as `serve` has it, so the CLI's ledger commands given this config find
    // it; derived from the secret key, so a service started again on the same data has it too
    ledgerSigningKey: derivedLedgerSigningKey(secretKey),
    // a production instance under test still talks to loopback peers (the settings refuse
    // that for a real production start; the harness builds the config directly)
    env: options.env ?? 'sandbox',
    allowPrivateTargets: true,
    testClock: options.testClockEndpoint ?? false,
    ...options.extraConfig,
  };
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const operatorToken = options.operatorToken ?? newOperatorToken();
  const service = await startService({
    config,
    databaseUrl,
    ...(options.readDatabaseUrl && { readDatabaseUrl: options.readDatabaseUrl }),
    operatorToken,
    secretKey,
    clock,
    logger: pino({ level: 'info' }, sink),
    backgroundTimers: false,
    limits: options.limits,
    supplierTimeouts: options.supplierTimeouts,
    trustedCa: options.trustedCa,
    poolSize: 10,
  });
  const origin = await service.listen();
  const baseUrl = `${origin}/api/v1`;
  const operator = client(`${origin}/operator/v1`, operatorToken);

  return {
    ...service,
    clock,
    databaseUrl,
    origin,
    baseUrl,
    operatorToken,
    operator,
    logs,
    async newSupplier(name = 'Acme Keys') {
      const res = await operator.post('/suppliers', { name });
      if (res.status !== 201) throw new Error(`supplier not created: ${res.status} ${res.text}`);
      return { id: res.body.supplier.id, token: res.body.token, api: client(baseUrl, res.body.token) };
    },
    async newProduct(fields = {}) {
      const res = await operator.post('/products', {
        name: 'Starfall Odyssey',
        type: 'game_key',
        platform: 'steam',
        region: 'EU',
        status: 'sellable',
        ...fields,
      });
      if (res.status !== 201) throw new Error(`product not created: ${res.status} ${res.text}`);
      return res.body;
    },
    async advance(seconds: number) {
      clock.advance(seconds);
      await service.drain();
    },
  };
};
