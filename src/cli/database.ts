import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { withAdminClient } from '../db/admin-client.js';
import { startEmbeddedPostgres } from '../db/embedded.js';

const DATABASE = 'marketplace';

export interface OpenDatabase {
  url: string;
  /** Stops the embedded server when this process started it. */
  release(): Promise<void>;
}

const urlFile = (config: Config) => path.join(config.dataDir, 'database-url');
/** The pid of the process that started (or took over) the embedded server and stops it. */
const ownerFile = (config: Config) => path.join(config.dataDir, 'database-owner');

const ownerAlive = async (config: Config) => {
  const pid = Number((await readFile(ownerFile(config), 'utf8').catch(() => '')).trim());
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
  if (existsSync(urlFile(config))) {
    const url = (await readFile(urlFile(config), 'utf8')).trim();
    if ((await ownerAlive(config)) && (await reachable(url))) return { url, release: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, log);
  await withAdminClient(embedded.adminUrl, async (admin) => {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  });
  const url = embedded.urlFor(DATABASE);
  await writeFile(urlFile(config), url, { mode: 0o600 });
  await writeFile(ownerFile(config), String(process.pid), { mode: 0o600 });
  return {
    url,
    release: async () => {
      await rm(urlFile(config), { force: true });
      await rm(ownerFile(config), { force: true });
      await embedded.stop();
    },
  };
};
