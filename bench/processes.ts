/**
 * Child processes of a benchmark: the service, or the raw routes, each in a Node process
 * of its own (as deployed), with an IPC channel to ask it things and its CPU time read from
 * /proc, so the figures say what the process serving the requests spent per request.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface Child {
  origin: string;
  pid: number;
  /** user + system CPU time of the process so far (µs); 0 where /proc cannot tell. */
  cpu(): number;
  ask(kind: string): Promise<void>;
  stop(): Promise<void>;
}

const ticks = 100; // USER_HZ on Linux, what /proc/<pid>/stat counts in

const cpuOf = (pid: number) => (): number => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticks;
  } catch {
    return 0;
  }
};

/** Forks `bench/<script>.ts` under tsx with `env` added to its environment. */
export const startChild = async (script: string, env: Record<string, string>): Promise<Child> => {
  const child: ChildProcess = fork(path.join(here, `${script}.ts`), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (m: { ready?: string; id?: number; ok?: boolean; error?: string }) => {
      if (m.ready) resolve(m.ready);
      else if (m.id !== undefined) {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.ok) w?.resolve();
        else w?.reject(new Error(`${script}: ${m.error}`));
      }
    });
  });
  child.removeAllListeners('exit');
  const ask = (kind: string) =>
    new Promise<void>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.send({ id, kind });
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    origin,
    pid: child.pid!,
    cpu: cpuOf(child.pid!),
    ask,
    stop: async () => {
      if (child.exitCode !== null) return;
      await Promise.race([ask('stop'), new Promise((r) => setTimeout(r, 30_000))]);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
};
