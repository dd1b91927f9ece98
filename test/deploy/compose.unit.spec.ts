import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, SETTING_NAMES } from '../../src/config.js';

/**
 * The deployment files say the same thing as the code: they parse, the service is
 * configured only through settings src/config.ts reads (and accepts), and nothing stops
 * `docker compose up --scale service=N`. Where Docker exists, `docker compose config`
 * checks them further; here they are read as YAML.
 */
const read = (file: string) => readFileSync(file, 'utf8');
const compose = (file: string) =>
  parse(read(file), { merge: true }) as { services: Record<string, any>; volumes?: Record<string, unknown> };

/** `${NAME}`, `${NAME:-default}`, `${NAME:?message}`: compose interpolation. */
const interpolated = (text: string) =>
  [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1]!);

/** The environment as one instance sees it, with sample values for what the operator passes. */
const instanceEnv = (environment: Record<string, string>) => {
  const given: Record<string, string> = {
    SVC_SECRET_KEY: 'ab'.repeat(32),
    SVC_LEDGER_SIGNING_KEY: 'cd'.repeat(32),
    SVC_OPERATOR_TOKEN: 'operator-token-0123456789',
    LOG_LEVEL: 'info',
  };
  return Object.fromEntries(
    Object.entries(environment).map(([k, v]) => [
      k,
      String(v).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g, (_m, name: string) => given[name]!),
    ]),
  );
};

describe.each(['docker-compose.yml', 'docker-compose.cluster.yml'])('%s', (file) => {
  const doc = compose(file);
  const service = doc.services.service;

  it('builds the service from the Dockerfile and configures it only through settings the config reads', () => {
    expect(service.build).toBe('.');
    const names = Object.keys(service.environment);
    expect(names.filter((n) => !SETTING_NAMES.includes(n))).toEqual([]);
    expect(interpolated(read(file)).filter((n) => !SETTING_NAMES.includes(n))).toEqual([]);
    const config = loadConfig(instanceEnv(service.environment));
    expect(config).toMatchObject({ env: 'production', eventStore: 'kurrentdb', host: '0.0.0.0', port: 8080 });
    expect(config.databaseUrl).toBe('postgres://marketplace:marketplace@postgres:5432/marketplace');
  });

  it('requires the shared secrets from the operator instead of letting each instance make its own', () => {
    expect(service.environment.SVC_SECRET_KEY).toMatch(/^\$\{SVC_SECRET_KEY:\?/);
    expect(service.environment.SVC_LEDGER_SIGNING_KEY).toMatch(/^\$\{SVC_LEDGER_SIGNING_KEY:\?/);
    expect(service.environment.SVC_OPERATOR_TOKEN).toMatch(/^\$\{SVC_OPERATOR_TOKEN:\?/);
  });

  it('scales: no instance publishes a host port or names its container; one proxy publishes 8080', () => {
    expect(service.ports).toBeUndefined();
    expect(service.container_name).toBeUndefined();
    expect(service.expose).toEqual(['8080']);
    expect(doc.services.proxy.ports).toEqual(['8080:8080']);
    expect(doc.services.proxy.volumes).toEqual(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro']);
    expect(Object.values(doc.services).filter((s: any) => s.ports).length).toBe(1);
  });

  it('starts the service once Postgres and every KurrentDB node are healthy', () => {
    const nodes = Object.keys(doc.services).filter((name) =>
      String(doc.services[name].image ?? '').includes('/kurrentdb:'),
    );
    expect(nodes.length).toBe(file.includes('cluster') ? 3 : 1);
    expect(Object.keys(service.depends_on).sort()).toEqual([...nodes, 'postgres'].sort());
    for (const dependency of Object.values(service.depends_on) as { condition: string }[])
      expect(dependency.condition).toBe('service_healthy');
    // the connection string names every node by its service name
    for (const node of nodes) expect(service.environment.SVC_KURRENTDB_URL).toContain(`${node}:2113`);
    expect(doc.services.postgres.environment.POSTGRES_DB).toBe('marketplace');
  });
});

describe('docker-compose.cluster.yml', () => {
  it('forms one three-node cluster: each node gossips with the two others', () => {
    const { services } = compose('docker-compose.cluster.yml');
    const ips = ['node1', 'node2', 'node3'].map((n) => services[n].networks.default.ipv4_address as string);
    expect(new Set(ips).size).toBe(3);
    ['node1', 'node2', 'node3'].forEach((n, i) => {
      const env = services[n].environment;
      expect(env.KURRENTDB_CLUSTER_SIZE).toBe('3');
      expect(env.KURRENTDB_NODE_IP).toBe(ips[i]);
      expect(env.KURRENTDB_GOSSIP_SEED.split(',').sort()).toEqual(
        ips
          .filter((_, j) => j !== i)
          .map((ip) => `${ip}:2113`)
          .sort(),
      );
    });
  });
});

describe('proxy', () => {
  it("sends a token's requests to one replica of the service, the rest round-robin", () => {
    const caddy = read('deploy/Caddyfile');
    expect(caddy).toMatch(/^:8080 \{$/m);
    expect(caddy).toMatch(/dynamic a \{\s+name service\s+port 8080/);
    expect(caddy).toMatch(/lb_policy header Authorization \{\s+fallback round_robin\s+\}/);
  });
});
