import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    // the cluster tests run on their own (vitest.ha.config.ts, npm run test:ha)
    exclude: ['test/ha/**', '**/node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // one embedded Postgres per run, one database per test file
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // bounds for a test that hangs, not speed checks: a busy machine takes several times as
    // long as an idle one, and a bound a slow pass can reach is a flake
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
