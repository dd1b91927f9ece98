import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { expect } from 'vitest';
import { clusterState, leaderOf, until } from '../../src/cli/ha/cluster.js';
import { alive, postmasterPid, recordedPid, signalIfAlive } from '../../src/cli/ha/processes.js';
import { restUrl, superuserUrl, type Topology } from '../../src/cli/ha/topology.js';
import { withAdminClient } from '../../src/db/admin-client.js';
import { request } from '../support/http.js';

/**
 * A failover that loses acknowledged commits, as Patroni allows without synchronous
 * replication: the cluster's replication made asynchronous, the primary's WAL senders held
 * while it goes on committing, then the primary lost with everything the replicas never got.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The primary (through HAProxy) as the superuser, in the service's database. */
const onPrimary = <T>(c: Topology, work: (client: pg.Client) => Promise<T>) => {
  const url = new URL(superuserUrl(c));
  url.pathname = `/${c.database}`;
  return withAdminClient(url.toString(), work, { connectionTimeoutMillis: 2000 });
};

/**
 * Turns synchronous replication off in Patroni's dynamic configuration (commits no longer
 * wait for a standby) and lets any replica be promoted however far behind it is; resolves
 * once the primary commits alone.
 */
export const replicateAsynchronously = async (c: Topology): Promise<void> => {
  const leader = leaderOf(await clusterState(c));
  const member = c.members.find((m) => m.name === leader?.name);
  if (!member) throw new Error('no leader to configure');
  const answer = await fetch(`${restUrl(c, member)}/config`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      synchronous_mode: false,
      synchronous_mode_strict: false,
      maximum_lag_on_failover: 1 << 30,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!answer.ok) throw new Error(`Patroni refused the configuration (${answer.status}): ${await answer.text()}`);
  await until('commits no longer waiting for a standby', 60_000, () =>
    onPrimary(c, async (client) => {
      const { rows } = await client.query<{ names: string }>(
        "select current_setting('synchronous_standby_names') as names",
      );
      return rows[0]?.names === '' ? true : undefined;
    }),
  );
};

/** Stops (SIGSTOP) every WAL sender of the primary: it commits on, and its replicas get none of it. */
export const holdWalSenders = async (c: Topology): Promise<number[]> => {
  const pids = await onPrimary(c, async (client) => {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_replication');
    return rows.map((r) => r.pid);
  });
  if (pids.length === 0) throw new Error('the primary has no WAL sender to hold');
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  return pids;
};

/** Children of `parent`, from /proc. */
const childrenOf = async (parent: number): Promise<number[]> => {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
};

/**
 * SIGKILLs the leader's Patroni, its postmaster and every process of its server (the held
 * WAL senders among them), as a lost host; resolves with its name once a new leader leads.
 */
export const loseLeader = async (c: Topology): Promise<{ lost: string; promotedAt: number }> => {
  const leader = leaderOf(await clusterState(c));
  const member = c.members.find((m) => m.name === leader?.name);
  if (!member) throw new Error('no leader to lose');
  const postmaster = await postmasterPid(path.join(member.dir, 'data'));
  const pids = [await recordedPid(c.dir, member.name), postmaster, ...(postmaster ? await childrenOf(postmaster) : [])];
  for (const pid of pids) if (pid !== undefined) signalIfAlive(pid, 'SIGKILL');
  while (pids.some((pid) => pid !== undefined && alive(pid))) await sleep(20);
  await until('a new leader', 120_000, async () => {
    const now = leaderOf(await clusterState(c));
    return now && now.name !== member.name ? true : undefined;
  });
  return { lost: member.name, promotedAt: Date.now() };
};

/** The ids of every order the store holds, read on the primary. */
export const storedOrderIds = (c: Topology): Promise<Set<string>> =>
  onPrimary(c, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `select distinct substr(stream_id, 7) as id from es_events where stream_id like 'order-%'`,
    );
    return new Set(rows.map((r) => r.id));
  });

/**
 * Each instance's `/readyz` every 50 ms until stopped: when it first said `store_rewound`,
 * and when it first said `ready` after that.
 */
export const watchReadiness = (origins: string[]) => {
  const seen = origins.map(() => ({
    rewoundAt: undefined as number | undefined,
    readyAgainAt: undefined as number | undefined,
  }));
  let stopping = false;
  const loops = origins.map(async (origin, i) => {
    while (!stopping) {
      const answer = await request(origin, 'GET', '/readyz').catch(() => undefined);
      const at = Date.now();
      const mine = seen[i]!;
      if (answer?.body?.status === 'store_rewound' && mine.rewoundAt === undefined) mine.rewoundAt = at;
      if (answer?.status === 200 && mine.rewoundAt !== undefined && mine.readyAgainAt === undefined)
        mine.readyAgainAt = at;
      await sleep(50);
    }
  });
  return {
    seen,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return seen;
    },
  };
};

const run = promisify(execFile);

/** `ledger audit` and `ledger verify` against the cluster, as an operator runs them: both exit 0. */
export const expectLedgerClean = async (env: Record<string, string>): Promise<void> => {
  for (const command of [
    ['ledger', 'audit'],
    ['ledger', 'verify'],
  ]) {
    // a difference or a break exits 1, which rejects with the command's output
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...command], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      maxBuffer: 16 << 20,
    });
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^OK: /);
  }
};
