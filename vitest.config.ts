import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    // the cluster tests run on their own (vitest.ha.config.ts, npm run test:ha)
    exclude: ['test/ha/**', '**/node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // one embedded Postgres per run, one database per test file
    pool: 'forks',
    // three workers on two cores: a worker often waits (a process starting, a browser, a
    // server's answer), and a third keeps the cores busy meanwhile. As many workers kept as
    // started: with fewer kept, a worker idle for a moment was ended mid-run, and tinypool's
    // "Terminating worker thread" then ended the run and left that worker running
    poolOptions: { forks: { maxForks: 3, minForks: 3 } },
    sequence: { sequencer: HeavyFirstSequencer },
    // files in one worker share loaded modules: isolating each file loaded the service's
    // dependencies again for every one of ~150 files, a fifth of the suite's time. Test files
    // keep their state in their own modules or in hooks; a shared module's top level runs
    // once per worker (test/projections/given-rows.ts keeps its database per file for this)
    isolate: false,
    // bounds for a test that hangs, not speed checks: a busy machine takes several times as
    // long as an idle one, and a bound a slow pass can reach is a flake
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
