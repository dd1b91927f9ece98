import path from 'node:path';
import { inject } from 'vitest';

/**
 * The arguments for `spawn(process.execPath, …)` that run one of the service's entry points
 * (`src/cli/main.ts`, `src/sim/main.ts`): the run's compiled copy when the global setup made
 * one, else the source through tsx.
 */
export const serviceArgs = (entry: string, args: string[]): string[] => {
  const built = inject('serviceBuild');
  if (built === undefined) return ['--import', 'tsx', entry, ...args];
  return ['--enable-source-maps', path.join(built, entry.replace(/\.ts$/, '.js')), ...args];
};
