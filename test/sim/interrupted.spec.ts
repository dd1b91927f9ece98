import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { PgClient } from '../../src/db/pg-client.js';
import { serviceArgs } from '../support/service-command.js';
import { clusterFolder } from '../support/cluster-parent.js';

/**
 * `npm run simulate` interrupted: by SIGINT, by SIGTERM, and by whoever reads its output
 * going away (`| head`). Each run starts its own embedded server (in a temp folder under
 * the TMPDIR it is given), and none may be left running once the run has ended. The runs
 * ask for far more seeds than they get to: only the interruption ends them.
 */

const BOUND_MS = 90_000;

/** The processes whose command line names `dir`: a postgres started on a cluster under it. */
const processesNaming = (dir: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
        return cmdline.includes(dir) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return []; // gone while being read
      }
    });

const until = async <T>(what: string, read: () => T | undefined, timeoutMs = BOUND_MS): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Starts `npm run simulate`'s program as a process of its own, with its temp files under a folder of the test's. */
const startSimulation = async (tmp: string, steps = 1) => {
  const child = spawn(process.execPath, serviceArgs('src/sim/main.ts', ['--seeds', '1000', '--steps', String(steps)]), {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const clusterDir = () => {
    const run = readdirSync(tmp).find((name) => name.startsWith('marketplace-sim-'));
    return run && path.join(tmp, run, 'pg');
  };
  /** The line postgres writes into postmaster.pid once it accepts connections. */
  const ready = () => {
    const dir = clusterDir();
    try {
      return dir && readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready'
        ? dir
        : undefined;
    } catch {
      return undefined;
    }
  };
  const seedDone = () => (/^seed \d+ ok/m.test(out) ? true : undefined);
  const output = () => `stdout:\n${out}\nstderr:\n${err}`;
  /** Its server's address, from the run's folder: the password the run made, the port its postmaster.pid names. */
  const serverUrl = (clusterDir: string) => {
    const password = readFileSync(path.join(clusterDir, '..', 'pg-password'), 'utf8').trim();
    const port = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3];
    return `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  };
  return { child, exited, ready, seedDone, output, serverUrl, printed: () => ({ out, err }) };
};

describe('an interrupted simulation stops its embedded PostgreSQL', () => {
  const tmps: string[] = [];
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // a run that failed its test leaves no server behind either
    for (const tmp of tmps)
      for (const line of processesNaming(tmp)) {
        try {
          process.kill(Number(line.split(':')[0]), 'SIGQUIT');
        } catch {
          // already gone
        }
      }
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all(tmps.map((tmp) => rm(tmp, { recursive: true, force: true })));
  });

  const cases = [
    ['SIGINT in the middle of a run', 'SIGINT', 'seed', { code: 130, signal: null }],
    ['SIGTERM as soon as its server is up', 'SIGTERM', 'server', { code: 143, signal: null }],
    ['its reader closing the pipe (a closed stdout: EPIPE)', 'pipe', 'seed', { code: 141, signal: null }],
  ] as const;
  for (const [name, interruption, when, exit] of cases)
    it.concurrent(
      name,
      async ({ expect }) => {
        const tmp = await clusterFolder('sim-interrupted-');
        tmps.push(tmp);
        const run = await startSimulation(tmp);
        children.push(run.child);
        const clusterDir = await until('the server', run.ready).catch((e: Error) => {
          throw new Error(`${e.message}\n${run.output()}`);
        });
        // the postmaster runs as `postgres -D <clusterDir> ...` (a process that set the server
        // up may still be on its way out beside it on a busy machine)
        const postmaster = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0];
        expect(processesNaming(clusterDir).map((line) => line.split(':')[0])).toContain(postmaster);
        if (when === 'seed')
          await until('a first seed', run.seedDone).catch((e: Error) => {
            throw new Error(`${e.message}\n${run.output()}`);
          });

        if (interruption === 'pipe') run.child.stdout.destroy();
        else run.child.kill(interruption);

        const ended = await Promise.race([
          run.exited,
          new Promise((r) => setTimeout(() => r('still running'), BOUND_MS)),
        ]);
        const left = processesNaming(clusterDir);
        expect([ended, left], run.output()).toEqual([exit, []]);
      },
      4 * BOUND_MS,
    );

  it(
    'interrupted in the middle of a seed, its server held in its shutdown: the run reports no seed and no error, and exits 130 once the server is gone',
    async ({ expect }) => {
      const tmp = await clusterFolder('sim-interrupted-');
      tmps.push(tmp);
      // seeds of 30 steps (seconds each): the interruption lands inside one
      const run = await startSimulation(tmp, 30);
      children.push(run.child);
      const clusterDir = await until('the server', run.ready).catch((e: Error) => {
        throw new Error(`${e.message}\n${run.output()}`);
      });
      // a session of the test's own, whose backend is then frozen: a fast shutdown waits for it,
      // so the server stays in its shutdown (every new connection refused with 57P03) until thawed
      const held = new PgClient(run.serverUrl(clusterDir));
      await held.connect();
      const backend = (await held.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const seedSessions = async () =>
        (
          await held.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname ~ $1`, [
            `^sim_[0-9]+_${run.child.pid}$`,
          ])
        ).rows[0]!.n;
      const deadline = Date.now() + BOUND_MS;
      while ((await seedSessions()) === 0) {
        if (Date.now() > deadline) throw new Error(`no seed ran\n${run.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const printedBefore = run.printed().out.length;
      process.kill(backend, 'SIGSTOP');
      try {
        run.child.kill('SIGINT');
        const stopping = () =>
          readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'stopping'
            ? true
            : undefined;
        await until('the server to begin its shutdown', stopping);
        // the seed in flight meets a server that refuses every new connection and cannot finish
        // stopping: a run that went on would fail it and say so (it did, as "seed N FAILED"),
        // or fail on its way out and end before its server is gone. Nothing is to happen: a
        // window, not a condition, is all there is to wait for
        await new Promise((r) => setTimeout(r, 3000));
        expect([run.child.exitCode, run.printed().out.slice(printedBefore), run.printed().err]).toEqual([null, '', '']);
      } finally {
        process.kill(backend, 'SIGCONT');
      }
      const ended = await Promise.race([
        run.exited,
        new Promise((r) => setTimeout(() => r('still running'), BOUND_MS)),
      ]);
      expect(
        [ended, run.printed().out.slice(printedBefore), run.printed().err, processesNaming(clusterDir)],
        run.output(),
      ).toEqual([{ code: 130, signal: null }, '', '', []]);
      await held.end().catch(() => undefined);
    },
    4 * BOUND_MS,
  );
});
