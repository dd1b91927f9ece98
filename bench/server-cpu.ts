/**
 * The CPU time the database server has spent, read from Linux's /proc: the postmaster's
 * own, its live children's (backends, WAL writer, checkpointer) and what its exited
 * children left it when it reaped them. With this process's own CPU, it gives the whole
 * machine's work per unit: on a machine whose cores are all busy, the rate cannot pass the
 * cores' time divided by that work, whatever the code's shape.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

interface ProcessTimes {
  ppid: number;
  /** user + system of the process itself, in clock ticks */
  own: number;
  /** user + system of its reaped children, in clock ticks */
  children: number;
}

const timesOf = (pid: number): ProcessTimes | undefined => {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name is in parentheses and may hold spaces: the fields start after its last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 of proc(5): ppid is 4, utime 14, stime 15, cutime 16, cstime 17
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), own: field(14) + field(15), children: field(16) + field(17) };
};

const ticksPerSecond = (): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
};

/**
 * A reader of the server's CPU time so far (µs), or undefined where /proc cannot tell (not
 * Linux, or a server on another machine). The server is found from the session of `client`,
 * which must stay open while it is asked.
 */
export const serverCpuReader = async (client: pg.Client | pg.Pool): Promise<(() => number) | undefined> => {
  if (process.platform !== 'linux') return undefined;
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const postmaster = rows[0] ? timesOf(rows[0].pid)?.ppid : undefined;
  if (postmaster === undefined || timesOf(postmaster) === undefined) return undefined;
  const microsPerTick = 1e6 / ticksPerSecond();
  return () => {
    const main = timesOf(postmaster);
    let ticks = main ? main.own + main.children : 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const p = timesOf(Number(entry));
      if (p?.ppid === postmaster) ticks += p.own;
    }
    return ticks * microsPerTick;
  };
};
