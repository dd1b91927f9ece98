import { execFile } from 'node:child_process';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PG_BIN_DIR } from './templates.js';

const run = promisify(execFile);

/** Debian's packages the cluster runs on, and a file each one brings. */
const NEEDED = [
  { pkg: 'etcd-server', file: '/usr/bin/etcd' },
  { pkg: 'patroni', file: '/usr/bin/patroni' },
  { pkg: 'haproxy', file: '/usr/sbin/haproxy' },
  // pg_basebackup, pg_rewind, pg_controldata and pg_isready, which Patroni needs
  { pkg: 'postgresql-15', file: `${PG_BIN_DIR}/pg_rewind` },
];

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export const missingPackages = async (): Promise<string[]> => {
  const missing: string[] = [];
  for (const { pkg, file } of NEEDED) if (!(await exists(file))) missing.push(pkg);
  return missing;
};

const CREATE_CLUSTER = '/etc/postgresql-common/createcluster.conf';
const POLICY = '/usr/sbin/policy-rc.d';

/**
 * Installs what is missing (as root). Installing postgresql-15 would create and start a
 * default cluster on port 5432: the install is told not to create one and not to start any
 * service, and a default cluster made anyway is dropped again.
 */
export const installPackages = async (say: (line: string) => void): Promise<void> => {
  const missing = await missingPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(`missing Debian packages: ${missing.join(' ')} (run as root, or apt-get install them)`);
  say(`installing ${missing.join(' ')}`);
  const clustersBefore = await clusters();
  await mkdir('/etc/postgresql-common', { recursive: true });
  if (!(await exists(CREATE_CLUSTER))) await writeFile(CREATE_CLUSTER, 'create_main_cluster = false\n');
  const hadPolicy = await exists(POLICY);
  const policyBefore = hadPolicy ? await readFile(POLICY) : undefined;
  await writeFile(POLICY, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update'], { env, maxBuffer: 64 << 20 });
    await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing, 'etcd-client'], {
      env,
      maxBuffer: 64 << 20,
    });
  } finally {
    if (policyBefore) await writeFile(POLICY, policyBefore, { mode: 0o755 });
    else await rm(POLICY, { force: true });
  }
  for (const cluster of await clusters())
    if (!clustersBefore.includes(cluster)) {
      const [version, name] = cluster.split('/') as [string, string];
      await run('pg_dropcluster', ['--stop', version, name]);
      say(`dropped the default cluster ${cluster} the package created`);
    }
};

/** Debian's clusters as `version/name` (pg_lsclusters), none when the tools are not there. */
const clusters = async (): Promise<string[]> => {
  try {
    const { stdout } = await run('pg_lsclusters', ['--no-header']);
    return stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols.length >= 2 && cols[0])
      .map((cols) => `${cols[0]}/${cols[1]}`);
  } catch {
    return [];
  }
};
