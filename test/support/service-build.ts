import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The service's sources compiled to JavaScript once per run, for the tests that start it as a
 * process. Loading the sources through tsx costs each start about 2.5 s of CPU more than
 * loading compiled files (most of it in the loader's hooks), and the suite starts the service
 * dozens of times. One file per source, same layout, so relative imports and
 * `import.meta.url` still point where they did; under node_modules/.cache so that packages
 * resolve from the project's node_modules. The README's own commands (tsx) stay tested by
 * test/cli/serve.spec.ts; the tsc build by test/deploy/compiled.spec.ts.
 */
const sources = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));

export const buildService = async (root: string): Promise<{ dir: string; remove: () => Promise<void> }> => {
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'service-build-'));
  await build({
    entryPoints: await sources(path.join(root, 'src')),
    outdir: path.join(dir, 'src'),
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  // the nearest package.json decides that .js files are ES modules
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
};
