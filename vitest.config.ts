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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
