import { parseArgs } from 'node:util';
import { unlessInterrupted } from '../db/stop-on-interrupt.js';
import { DEFAULT_STEPS, prepareTemplate, runSeeds, withEmbeddedServer } from './run.js';

/**
 * `npm run simulate -- --seeds N [--seed S] [--steps K] [--budget SECONDS] [--verbose]`:
 * seeds S..S+N-1 (S defaults to 1, N to 1 when --seed is given, else 20), K steps each; with
 * a budget, no seed starts once that many seconds have passed since the run began (CI runs
 * fresh seeds for a fixed time). A failure prints the seed, the step, the broken invariant
 * and the command that replays it.
 */
const USAGE = 'usage: npm run simulate -- --seeds N [--seed S] [--steps K] [--budget SECONDS] [--verbose]';
const { values } = parseArgs({
  options: {
    seeds: { type: 'string' },
    seed: { type: 'string' },
    steps: { type: 'string' },
    budget: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const first = values.seed !== undefined ? Number(values.seed) : 1;
const count = values.seeds !== undefined ? Number(values.seeds) : values.seed !== undefined ? 1 : 20;
const steps = values.steps !== undefined ? Number(values.steps) : DEFAULT_STEPS;
const budget = values.budget !== undefined ? Number(values.budget) : undefined;
if (![first, count, steps, budget ?? 0].every((n) => Number.isInteger(n) && n >= 0)) {
  console.error(USAGE);
  process.exit(2);
}
const startUntil = budget !== undefined ? Date.now() + budget * 1000 : undefined;

const run = withEmbeddedServer(async (adminUrl) => {
  const template = await prepareTemplate(adminUrl);
  return runSeeds({
    adminUrl,
    template,
    seeds: Array.from({ length: count }, (_, i) => first + i),
    steps,
    verbose: values.verbose,
    ...(startUntil !== undefined && { startUntil }),
    onSeed: (r) => {
      if (r.failure) {
        console.log(
          `seed ${r.seed} FAILED at step ${r.failure.step}: ${r.failure.invariant}\n  ${r.failure.detail}\n  replay: ${r.failure.replay}`,
        );
        if (!values.verbose)
          console.log(
            r.log
              .slice(-8)
              .map((l) => `  ${l}`)
              .join('\n'),
          );
      } else console.log(`seed ${r.seed} ok: ${r.steps} steps, ${r.crashes} crashes, ${r.checks} checks`);
    },
  });
});
// interrupted (Ctrl-C, SIGTERM, `| head`), the run ends with the interruption's code once its
// server is stopped, whatever the seeds in flight then met
const summary = await unlessInterrupted(run);
if (budget !== undefined && summary.seeds < count)
  console.log(`\nthe ${budget} s budget ran out: seeds ${first} to ${first + summary.seeds - 1} ran`);
console.log(
  `\nseeds ${summary.seeds}, steps ${summary.steps}, crashes ${summary.crashes}, invariant checks ${summary.checks}, failures ${summary.failures.length}, ${(summary.ms / 1000).toFixed(1)} s`,
);
process.exit(summary.failures.length > 0 ? 1 : 0);
