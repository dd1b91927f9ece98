import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Member, Topology } from './topology.js';

/** deploy/ha: the templates an operator also reads as the pattern for real hosts. */
const TEMPLATES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy/ha');

export const PG_BIN_DIR = '/usr/lib/postgresql/15/bin';

/** `${NAME}` → values[NAME]; a placeholder without a value is a mistake, not an empty string. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template placeholder \${${name}} has no value`);
    return String(value);
  });

const template = (name: string) => readFile(path.join(TEMPLATES, name), 'utf8');

export const etcdConfig = async (t: Topology, index: number): Promise<string> => {
  const member = t.etcd[index];
  if (!member) throw new Error(`no etcd member ${index} in the topology`);
  return fill(await template('etcd.yml'), {
    NAME: member.name,
    DATA_DIR: path.join(member.dir, 'data'),
    HOST: t.host,
    CLIENT_PORT: member.clientPort,
    PEER_PORT: member.peerPort,
    INITIAL_CLUSTER: t.etcd.map((m) => `${m.name}=http://${t.host}:${m.peerPort}`).join(','),
    CLUSTER_TOKEN: `${t.scope}-etcd`,
  });
};

export const patroniConfig = async (t: Topology, member: Member): Promise<string> =>
  fill(await template('patroni.yml'), {
    SCOPE: t.scope,
    NAME: member.name,
    HOST: t.host,
    REST_PORT: member.restPort,
    PG_PORT: member.pgPort,
    ETCD_HOSTS: t.etcd.map((m) => `${t.host}:${m.clientPort}`).join(','),
    DATA_DIR: path.join(member.dir, 'data'),
    MEMBER_DIR: member.dir,
    BIN_DIR: PG_BIN_DIR,
    SUPERUSER_PASSWORD: t.passwords.superuser,
    REPLICATION_PASSWORD: t.passwords.replication,
    HBA_NETWORK: `${t.host}/32`,
  });

const servers = (t: Topology) =>
  t.members.map((m) => `    server ${m.name} ${t.host}:${m.pgPort} check port ${m.restPort}`).join('\n');

export const haproxyConfig = async (t: Topology): Promise<string> =>
  fill(await template('haproxy.cfg'), {
    HOST: t.host,
    PRIMARY_PORT: t.primaryPort,
    REPLICA_PORT: t.replicaPort,
    PRIMARY_SERVERS: servers(t),
    // no replica up (one member left, a failover under way): reads go to the primary port
    REPLICA_SERVERS: `${servers(t)}\n    server primary ${t.host}:${t.primaryPort} backup`,
  });
