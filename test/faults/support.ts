import net from 'node:net';
import { expect } from 'vitest';
import type { Answer } from '../support/http.js';
import { serviceArgs } from '../support/service-command.js';

/**
 * A TCP relay between the service and Postgres that a test can cut: every open session
 * drops at once and new connections are refused until it is restored. The database stays
 * real; only the network between the two fails, as in a partition or a failover.
 */
export const startDatabaseRelay = async (databaseUrl: string) => {
  let target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((inbound) => {
    if (down) return void inbound.destroy();
    const outbound = net.connect(Number(target.port), target.hostname);
    sockets.add(inbound).add(outbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    for (const s of [inbound, outbound]) {
      s.on('error', end);
      s.on('close', end);
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    /** Sends new connections to another server (a restarted one on another port). */
    retarget(url: string) {
      target = new URL(url);
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A 503 the service gives while its database is away: the problem code and when to retry. */
export const expectUnavailable = (res: Answer) => {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body.code).toBe('service_unavailable');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
};

/** Polls until `probe` answers something, or fails after `timeoutMs`. */
export const eventually = async <T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** The service as a real process (`npm start`), on a given database, with the test clock. */
export const spawnService = async (options: {
  databaseUrl: string;
  dataDir: string;
  operatorToken: string;
  secretKey: string;
  /** Off for a service whose time must be the wall clock's. */
  testClock?: boolean;
  /** Further settings, such as SVC_FAULT_KILL_AT. */
  env?: Record<string, string>;
}) => {
  const { spawn } = await import('node:child_process');
  const { freePort } = await import('../../src/db/embedded.js');
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const name of ['SVC_TEST_CLOCK', 'SVC_FAULT_KILL_AT', 'SVC_ENV', 'SVC_EVENT_STORE']) delete env[name];
  Object.assign(env, {
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    SVC_DATA_DIR: options.dataDir,
    SVC_OPERATOR_TOKEN: options.operatorToken,
    SVC_SECRET_KEY: options.secretKey,
    // a retry waits out a dead owner's lease by moving this clock, not by sleeping
    ...(options.testClock !== false && { SVC_TEST_CLOCK: '1' }),
    LOG_LEVEL: 'warn',
    ...options.env,
  });
  const child = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['serve']), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (out += String(c)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // generous: on a busy machine four services starting side by side take far longer than one alone
  const deadline = Date.now() + 120_000;
  for (;;) {
    const m = /^base_url=(.*)$/m.exec(out);
    if (m) return { child, exited, baseUrl: `${m[1]!}/api/v1`, origin: m[1]!, output: () => out };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`service did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
