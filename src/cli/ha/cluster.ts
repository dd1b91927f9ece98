import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withAdminClient } from '../../db/admin-client.js';
import { installPackages } from './packages.js';
import { handOver, processesUnder, runAs, startDetached, stopNamed, stopPid, stopPostmaster } from './processes.js';
import { etcdConfig, haproxyConfig, patroniConfig } from './templates.js';
import { newTopology, restUrl, superuserUrl, type Topology } from './topology.js';

/** What `up` writes beside the members: the topology and the secrets every instance shares. */
export interface ClusterFile extends Topology {
  secretKey: string;
  operatorToken: string;
  ledgerSigningKey: string;
}

const FILE = 'cluster.json';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const readCluster = async (dir: string): Promise<ClusterFile | undefined> => {
  try {
    return JSON.parse(await readFile(path.join(dir, FILE), 'utf8')) as ClusterFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/** Polls `check` every 250 ms until it answers something, or fails naming `what`. */
export const until = async <T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const found = await check();
      if (found !== undefined) return found;
    } catch (error) {
      last = error;
    }
    await sleep(250);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${String(last)})` : ''}`);
};

const getJson = async (url: string): Promise<unknown> => {
  const answer = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return answer.json();
};

export interface MemberState {
  name: string;
  role: string;
  state: string;
  lag?: number | string;
  timeline?: number;
}

/** The cluster as any member's Patroni sees it (GET /cluster), from the first that answers. */
export const clusterState = async (c: Topology): Promise<MemberState[]> => {
  for (const member of c.members) {
    try {
      const body = (await getJson(`${restUrl(c, member)}/cluster`)) as { members?: MemberState[] };
      if (body.members) return body.members;
    } catch {
      // that member is down: ask the next
    }
  }
  throw new Error('no Patroni member answers');
};

const running = (m: MemberState) => m.state === 'running' || m.state === 'streaming';
export const leaderOf = (members: MemberState[]) => members.find((m) => m.role === 'leader' && running(m));

/** A leader, a synchronous standby and every other member streaming: the cluster is whole. */
export const whole = (members: MemberState[], expected: number) =>
  members.length === expected &&
  !!leaderOf(members) &&
  members.some((m) => m.role === 'sync_standby' && running(m)) &&
  members.every(running);

const primaryAnswers = (c: Topology, port: number): Promise<boolean> =>
  // HAProxy closes a connection it has no server for yet: the query fails, not the process
  withAdminClient(
    superuserUrl(c, port),
    async (client) => {
      const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
      return rows[0]?.recovery === false;
    },
    { connectionTimeoutMillis: 2000 },
  );

/** The service's role and database, made once through the primary port. */
const createServiceDatabase = (c: Topology): Promise<void> =>
  withAdminClient(superuserUrl(c), async (client) => {
    const role = await client.query('select 1 from pg_roles where rolname = $1', [c.appUser]);
    if (role.rowCount === 0)
      await client.query(`create role ${c.appUser} login password '${c.passwords.app.replaceAll("'", "''")}'`);
    const db = await client.query('select 1 from pg_database where datname = $1', [c.database]);
    if (db.rowCount === 0) await client.query(`create database ${c.database} owner ${c.appUser}`);
  });

