import { execFile, spawn } from 'node:child_process';
import { chown, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Who the cluster's processes run as: PostgreSQL refuses to run as root, so as root they run
 * as the `postgres` user the Debian package made; otherwise as the caller.
 */
export interface RunAs {
  uid?: number;
  gid?: number;
}

export const runAs = async (): Promise<RunAs> => {
  if (process.getuid?.() !== 0) return {};
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
};

/** Hands `dir` and everything under it to the user the processes run as. */
export const handOver = async (dir: string, as: RunAs): Promise<void> => {
  const { uid, gid } = as;
  if (uid === undefined || gid === undefined) return;
  const walk = async (at: string): Promise<void> => {
    await chown(at, uid, gid);
    if ((await stat(at)).isDirectory()) for (const entry of await readdir(at)) await walk(path.join(at, entry));
  };
  await walk(dir);
};

const pidFile = (dir: string, name: string) => path.join(dir, `${name}.pid`);

/**
 * Starts `command` in a session of its own (it outlives this command), its output appended
 * to `<dir>/<name>.log`, its pid in `<dir>/<name>.pid` for `down`.
 */
export const startDetached = async (
  dir: string,
  name: string,
  command: string,
  args: string[],
  as: RunAs,
): Promise<number> => {
  const log = await open(path.join(dir, `${name}.log`), 'a');
  try {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      cwd: dir,
      env: { ...process.env, HOME: dir, PYTHONUNBUFFERED: '1' },
      ...(as.uid !== undefined && { uid: as.uid, gid: as.gid }),
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      // 'spawn' comes once the process exists, so it has its pid
      child.once('spawn', () =>
        child.pid === undefined ? reject(new Error(`${command} has no pid`)) : resolve(child.pid),
      );
    });
    child.unref();
    await writeFile(pidFile(dir, name), `${pid}\n`);
    return pid;
  } finally {
    await log.close();
  }
};

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Sends `signal` to `pid` unless it has already ended: a server's children exit on their own
 * between being listed and being signalled, and that is the outcome wanted anyway.
 */
export const signalIfAlive = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
};

const readPid = async (file: string): Promise<number | undefined> => {
  try {
    const pid = Number((await readFile(file, 'utf8')).split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves once the process is gone. */
export const stopPid = async (pid: number, graceMs = 10_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
  if (!alive(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const until = Date.now() + graceMs;
  while (alive(pid) && Date.now() < until) await sleep(100);
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    while (alive(pid)) await sleep(50);
  }
};

/** Stops the process `startDetached` recorded under `name`, if it still runs. */
export const stopNamed = async (dir: string, name: string, graceMs?: number): Promise<void> => {
  const pid = await readPid(pidFile(dir, name));
  if (pid !== undefined) await stopPid(pid, graceMs);
  await rm(pidFile(dir, name), { force: true });
};

/**
 * Patroni starts PostgreSQL in a session of its own, so stopping Patroni hard leaves the
 * postmaster running: it is found through its data directory's postmaster.pid and given a
 * fast shutdown (SIGINT).
 */
export const stopPostmaster = async (dataDir: string, graceMs = 15_000): Promise<void> => {
  const pid = await readPid(path.join(dataDir, 'postmaster.pid'));
  if (pid !== undefined) await stopPid(pid, graceMs, 'SIGINT');
};

export const recordedPid = (dir: string, name: string) => readPid(pidFile(dir, name));
export const postmasterPid = (dataDir: string) => readPid(path.join(dataDir, 'postmaster.pid'));

const parentOf = async (pid: number): Promise<number | undefined> => {
  try {
    // the field after the command's name, which is in parentheses and may hold spaces
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};

/** This process and the ones that started it (their command lines name the folder too). */
const ancestors = async (): Promise<Set<number>> => {
  const chain = new Set<number>();
  for (let pid: number | undefined = process.pid; pid && pid > 1 && !chain.has(pid); pid = await parentOf(pid))
    chain.add(pid);
  return chain;
};

/** Processes whose command line names `dir`: what `down` must leave none of. */
export const processesUnder = async (dir: string): Promise<number[]> => {
  const found: number[] = [];
  const own = await ancestors();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || own.has(Number(entry))) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (cmdline.includes(dir)) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
};
