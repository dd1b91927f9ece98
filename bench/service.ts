import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { newSecretKey } from '../src/crypto/secret-box.js';
import { newOperatorToken } from '../src/crypto/tokens.js';
import { startService } from '../src/service.js';
import type { BenchContext } from './harness.js';

const unlimited = 1_000_000_000;
/** The most the operator API grants per minute and class (16,666 requests/s). */
const RAISED = 1_000_000;

/**
 * Raises a supplier's limits the way a deployed service does ("limits can be raised on
 * request"): over `PUT /operator/v1/suppliers/{id}/rate-limits`, not in code.
 */
export const raiseSupplierLimits = async (origin: string, operatorToken: string, supplierId: string) => {
  const res = await fetch(`${origin}/operator/v1/suppliers/${supplierId}/rate-limits`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reads: RAISED,
      writes: RAISED,
      sync: RAISED,
      bulk: RAISED,
      simulate: RAISED,
      test: RAISED,
      per_supplier: RAISED,
    }),
  });
  if (res.status !== 200) throw new Error(`raising the limits of ${supplierId}: ${res.status} ${await res.text()}`);
};

/** The operator's own class stays raised in code: it is the platform's, not a supplier's to ask for. */
export const benchLimits = { operator: unlimited };

/**
 * One sandbox service on a fresh database of the run's server, listening on loopback, with
 * the spec's limits (each bench raises its suppliers' over the operator API) and silent logs.
 */
export const startBenchService = async (ctx: BenchContext, prefix: string) => {
  const db = await ctx.freshDatabase(prefix, 2);
  const operatorToken = newOperatorToken();
  const service = await startService({
    config: { ...loadConfig({ SVC_ENV: 'sandbox', PORT: '0', LOG_LEVEL: 'silent' }), allowPrivateTargets: true },
    databaseUrl: db.pool.options.connectionString!,
    operatorToken,
    secretKey: newSecretKey(),
    logger: pino({ level: 'silent' }),
    limits: benchLimits,
    poolSize: 20,
  });
  const origin = await service.listen();
  return { db, service, origin, operatorToken };
};
