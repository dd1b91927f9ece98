import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
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
const startSimulation = async (tmp: string) => {
  const child = spawn(process.execPath, serviceArgs('src/sim/main.ts', ['--seeds', '1000', '--steps', '1']), {
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
  return { child, exited, ready, seedDone, output };
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
});
