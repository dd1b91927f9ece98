import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../clock.js';
import type { SupplierTimeouts } from './supplier-timeouts.js';
import { newFulfilmentSecret } from '../crypto/signature.js';
import type { CertificationKind } from '../domain/certification.js';
import type { TargetPolicy } from '../net/targets.js';
import type { SupplierEndpoint } from './fulfilment-client.js';
import { type CallLimits, callSupplier, type CallOutcome } from './supplier-calls.js';

/**
 * The machinery of a go-live certification: each check makes one or more signed calls to
 * the supplier and judges the answers. Every call is recorded for the report (method, path,
 * the JSON body sent, the answer, its latency against the timeout applied); headers are left
 * out, so no signature or secret ever reaches a report.
 */

/**
 * Certification's own wait between polls (items, top-up status): +0, +1, +3, +7, +15, +30,
 * +60 s. The production cadence (+0/+5/+15/+30 s then every 60 s over 10 minutes) would keep
 * an HTTP request open for minutes; a sandbox that needs more than a minute fails the check.
 */
export const CERTIFICATION_POLL_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** What a reservation asks for in the out-of-stock check: above the largest declarable stock. */
export const OVER_STOCK_QUANTITY = 1_000_001;

/** The expiry check's reservation lives this long; the order follows once it has passed. */
export const SHORT_RESERVATION_MS = 2_000;
export const EXPIRY_GRACE_MS = 1_000;

export interface Exchange {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body: unknown;
  /** `wrong_secret`: deliberately signed with a secret the supplier does not hold. */
  signed_with: 'offer_secret' | 'wrong_secret';
  sent_at: string;
  response: { status: number; body: unknown } | null;
  failure: { reason: string; detail: string } | null;
  latency_ms: number;
  timeout_ms: number;
  within_timeout: boolean;
}

export type CheckOutcome = 'pass' | 'fail' | 'skipped';

export interface CheckReport {
  name: string;
  expected: string;
  outcome: CheckOutcome;
  passed: boolean;
  detail: string | null;
  exchanges: Exchange[];
}

export interface CertificationReport {
  kind: CertificationKind;
  base_url: string;
  offer_id: string;
  passed: boolean;
  started_at: string;
  finished_at: string;
  checks: CheckReport[];
  summary: { passed: number; failed: number; skipped: number };
}

export interface CertificationTarget {
  kind: CertificationKind;
  endpoint: SupplierEndpoint;
  productId: string;
  externalRef: string;
  /** Unit price sent on POST /orders (minor units). */
  unitPrice: number;
}

export interface CertificationDeps {
  clock: Clock;
  policy: TargetPolicy;
  timeouts: SupplierTimeouts;
  newId: () => string;
  /** Waits between polls and for the short reservation; the service clock's sleep. */
  pollDelaysMs?: number[];
}

/** A verdict: `true` passes; a string fails with that reason. */
export type Verdict = true | string;

export class CheckFailed extends Error {}

/** `wrongSecret`: signed with a secret the supplier does not hold; and the answer's limit. */
type CallOptions = { wrongSecret?: boolean } & CallLimits;

/** One check in progress: its calls and its verdict. */
export class Check {
  readonly exchanges: Exchange[] = [];
  constructor(
    private readonly target: CertificationTarget,
    private readonly deps: CertificationDeps,
  ) {}

  async call(
    method: Exchange['method'],
    path: string,
    body: unknown,
    timeoutMs: number,
    options: CallOptions = {},
  ): Promise<CallOutcome> {
    const endpoint = options.wrongSecret
      ? { ...this.target.endpoint, secrets: [newFulfilmentSecret()] }
      : this.target.endpoint;
    const sentAt = this.deps.clock.now().toISOString();
    const outcome = await callSupplier(endpoint, method, path, body, timeoutMs, this.deps, options);
    this.exchanges.push({
      method,
      path,
      body: body ?? null,
      signed_with: options.wrongSecret ? 'wrong_secret' : 'offer_secret',
      sent_at: sentAt,
      response: outcome.kind === 'answer' ? { status: outcome.status, body: outcome.body ?? null } : null,
      failure: outcome.kind === 'failure' ? { reason: outcome.reason, detail: outcome.detail } : null,
      latency_ms: outcome.latencyMs,
      timeout_ms: timeoutMs,
      within_timeout: outcome.kind === 'answer' || outcome.reason !== 'timeout',
    });
    return outcome;
  }

