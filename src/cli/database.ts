import { rm } from 'node:fs/promises';
import type { Config } from '../config.js';
import { withAdminClient } from '../db/admin-client.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { dataFile, readDataFile, writeDataFile } from './data-dir.js';

const DATABASE = 'marketplace';

export interface OpenDatabase {
  url: string;
  /** Stops the embedded server when this process started it. */
  release(): Promise<void>;
}

const URL_FILE = 'database-url';
/** The pid of the process that started (or took over) the embedded server and stops it. */
const OWNER_FILE = 'database-owner';

const ownerAlive = async (config: Config) => {
  const pid = Number((await readDataFile(config, OWNER_FILE).catch(() => undefined)) ?? '');
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const reachable = (url: string) =>
  withAdminClient(url, async () => true, { connectionTimeoutMillis: 2000 }).catch(() => false);

/**
 * DATABASE_URL when given; otherwise the embedded server under SVC_DATA_DIR. When a
 * running instance already serves that data directory, its server is used (the CLI can
 * rebuild projections beside a live service); otherwise this process starts it, or takes
 * over a server whose starter died (a crashed instance) and stops it like its own.
 */
export const openDatabase = async (
  config: Config,
  log: (line: string) => void = () => undefined,
): Promise<OpenDatabase> => {
  if (config.databaseUrl) return { url: config.databaseUrl, release: async () => undefined };
  const running = await readDataFile(config, URL_FILE);
  if (running && (await ownerAlive(config)) && (await reachable(running)))
    return { url: running, release: async () => undefined };
  const embedded = await startEmbeddedPostgres(config.dataDir, log);
  await withAdminClient(embedded.adminUrl, async (admin) => {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  });
  const url = embedded.urlFor(DATABASE);
  await writeDataFile(config, URL_FILE, url);
  await writeDataFile(config, OWNER_FILE, String(process.pid));
  return {
    url,
    release: async () => {
      await rm(dataFile(config, URL_FILE), { force: true });
      await rm(dataFile(config, OWNER_FILE), { force: true });
      await embedded.stop();
    },
  };
};
