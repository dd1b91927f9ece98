import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { setBugSwitches } from '../../src/faults.js';
import { type OpenWorld, openWorld, prepareTemplate, runSeeds } from '../../src/sim/run.js';

/**
 * The seeded simulation in CI: a fixed set of short seeds runs the real service (real
 * Postgres, the app in process, reference kits and a webhook receiver over real HTTP) with
 * crashes and supplier faults, and every invariant holds after every step. The long run
 * (`npm run simulate -- --seeds 1000`) is in docs/operations.md.
 */

const adminUrl = inject('pgAdminUrl');
let template: string | undefined;
let world: OpenWorld | undefined;
const templateOnce = async () => (template ??= await prepareTemplate(adminUrl, `sim_template_${process.pid}`));
const worldOnce = async () => (world ??= await openWorld(adminUrl, await templateOnce()));
const run = async (seeds: number[], steps: number) =>
  runSeeds({ adminUrl, template: await templateOnce(), world: await worldOnce(), seeds, steps });

describe('simulation', () => {
  afterAll(async () => {
    setBugSwitches([]);
    await world?.close();
  });

  it('holds every invariant over a fixed set of seeds, crashes included', async () => {
    // more seeds and longer runs are the nightly command's (`.ci/nightly`)
    const summary = await run([20], 12);
    expect(summary.failures.map((f) => ({ seed: f.seed, ...f.failure }))).toEqual([]);
    expect(summary.seeds).toBe(1);
    expect(summary.steps).toBe(12);
    expect(summary.crashes).toBe(1); // seed 20 kills the service once in these 12 steps
    // eleven invariants after each of the 12 steps and once more after settling
    expect(summary.checks).toBe((12 + 1) * 11);
  }, 240_000);

  it('seed 9: a crash after the supplier accepted an order no longer leaves its item waiting forever', async () => {
    // the run that accepted the order died before scheduling the polls; its re-run saw the
    // order recorded and stopped, so the item stayed reserved and the order placed
    const summary = await run([9], 30);
    expect(summary.failures.map((f) => ({ seed: f.seed, ...f.failure }))).toEqual([]);
    expect(summary.crashes).toBe(2);
  }, 240_000);

  it('seed 2083: a webhook fan-out re-run after a crash schedules the first attempt of a delivery it had recorded', async () => {
    // the crash fell between recording the delivery and scheduling its first attempt; the
    // re-run found the row and skipped it, so the delivery stayed pending with 0 attempts
    const summary = await run([2083], 30);
    expect(summary.failures.map((f) => ({ seed: f.seed, ...f.failure }))).toEqual([]);
    expect(summary.crashes).toBe(1);
  }, 240_000);

  it('seed 2066: each run of the recurring healthcheck is an outcome of its own, applied once', async () => {
    // two passing runs of one offer's healthcheck timer shared the cause `offer.healthcheck:<offer>`,
    // so a legitimate second +5 read as one outcome applied twice; a run now names its due time
    const summary = await run([2066], 30);
    expect(summary.failures.map((f) => ({ seed: f.seed, ...f.failure }))).toEqual([]);
    expect(summary.steps).toBe(30);
  }, 240_000);

  it('starts no seed once its time budget has run out', async () => {
    // CI's run on fresh seeds stops starting them after a fixed time (`--budget`)
    const summary = await runSeeds({
      adminUrl,
      template: await templateOnce(),
      world: await worldOnce(),
      seeds: [20, 21],
      steps: 1,
      startUntil: Date.now(),
    });
    expect(summary.seeds).toBe(0);
  });

  it('catches a broken rule with a seed that replays the same failure at the same step', async () => {
    // a refund that posts no reversing entry: the supplier keeps money for a refunded sale
    setBugSwitches(['skip-refund-entry']);
    try {
      // seed 14 refunds a delivered item within its first 8 steps
      const first = await run([14], 8);
      expect(first.failures).toHaveLength(1);
      const failure = first.failures[0]!.failure!;
      expect(failure.invariant).toBe(
        'one sale entry per delivered item, one refund entry per refunded item, none for cancelled',
      );
      expect(failure.detail).toMatch(/^refunded order item \w+ has a sale but 0 refund entries$/);
      expect(failure.replay).toBe(`npm run simulate -- --seed 14 --steps ${failure.step}`);

      const replay = await run([14], failure.step);
      expect(replay.failures.map((f) => [f.failure!.step, f.failure!.invariant])).toEqual([
        [failure.step, failure.invariant],
      ]);
      expect(replay.failures[0]!.log).toEqual(first.failures[0]!.log);
    } finally {
      setBugSwitches([]);
    }
  }, 240_000);
});
