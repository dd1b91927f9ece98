import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type ClusterFile,
  clusterState,
  down,
  leaderOf,
  readCluster,
  until,
  up,
  whole,
} from '../../src/cli/ha/cluster.js';
import { missingPackages } from '../../src/cli/ha/packages.js';
import { alive, postmasterPid, recordedPid, runAs, signalIfAlive, startDetached } from '../../src/cli/ha/processes.js';
import { restUrl, serviceUrls, type Topology } from '../../src/cli/ha/topology.js';

/**
 * The cluster `npm run ha -- up` starts, in a folder of the test's own. The tests run where
 * Debian's etcd-server, patroni, haproxy and postgresql-15 are installed (`.ci/run` installs
 * them); elsewhere they say so in one line and skip.
 */
export const haSkipReason = async (): Promise<string | undefined> => {
  const missing = await missingPackages();
  return missing.length > 0
    ? `HA tests skipped: Debian packages missing (${missing.join(' ')}): npm run ha -- install`
    : undefined;
};

/** A leader's promotion as Patroni records it: the timeline it began and when. */
export interface Promotion {
  timeline: number;
  leader: string;
  /** Epoch ms: the modification time of the timeline's history file, which PostgreSQL writes as it promotes. */
  at: number;
}

/**
 * The promotions Patroni keeps in its history (GET /history: the timeline that ended, its
 * last WAL position, the reason, then when and to whom), asked of the first member that
 * answers. The leader writes a promotion there in its next cycle after it.
 */
export const promotions = async (c: Topology): Promise<Promotion[]> => {
  for (const member of c.members) {
    try {
      const answer = await fetch(`${restUrl(c, member)}/history`, { signal: AbortSignal.timeout(2000) });
      const lines = (await answer.json()) as [number, number, string, string?, string?][];
      return lines
        .filter((line) => line[3] !== undefined && line[4] !== undefined)
        .map(([ended, , , at, leader]) => ({ timeline: ended + 1, leader: leader!, at: Date.parse(at!) }));
    } catch {
      // that member is down: ask the next
    }
  }
  throw new Error('no Patroni member answers');
};

export interface TestCluster {
  cluster: ClusterFile;
  dir: string;
  env: Record<string, string>;
  /** SIGKILL the leader's Patroni and its postmaster at once, as a lost host; answers its name. */
  killLeader(): Promise<string>;
  /** Starts a stopped member's Patroni again; it rejoins as a replica (pg_rewind). */
  restart(name: string): Promise<void>;
  /** Waits until a leader, a synchronous standby and every member stream again. */
  whole(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = () => undefined;

export const startCluster = async (): Promise<TestCluster> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-ha-test-'));
  await chmod(dir, 0o755);
  const cluster = await up(dir, quiet).catch(async (error: unknown) => {
    await down(dir, quiet);
    throw error;
  });
  const env = {
    ...serviceUrls(cluster),
    SVC_SECRET_KEY: cluster.secretKey,
    SVC_OPERATOR_TOKEN: cluster.operatorToken,
    SVC_LEDGER_SIGNING_KEY: cluster.ledgerSigningKey,
  };
  const memberOf = (name: string) => cluster.members.find((m) => m.name === name)!;
  return {
    cluster,
    dir,
    env,
    killLeader: async () => {
      const leader = leaderOf(await clusterState(cluster));
      if (!leader) throw new Error('no leader to kill');
      const member = memberOf(leader.name);
      const patroni = await recordedPid(dir, member.name);
      const postmaster = await postmasterPid(path.join(member.dir, 'data'));
      for (const pid of [patroni, postmaster]) if (pid !== undefined) signalIfAlive(pid, 'SIGKILL');
      while ([patroni, postmaster].some((pid) => pid !== undefined && alive(pid))) await sleep(20);
      return leader.name;
    },
    restart: async (name) => {
      const member = memberOf(name);
      await startDetached(dir, name, 'patroni', [path.join(member.dir, 'patroni.yml')], await runAs());
    },
    whole: async (timeoutMs = 120_000) => {
      await until('the cluster whole again', timeoutMs, async () =>
        whole(await clusterState(cluster), cluster.members.length) ? true : undefined,
      );
    },
    stop: async () => {
      if (await readCluster(dir)) await down(dir, quiet);
    },
  };
};
