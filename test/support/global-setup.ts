import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/db/connect.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrations.js';
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
  const serviceBuild = await buildService(path.resolve(import.meta.dirname, '../..'));
  project.provide('serviceBuild', serviceBuild.dir);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-test-'));
  await chmod(dir, 0o755); // the server runs as its own user when we are root
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    embedded = await startEmbeddedPostgres(dir);
  } catch (error) {
    // said here as well: a failing global setup can otherwise end the run with no message
    process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n\n`);
    await rm(dir, { recursive: true, force: true });
    await serviceBuild.remove();
    throw error;
  }
  const admin = new pg.Client({ connectionString: embedded.adminUrl });
  await admin.connect();
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
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
