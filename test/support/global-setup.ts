import { rm } from 'node:fs/promises';
import path from 'node:path';
import { withAdminClient } from '../../src/db/admin-client.js';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/db/connect.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrations.js';
import { clusterFolder, clusterParent, removeLeftClusters } from './cluster-parent.js';
import { buildService } from './service-build.js';

export const TEMPLATE = 'marketplace_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    /** Where the run compiled the service's sources (test/support/service-build.ts). */
    serviceBuild?: string;
  }
}

/** One PostgreSQL server for the whole run, with a migrated template every test file copies. */
export default async function setup(project: TestProject) {
  // the build and the server's start overlap: esbuild works in a process of its own
  const building = buildService(path.resolve(import.meta.dirname, '../..'));
  const parent = await clusterParent();
  await removeLeftClusters(parent, 'marketplace-test-');
  const dir = await clusterFolder('marketplace-test-');
  const [built, started] = await Promise.allSettled([building, startEmbeddedPostgres(dir)]);
  if (built.status === 'rejected' || started.status === 'rejected') {
    const error: unknown = built.status === 'rejected' ? built.reason : (started as PromiseRejectedResult).reason;
    // said here as well: a failing global setup can otherwise end the run with no message
    process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n\n`);
    if (started.status === 'fulfilled') await started.value.stop();
    await rm(dir, { recursive: true, force: true });
    if (built.status === 'fulfilled') await built.value.remove();
    throw error;
  }
  const serviceBuild = built.value;
  const embedded = started.value;
  project.provide('serviceBuild', serviceBuild.dir);
  await withAdminClient(embedded.adminUrl, async (admin) => {
    await admin.query(`create database ${TEMPLATE}`);
    // the run opens a few thousand connections: its password is hashed for one PBKDF2 round of
    // SCRAM instead of 4,096, which took a fifth of each connection's CPU (the server's and the
    // client's). Authentication itself stays what the service meets everywhere (scram-sha-256)
    await admin.query('set scram_iterations = 1');
    await admin.query(
      `alter role postgres password ${admin.escapeLiteral(decodeURIComponent(new URL(embedded.adminUrl).password))}`,
    );
  });
  const db = connect(embedded.urlFor(TEMPLATE), 2);
  await migrate(db.kysely);
  await db.close();
  project.provide('pgAdminUrl', embedded.adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  return async () => {
    await serviceBuild.remove();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