export const up = async (dir: string, say: (line: string) => void): Promise<ClusterFile> => {
  await installPackages(say);
  const existing = await readCluster(dir);
  if (existing) {
    say(`a cluster is recorded in ${dir} already: stopping it first`);
    await down(dir, say);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const cluster: ClusterFile = {
    ...(await newTopology(dir)),
    secretKey: randomBytes(32).toString('hex'),
    operatorToken: randomBytes(24).toString('hex'),
    ledgerSigningKey: randomBytes(32).toString('hex'),
  };
  await writeFile(path.join(dir, FILE), JSON.stringify(cluster, null, 2), { mode: 0o600 });
  const as = await runAs();
  for (const [i, member] of cluster.etcd.entries()) {
    await mkdir(member.dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(member.dir, 'etcd.yml'), await etcdConfig(cluster, i), { mode: 0o600 });
  }
  for (const member of cluster.members) {
    await mkdir(member.dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(member.dir, 'patroni.yml'), await patroniConfig(cluster, member), { mode: 0o600 });
  }
  await writeFile(path.join(dir, 'haproxy.cfg'), await haproxyConfig(cluster), { mode: 0o600 });
  await handOver(dir, as);

  for (const member of cluster.etcd)
    await startDetached(dir, member.name, 'etcd', ['--config-file', path.join(member.dir, 'etcd.yml')], as);
  for (const member of cluster.etcd)
    await until(`etcd member ${member.name} healthy`, 60_000, async () => {
      const body = (await getJson(`http://${cluster.host}:${member.clientPort}/health`)) as { health?: string };
      return body.health === 'true' ? true : undefined;
    });
  say('etcd: 3 members healthy');

  // the first member bootstraps alone; the others then clone it with pg_basebackup
  const [first, ...rest] = cluster.members;
  if (!first) throw new Error('a cluster of no members');
  await startDetached(dir, first.name, 'patroni', [path.join(first.dir, 'patroni.yml')], as);
  await until('the first member leading', 120_000, async () =>
    (await clusterState(cluster)).some((m) => m.role === 'leader' && running(m)) ? true : undefined,
  );
  for (const member of rest)
    await startDetached(dir, member.name, 'patroni', [path.join(member.dir, 'patroni.yml')], as);
  await until('every member streaming, one of them synchronous', 180_000, async () =>
    whole(await clusterState(cluster), cluster.members.length) ? true : undefined,
  );
  say('patroni: a leader, a synchronous standby and a replica');

  await startDetached(dir, 'haproxy', 'haproxy', ['-db', '-f', path.join(dir, 'haproxy.cfg')], as);
  await until('HAProxy routing to the primary', 60_000, async () =>
    (await primaryAnswers(cluster, cluster.primaryPort)) ? true : undefined,
  );
  // a busy machine may still see HAProxy's first checks flap: made once it holds
  await until('the service database made', 60_000, async () => (await createServiceDatabase(cluster), true));
  return cluster;
};

/** Stops every process of the cluster in `dir`, checks none is left, and removes its files unless `keep`. */
export const down = async (dir: string, say: (line: string) => void, keep = false): Promise<void> => {
  const cluster = await readCluster(dir);
  if (cluster) {
    await stopNamed(dir, 'haproxy', 5000);
    // Patroni stops its PostgreSQL on SIGTERM; one stopped hard leaves it running
    await Promise.all(cluster.members.map((m) => stopNamed(dir, m.name, 30_000)));
    await Promise.all(cluster.members.map((m) => stopPostmaster(path.join(m.dir, 'data'))));
    await Promise.all(cluster.etcd.map((m) => stopNamed(dir, m.name, 10_000)));
  }
  const left = await processesUnder(dir);
  for (const pid of left) await stopPid(pid, 5000);
  const still = await processesUnder(dir);
  if (still.length > 0) throw new Error(`processes still running under ${dir}: ${still.join(' ')}`);
  if (!keep) await rm(dir, { recursive: true, force: true });
  say(cluster ? `cluster in ${dir} stopped${keep ? '' : ' and removed'}` : `no cluster recorded in ${dir}`);
};

/** A planned switchover to the synchronous standby; resolves once the new primary takes writes. */
export const switchover = async (c: Topology, say: (line: string) => void): Promise<string> => {
  const members = await clusterState(c);
  const before = leaderOf(members);
  if (!before) throw new Error('no leader to switch over from');
  // named, so that no member races for the lock: the one that has every commit takes it
  const candidate = members.find((m) => m.role === 'sync_standby' && running(m))?.name;
  const member = c.members.find((m) => m.name === before.name);
  if (!member) throw new Error(`the leader ${before.name} is not a member of this topology`);
  const answer = await fetch(`${restUrl(c, member)}/switchover`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ leader: before.name, ...(candidate && { candidate }) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`switchover refused (${answer.status}): ${text.trim()}`);
  const after = await until('a new leader', 60_000, async () => {
    const leader = leaderOf(await clusterState(c));
    return leader && leader.name !== before.name ? leader.name : undefined;
  });
  await until('HAProxy routing to the new primary', 30_000, async () =>
    (await primaryAnswers(c, c.primaryPort)) ? true : undefined,
  );
  say(`switched over from ${before.name} to ${after}`);
  return after;
};
