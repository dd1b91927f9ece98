/**
 * One embedded PostgreSQL server for the whole run, in a temporary directory removed at
 * the end. Every benchmark gets fresh databases copied from a migrated template.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { withAdminClient } from '../src/db/admin-client.js';
import { connect, type Db } from '../src/db/connect.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrations.js';
import type { BenchContext, Settings } from './harness.js';
import { serverCpuReader } from './server-cpu.js';

const TEMPLATE = 'bench_template';

export interface Environment {
  context: BenchContext;
  /** Version and settings of the server, for the report. */
  describeServer(): Promise<string[]>;
  /**
   * Writes out what earlier benchmarks left dirty (a checkpoint), so that the next one's
   * figures, the server's CPU among them, do not carry that work.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

// eslint-disable-next-line max-lines-per-function -- the benchmark environment's parts, each started once
export const startEnvironment = async (settings: Settings, log: (line: string) => void): Promise<Environment> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-bench-'));
  await chmod(dir, 0o755); // as root the server runs as the `postgres` user and must reach its data
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  const open: Db[] = [];
  const fixtures = new Map<string, Promise<unknown>>();
  let databases = 0;

  const close = async () => {
    for (const db of open.splice(0)) await db.close().catch(() => undefined);
    if (embedded) await embedded.stop().catch((e) => log(`stopping the server failed: ${String(e)}`));
    embedded = undefined;
    await rm(dir, { recursive: true, force: true });
  };

  try {
    // statements per order are counted on the server (bench/statements.ts)
    embedded = await startEmbeddedPostgres(dir, undefined, [
      'shared_preload_libraries=pg_stat_statements',
      'pg_stat_statements.track=top',
    ]);
    const server = embedded;
    const admin = <T>(work: (client: pg.Client) => Promise<T>) => withAdminClient(server.adminUrl, work);
    await admin((c) => c.query(`create database ${TEMPLATE}`));
    await admin((c) => c.query('create extension if not exists pg_stat_statements'));
    const template = connect(server.urlFor(TEMPLATE), 1);
    await migrate(template.kysely);
    await template.close();
    const serverCpu = await admin((c) => serverCpuReader(c));

    const context: BenchContext = {
      settings,
      log,
      ...(serverCpu ? { serverCpu } : {}),
      freshDatabase: async (prefix, poolSize) => {
        const name = `${prefix.replace(/[^a-z0-9_]/g, '_')}_${++databases}`;
        await admin((c) => c.query(`create database ${name} template ${TEMPLATE}`));
        const db = connect(server.urlFor(name), poolSize);
        open.push(db);
        return db;
      },
      statements: {
        reset: () => admin(async (c) => void (await c.query('select pg_stat_statements_reset()'))),
        of: (db) =>
          admin(async (c) => {
            const { rows } = await c.query<{ query: string; calls: string }>(
              `select s.query, s.calls from pg_stat_statements s join pg_database d on d.oid = s.dbid
                where d.datname = $1 order by s.calls desc`,
              [new URL(db.pool.options.connectionString!).pathname.slice(1)],
            );
            return rows.map((r) => ({ query: r.query, calls: Number(r.calls) }));
          }),
      },
      fixture: <T>(key: string, build: () => Promise<T>) => {
        let existing = fixtures.get(key) as Promise<T> | undefined;
        if (!existing) {
          existing = build();
          fixtures.set(key, existing);
        }
        return existing;
      },
    };

    const describeServer = () =>
      admin(async (c) => {
        const version = (await c.query<{ v: string }>('select version() as v')).rows[0]!.v;
        const settingsRows = await c.query<{ name: string; setting: string; unit: string | null }>(
          `select name, setting, unit from pg_settings
            where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_wal_size', 'work_mem')
            order by name`,
        );
        return [version, ...settingsRows.rows.map((s) => `${s.name} = ${s.setting}${s.unit ? ` (${s.unit})` : ''}`)];
      });

    const settle = () => admin(async (c) => void (await c.query('checkpoint')));

    return { context, describeServer, settle, close };
  } catch (error) {
    await close();
    throw error;
  }
};
