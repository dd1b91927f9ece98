import type { Config } from '../config.js';
import { KurrentDbEventStore } from '../eventstore/kurrentdb.js';
import { createLogger, startService } from '../service.js';
import { openDatabase } from './database.js';
import { operatorToken, secretKey } from './secrets.js';
import { seedSandbox } from './seed.js';

/** `npm start`: one instance with the operator contract's settings. */
export const serve = async (config: Config): Promise<void> => {
  const log = createLogger(config.logLevel);
  // an external event store is asked first: a start it refuses costs no database start
  const store = config.eventStore === 'kurrentdb' ? await KurrentDbEventStore.connect(config.kurrentdbUrl!, log) : undefined;
  const database = await openDatabase(config, (line) => log.debug({ postgres: line })).catch(async (error: unknown) => {
    await store?.close();
    throw error;
  });
  const service = await startService({
    config,
    databaseUrl: database.url,
    operatorToken: await operatorToken(config),
    secretKey: await secretKey(config),
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
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    await service.stop();
    await database.release();
    log.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  // plain lines, last, so scripts can read them
  const lines = [
    `api_reference=${origin}/api/v1/docs`,
    `base_url=${origin}/api/v1`,
    `operator_token=${service.services.operatorToken}`,
    ...(demoToken ? [`demo_supplier_token=${demoToken}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
};
