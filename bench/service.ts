import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { newSecretKey } from '../src/crypto/secret-box.js';
import { newOperatorToken } from '../src/crypto/tokens.js';
import { startService } from '../src/service.js';
import type { BenchContext } from './harness.js';

const unlimited = 1_000_000_000;

/**
 * One sandbox service on a fresh database of the run's server, listening on loopback, with
 * the rate limits raised (the spec allows it on request; a load test asks) and silent logs.
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
    limits: {
      reads: unlimited,
      writes: unlimited,
      bulk: unlimited,
      test: unlimited,
      sync: unlimited,
      per_supplier: unlimited,
      operator: unlimited,
    },
    poolSize: 20,
  });
  const origin = await service.listen();
  return { db, service, origin, operatorToken };
};
