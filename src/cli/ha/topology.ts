import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * Where every part of a single-machine cluster listens and keeps its files: three etcd
 * members, three Patroni members and one HAProxy, all on loopback. Ports are picked free at
 * `up` and written to the cluster's directory, so two clusters (or a cluster and a test run)
 * never collide, and later commands read them back.
 */
export interface Member {
  name: string;
  dir: string;
  pgPort: number;
  restPort: number;
}

export interface EtcdMember {
  name: string;
  dir: string;
  clientPort: number;
  peerPort: number;
}

export interface Topology {
  dir: string;
  host: string;
  scope: string;
  etcd: EtcdMember[];
  members: Member[];
  primaryPort: number;
  replicaPort: number;
  passwords: { superuser: string; replication: string; app: string };
  /** The service's database on the cluster, and its owner. */
  database: string;
  appUser: string;
}

export const MEMBERS = 3;
const HOST = '127.0.0.1';

/** A port nothing listens on now (the kernel's pick). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const password = () => randomBytes(18).toString('base64url');

export const newTopology = async (dir: string): Promise<Topology> => {
  const ports: number[] = [];
  // all at once, so the kernel cannot hand the same port out twice
  for (let i = 0; i < MEMBERS * 4 + 2; i++) ports.push(await freePort());
  if (new Set(ports).size !== ports.length) return newTopology(dir);
  const take = () => ports.shift() as number;
  const range = Array.from({ length: MEMBERS }, (_, i) => i + 1);
  return {
    dir,
    host: HOST,
    scope: 'svc-marketplace',
    etcd: range.map((i) => ({
      name: `etcd${i}`,
      dir: path.join(dir, `etcd${i}`),
      clientPort: take(),
      peerPort: take(),
    })),
    members: range.map((i) => ({ name: `pg${i}`, dir: path.join(dir, `pg${i}`), pgPort: take(), restPort: take() })),
    primaryPort: take(),
    replicaPort: take(),
    passwords: { superuser: password(), replication: password(), app: password() },
    database: 'marketplace',
    appUser: 'marketplace',
  };
};

const url = (t: Topology, port: number) => `postgres://${t.appUser}:${t.passwords.app}@${t.host}:${port}/${t.database}`;

/** What the service is given: writes through the primary port, reads through the replicas'. */
export const serviceUrls = (t: Topology) => ({
  DATABASE_URL: url(t, t.primaryPort),
  DATABASE_READ_URL: url(t, t.replicaPort),
});

export const superuserUrl = (t: Topology, port = t.primaryPort) =>
  `postgres://postgres:${t.passwords.superuser}@${t.host}:${port}/postgres`;

export const restUrl = (t: Topology, member: Member) => `http://${t.host}:${member.restPort}`;
