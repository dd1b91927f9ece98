import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withAdminClient } from '../db/admin-client.js';
import { connect } from '../db/connect.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrations.js';
import { interruptionBegan } from '../db/stop-on-interrupt.js';
import { type SeedResult, runSeed, setupWorld } from './simulation.js';
import { createSeedDatabase, dropSeedDatabase } from './world.js';

export const DEFAULT_STEPS = 30;
const TEMPLATE = 'sim_template';

export interface RunSummary {
  seeds: number;
  steps: number;
  crashes: number;
  checks: number;
  failures: SeedResult[];
  ms: number;
}

/** Creates the migrated template every seed's database is copied from. */
export const prepareTemplate = async (adminUrl: string, template = TEMPLATE) => {
  await withAdminClient(adminUrl, async (admin) => {
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const db = connect(url.toString(), 2);
  await migrate(db.kysely);
  await db.close();
  return template;
};

/** Runs `seeds` one after the other on one server, a fresh database each. */
/** The shared starting point, made once; its database is every seed's template. */
export const openWorld = async (adminUrl: string, template: string) => {
  const database = `sim_world_${process.pid}_${++worlds}`;
  const world = await setupWorld(await createSeedDatabase(adminUrl, template, database));
  return {
    world,
    database,
    close: async () => {
      await world.close();
      await dropSeedDatabase(adminUrl, database).catch(() => undefined);
    },
  };
};
let worlds = 0;
export type OpenWorld = Awaited<ReturnType<typeof openWorld>>;

export const runSeeds = async (input: {
  adminUrl: string;
  template: string;
  seeds: number[];
  steps: number;
  verbose?: boolean;
  /** Reuse a world made by openWorld (tests); otherwise one is made for this run. */
  world?: OpenWorld;
  /**
   * Epoch ms after which no further seed starts (the one under way finishes). It decides how
   * many seeds run, never what a seed does: each seed's steps come from the seed alone.
   */
  startUntil?: number;
  onSeed?: (r: SeedResult) => void;
}): Promise<RunSummary> => {
  const started = Date.now();
  const summary: RunSummary = { seeds: 0, steps: 0, crashes: 0, checks: 0, failures: [], ms: 0 };
  const opened = input.world ?? (await openWorld(input.adminUrl, input.template));
  const { world, database: worldDb } = opened;
  try {
    for (const seed of input.seeds) {
      // an interrupted run starts no seed: its server is being stopped
      if (interruptionBegan()) break;
      if (input.startUntil !== undefined && Date.now() >= input.startUntil) break;
      const name = `sim_${seed}_${process.pid}`;
      const databaseUrl = await createSeedDatabase(input.adminUrl, worldDb, name);
      let result: SeedResult;
      try {
        result = await runSeed({ seed, steps: input.steps, databaseUrl, world, verbose: input.verbose });
      } catch (error) {
        result = {
          seed,
          steps: input.steps,
          crashes: 0,
          checks: 0,
          failure: {
            invariant: 'the simulation ran',
            detail: String(error instanceof Error ? error.stack : error),
            step: -1,
            replay: `npm run simulate -- --seed ${seed} --steps ${input.steps}`,
          },
          log: [],
        };
      }
      // a seed the interruption cut short is not reported: what it met is the server stopping
      if (interruptionBegan()) break;
      summary.seeds++;
      summary.steps += result.steps;
      summary.crashes += result.crashes;
      summary.checks += result.checks;
      if (result.failure) summary.failures.push(result);
      input.onSeed?.(result);
      await dropSeedDatabase(input.adminUrl, name).catch(() => undefined);
    }
  } finally {
    if (!input.world) await opened.close();
  }
  summary.ms = Date.now() - started;
  return summary;
};

/** One embedded server for a whole simulate run. */
export const withEmbeddedServer = async <T>(work: (adminUrl: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-sim-'));
  await chmod(dir, 0o755);
  const embedded = await startEmbeddedPostgres(dir);
  try {
    return await work(embedded.adminUrl);
  } finally {
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
};
