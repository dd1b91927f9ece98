import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { Writable } from 'node:stream';
import { TestClock } from '../clock.js';
import { type Config, loadConfig } from '../config.js';
import type { FaultPoint } from '../faults.js';
import { type RunningService, startService } from '../service.js';
import { startSupplierKit, type SupplierKit } from '../sdk/kit/index.js';
import { armCrash, type CrashPlan, killPool } from './crash.js';
import { withAdminClient } from '../db/admin-client.js';

const unlimited = 1_000_000_000;

/** Low timeouts toward suppliers and webhook endpoints: a hang costs real milliseconds, not seconds. */
export const SIM_TIMEOUTS = {
  reservationMs: 1000,
  orderMs: 1000,
  pollMs: 1000,
  cancelMs: 1000,
  healthcheckMs: 1000,
  validateMs: 1000,
  executeMs: 1000,
  statusMs: 1000,
  webhookMs: 1000,
};

export interface Answer {
  status: number;
  body: any;
  /** The instance died while answering: the caller never got this answer. */
  lost: boolean;
}

export type ReceiverMode = 200 | 500 | 410 | 'hang';

/** A webhook endpoint on a real socket whose answer the simulation chooses. */
export const startReceiver = async () => {
  let mode: ReceiverMode = 200;
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (mode === 'hang') return; // the service's timeout ends it
      res.writeHead(mode, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    setMode: (m: ReceiverMode) => void (mode = m),
    mode: () => mode,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * One service instance the simulation drives: the real service (projections, processes,
 * fastify app) on the simulation's database and clock, timers drained by hand, requests
 * through `app.inject`. `crash()` kills it as a SIGKILL would (src/sim/crash.ts).
 */
export class Instance {
  crashed: FaultPoint | null = null;
  private disarm: (() => void) | undefined;
  errors: string[] = [];
  /**
   * Settles when the instance dies. A dead process's pending work never ends (a statement
   * queued for its pool waits forever), so the simulator stops waiting on it at once, as a
   * client of a killed process would see its connection drop.
   */
  private died!: () => void;
  private readonly death = new Promise<void>((resolve) => (this.died = resolve));

  private constructor(
    readonly service: RunningService,
    readonly operatorToken: string,
  ) {}

  static async start(input: {
    databaseUrl: string;
    clock: TestClock;
    operatorToken: string;
    secretKey: string;
  }): Promise<Instance> {
    const errors: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) {
          if (!line) continue;
          const parsed = JSON.parse(line);
          if (parsed.level >= 50) errors.push(`${parsed.msg}: ${parsed.err?.message ?? ''}`);
        }
        done();
      },
    });
    const config: Config = {
      ...loadConfig({ LOG_LEVEL: 'error', PORT: '0', SVC_ALLOW_PRIVATE_TARGETS: '1' }),
      env: 'sandbox',
      allowPrivateTargets: true,
      testClock: false,
    };
    const service = await startService({
      config,
      databaseUrl: input.databaseUrl,
      operatorToken: input.operatorToken,
      secretKey: input.secretKey,
      clock: input.clock,
      logger: pino({ level: 'error' }, sink),
      backgroundTimers: false,
      limits: {
        reads: unlimited,
        writes: unlimited,
        sync: unlimited,
        test: unlimited,
        per_supplier: unlimited,
        operator: unlimited,
      },
      supplierTimeouts: SIM_TIMEOUTS,
      poolSize: 6,
    });
    const instance = new Instance(service, input.operatorToken);
    instance.errors = errors;
    return instance;
  }

  private get pool(): pg.Pool {
    return (this.service.services.store as unknown as { pool: pg.Pool }).pool;
  }

  /** Arms the instance to die at the plan's point. */
  arm(plan: CrashPlan): void {
    this.disarm?.();
    this.disarm = armCrash(plan, (point) => {
      this.crashed = point;
      this.died();
      killPool(this.pool);
      // a dead process's subscriptions and waiters stop with it: nothing waits on them
      const projections = this.service.services.projections;
      projections.waitFor = async () => false;
      void projections.stop().catch(() => undefined);
    });
  }

  disarmCrash(): void {
    this.disarm?.();
    this.disarm = undefined;
  }

  async request(method: string, url: string, token: string | undefined, body?: unknown): Promise<Answer> {
    try {
      const answered = this.service.app.inject({
        method: method,
        url,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      answered.catch(() => undefined); // abandoned if the instance dies first
      const res = await Promise.race([answered, this.death.then(() => undefined)]);
      if (!res) return { status: 0, body: undefined, lost: true };
      let parsed: unknown;
      try {
        parsed = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        parsed = res.body;
      }
      return { status: res.statusCode, body: parsed, lost: this.crashed !== null };
    } catch {
      return { status: 0, body: undefined, lost: true };
    }
  }

  /** Runs what is due until quiet; a crash on the way ends it (the caller restarts). */
  async drain(): Promise<void> {
    if (this.crashed) return;
    try {
      const draining = this.service.drain();
      draining.catch(() => undefined); // abandoned if the instance dies first
      await Promise.race([draining, this.death]);
    } catch (error) {
      if (!this.crashed) throw error;
    }
  }

  /** Graceful stop (end of a seed). */
  async stop(): Promise<void> {
    this.disarmCrash();
    if (this.crashed) return;
    await this.service.stop();
  }
}

export interface Peers {
  /** One reference kit per declared or top-up supplier, on the simulation's clock. */
  kits: SupplierKit[];
  receiver: Receiver;
}

export const startKit = (clock: TestClock) =>
  startSupplierKit({ secrets: ['svcsec_00000000000000000000000000000000'], now: () => clock.now().getTime() });

/** A fresh database for one seed, copied from the run's migrated template. */
export const createSeedDatabase = async (adminUrl: string, template: string, name: string): Promise<string> => {
  await withAdminClient(adminUrl, async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name} template ${template}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

export const dropSeedDatabase = async (adminUrl: string, name: string): Promise<void> => {
  await withAdminClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
};
