import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterState, down, readCluster, switchover, up } from './ha/cluster.js';
import { installPackages } from './ha/packages.js';
import { serviceUrls } from './ha/topology.js';
import { cliFlags } from './flags.js';

const usage = `usage: npm run ha -- <command> [--dir DIR]

  install       install what is missing (as root), and nothing else
  up            install what is missing (Debian: etcd-server, patroni, haproxy, postgresql-15),
                then start 3 etcd members, 3 Patroni members and HAProxy on loopback
  down          stop every process of the cluster and remove its files (--keep true keeps them)
  status        the members, their roles and lag, and the service's connection strings
  switchover    a planned switchover to the synchronous standby
  env           the settings that point the service at the cluster, as shell lines
  service       run one service instance on the cluster (--port PORT, default 8080)

  DIR defaults to SVC_HA_DIR, else a folder in the system's temporary directory.`;

const say = (line: string) => console.log(line);

const envLines = (c: NonNullable<Awaited<ReturnType<typeof readCluster>>>) => ({
  ...serviceUrls(c),
  SVC_SECRET_KEY: c.secretKey,
  SVC_OPERATOR_TOKEN: c.operatorToken,
  SVC_LEDGER_SIGNING_KEY: c.ledgerSigningKey,
});

const main = async (args: string[]): Promise<number> => {
  const [command, ...rest] = args;
  const flags = cliFlags(rest, ['dir', 'keep', 'port']);
  if ('error' in flags || !command) {
    console.error('error' in flags ? `${flags.error}\n\n${usage}` : usage);
    return 2;
  }
  const dir = path.resolve(flags.values.dir ?? process.env.SVC_HA_DIR ?? path.join(os.tmpdir(), 'svc-marketplace-ha'));
  if (command === 'install') {
    await installPackages(say);
    return 0;
  }
  if (command === 'up') {
    const cluster = await up(dir, say);
    for (const [name, value] of Object.entries(serviceUrls(cluster))) say(`${name}=${value}`);
    say(`cluster up in ${dir}: npm run ha -- service runs an instance on it`);
    return 0;
  }
  if (command === 'down') {
    await down(dir, say, flags.values.keep === 'true');
    return 0;
  }
  const cluster = await readCluster(dir);
  if (!cluster) {
    console.error(`no cluster in ${dir}: npm run ha -- up starts one`);
    return 1;
  }
  if (command === 'status') {
    for (const m of await clusterState(cluster))
      say(
        `${m.name.padEnd(5)} ${m.role.padEnd(13)} ${m.state.padEnd(10)} timeline ${m.timeline ?? '-'} lag ${m.lag ?? 0}`,
      );
    for (const [name, value] of Object.entries(serviceUrls(cluster))) say(`${name}=${value}`);
    return 0;
  }
  if (command === 'switchover') {
    await switchover(cluster, say);
    return 0;
  }
  if (command === 'env') {
    for (const [name, value] of Object.entries(envLines(cluster))) say(`export ${name}='${value}'`);
    return 0;
  }
  if (command === 'service') {
    const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve'], {
      stdio: 'inherit',
      env: { ...process.env, ...envLines(cluster), PORT: flags.values.port ?? process.env.PORT ?? '8080' },
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  }
  console.error(usage);
  return 2;
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