  /** The answer, or the check fails with what went wrong instead. */
  async answer(method: Exchange['method'], path: string, body: unknown, timeoutMs: number, options: CallOptions = {}) {
    const outcome = await this.call(method, path, body, timeoutMs, options);
    if (outcome.kind === 'failure') throw new CheckFailed(`${method} ${path}: ${outcome.reason} (${outcome.detail})`);
    return outcome;
  }
}

export function demand(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailed(reason);
}

export const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'no body' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/** Runs the checks in order; a check whose prerequisite failed is reported as skipped. */
export class CertificationRun {
  readonly checks: CheckReport[] = [];
  private readonly startedAt: string;

  constructor(
    readonly target: CertificationTarget,
    readonly deps: CertificationDeps,
  ) {
    this.startedAt = deps.clock.now().toISOString();
  }

  get pollDelays() {
    return this.deps.pollDelaysMs ?? CERTIFICATION_POLL_DELAYS_MS;
  }

  passed(name: string) {
    return this.checks.find((c) => c.name === name)?.outcome === 'pass';
  }

  async check<T>(
    name: string,
    expected: string,
    run: (c: Check) => Promise<T>,
    options: { needs?: string[] } = {},
  ): Promise<T | undefined> {
    const missing = (options.needs ?? []).filter((n) => !this.passed(n));
    if (missing.length > 0) {
      this.checks.push({
        name,
        expected,
        outcome: 'skipped',
        passed: false,
        detail: `not run: ${missing.join(', ')} did not pass`,
        exchanges: [],
      });
      return undefined;
    }
    const c = new Check(this.target, this.deps);
    try {
      const value = await run(c);
      this.checks.push({ name, expected, outcome: 'pass', passed: true, detail: null, exchanges: c.exchanges });
      return value;
    } catch (error) {
      if (!(error instanceof CheckFailed)) throw error;
      this.checks.push({
        name,
        expected,
        outcome: 'fail',
        passed: false,
        detail: error.message,
        exchanges: c.exchanges,
      });
      return undefined;
    }
  }

  report(): CertificationReport {
    const count = (o: CheckOutcome) => this.checks.filter((c) => c.outcome === o).length;
    return {
      kind: this.target.kind,
      base_url: this.target.endpoint.baseUrl,
      offer_id: this.target.endpoint.offerId,
      passed: this.checks.length > 0 && this.checks.every((c) => c.outcome === 'pass'),
      started_at: this.startedAt,
      finished_at: this.deps.clock.now().toISOString(),
      checks: this.checks,
      summary: { passed: count('pass'), failed: count('fail'), skipped: count('skipped') },
    };
  }
}

/** `GET /healthcheck`: 200 `{status: 'ok'}` within 5 s. Shared by both contracts. */
export const healthcheckCheck = (run: CertificationRun) =>
  run.check('healthcheck', "GET /healthcheck answers 200 {status: 'ok'} within 5 s", async (c) => {
    const res = await c.answer('GET', '/healthcheck', undefined, run.deps.timeouts.healthcheckMs);
    demand(res.status === 200, `HTTP ${res.status}, expected 200`);
    demand(isObject(res.body) && res.body.status === 'ok', `body ${show(res.body)}, expected {status: 'ok'}`);
  });

/**
 * A request signed with a secret the supplier does not hold must be refused with a 4xx.
 * 409 and 410 are contract answers (the request was processed), so they do not count.
 */
export const refusedSignature = (res: CallOutcome & { kind: 'answer' }) => {
  demand(
    res.status >= 200 && res.status < 300 ? false : true,
    `HTTP ${res.status}: a wrongly signed request was accepted`,
  );
  demand(
    res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 410,
    `HTTP ${res.status}, expected a 4xx refusal (401 or 403)`,
  );
};
