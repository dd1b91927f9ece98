import type { Config } from '../config.js';
import { connectExternalStore } from '../eventstore/select.js';
import { createLogger, startService } from '../service.js';
import { openDatabase } from './database.js';
import { ledgerSigningKey, operatorToken, secretKey } from './secrets.js';
import { seedSandbox } from './seed.js';
import { stopTracing } from '../tracing.js';

/** `npm start`: one instance with the operator contract's settings. */
export const serve = async (config: Config): Promise<void> => {
  const log = createLogger(config.logLevel);
  // an external event store is asked first: a start it refuses costs no database start
  const store = await connectExternalStore(config, log);
  const database = await openDatabase(config, (line) => log.debug({ postgres: line })).catch(async (error: unknown) => {
    await store?.close();
    throw error;
  });
  const service = await startService({
    config,
    databaseUrl: database.url,
    ...(config.databaseReadUrl && { readDatabaseUrl: config.databaseReadUrl }),
    operatorToken: await operatorToken(config),
    secretKey: await secretKey(config),
    ledgerSigningKey: await ledgerSigningKey(config),
    logger: log,
    ...(store && { store }),
  }).catch(async (error: unknown) => {
    await store?.close();
    await database.release();
    throw error;
  });
  log.info({ eventStore: config.eventStore, ...(store && { address: store.address }) }, 'event store connected');
  const demoToken = await seedSandbox(config, service.services);
  const origin = await service.listen();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // not ready first, answering on: the proxy in front stops sending; then the drain
    service.stopping();
    if (config.stopGraceMs > 0) {
      log.info({ signal, graceMs: config.stopGraceMs }, 'stopping: not ready, still answering');
      await new Promise((resolve) => setTimeout(resolve, config.stopGraceMs));
    }
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    await service.stop();
    await database.release();
    log.info('stopped');
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  // plain lines, last, so scripts can read them. base_url is the origin, as the client's
  // baseUrl and the docs' $BASE take it (paths carry /api/v1); api_root is the supplier API's root
  const lines = [
    `api_reference=${origin}/api/v1/docs`,
    `api_root=${origin}/api/v1`,
    `base_url=${origin}`,
    `operator_token=${service.services.operatorToken}`,
    ...(demoToken ? [`demo_supplier_token=${demoToken}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
};
