import { defineConfig } from 'vitest/config';

/**
 * The high-availability tests (`npm run test:ha`, run by `.ci/run` after the suite): a
 * Patroni cluster of Debian's packages and service instances as processes. One file at a
 * time, apart from the main suite, so that their timing bounds meet no other file's load.
 */
export default defineConfig({
  test: {
    include: ['test/ha/**/*.spec.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
