/**
 * Summarises a V8 CPU profile (`.cpuprofile`, from `node --cpu-prof` or the benchmark's
 * service process) as the CPU per unit of work each step of the service takes, and writes
 * a small flame graph (SVG) beside it.
 *
 *   npx tsx bench/profile-summary.ts PROFILE.cpuprofile [--per N] [--svg OUT.svg] [--top 15]
 *
 * `--per` divides by the units the profile covers (read from `-n<N>` in the file's name
 * when absent). Each sample is charged to the innermost frame of the project's own code on
 * its stack (the step that asked for the work: a `pg` call made by the append is the
 * append's); samples with none (a socket's data parsed by `pg`, fastify reading a request
 * before any handler) go to the package or Node internals at their leaf.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The steps of a request and of the work after it, by the project file whose code asked for the CPU. */
const STEPS: [RegExp, string][] = [
  [/src\/http\/idempotency\.ts$/, 'idempotency claim and answer'],
  [/src\/http\/(access|principal|whoami)\.ts$|src\/crypto\/tokens\.ts$/, 'authentication'],
  [/src\/http\/(rate-limiter|rate-limit-sync|limits)\.ts$/, 'limiter'],
  [/src\/http\/(schemas|input-safety|problem|errors|client-errors)\.ts$/, 'request parsing, validation, answer'],
  [/src\/http\/(app|routes|metrics|replica-reads)\.ts$|src\/metrics\.ts$/, 'HTTP plumbing (hooks, metrics)'],
  [/src\/http\//, 'route handlers (request and answer)'],
  [/src\/domain\//, 'decision (domain)'],
  [/src\/commands\//, 'command (load streams, decide, append)'],
  [/src\/eventstore\/postgres-append|src\/eventstore\/append-together/, 'append'],
  [/src\/eventstore\//, 'event store (feed reads, upcast, notify)'],
  [
    /src\/projections\/(runner|checkpoints|projector|apply-shares|read-fence)\.ts$/,
    'projection runner (feed, batches)',
  ],
  [/src\/processes\/webhook|src\/outbound\/webhook|src\/projections\/webhook/, 'webhook fan-out and sending'],
  [/src\/processes\/(timers|schedule|maintenance|batch-runs|workflow-runner)\.ts$/, 'timers'],
  [/src\/processes\//, 'process managers'],
  [/src\/projections\/[a-z-]+-reads\.ts$/, "route's read-model queries"],
  [/src\/db\//, 'database layer (pool, prepared, gated)'],
  [/src\/resources\//, 'resources (answers)'],
];

/** Whether a step runs before the answer (the request's) or after it (the feed's). */
const stageOf = (step: string): string =>
  /^(projection runner|projector |event store|webhook|timers|process managers)/.test(step)
    ? 'after the answer: feed, read models, processes, timers, webhooks'
    : /^(outside|GC|\(program)/.test(step)
      ? 'no project frame on the stack: sockets, driver callbacks, GC'
      : 'the request: HTTP, authentication, limiter, command, decision, append, answer';

const stepOf = (url: string): string | undefined => {
  const match = /\/src\/(.*)$/.exec(url);
  if (!match) return undefined;
  const file = `src/${match[1]}`;
  const projector = /src\/projections\/([a-z-]+)\.ts$/.exec(file);
  for (const [re, step] of STEPS) if (re.test(file)) return step;
  if (projector) return `projector ${projector[1]}`;
  return file;
};

const moduleOf = (frame: Frame): string => {
  if (frame.functionName === '(garbage collector)') return 'GC';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(program)') return '(program: V8, compiling, native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return pkg[1]!;
  if (frame.url.startsWith('node:') || frame.url === '') return 'Node internals (sockets, streams, timers)';
  const own = /\/(src|bench)\/(.*)$/.exec(frame.url);
  return own ? `${own[1]}/${own[2]}` : frame.url;
};

// eslint-disable-next-line max-lines-per-function -- one pass over the samples into the tables and a tree
export const summarise = (profile: Profile, per: number, top = 15) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const steps = new Map<string, number>();
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  /** Time with a file's code anywhere on the stack. */
  const within = new Map<string, number>();
  const tree: Tree = { name: 'all', value: 0, children: new Map() };
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // a sample's time is the gap to the next one
    const us = profile.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    const mod = moduleOf(leaf.callFrame);
    if (mod === 'idle') {
      idle += us;
      continue;
    }
    total += us;
    modules.set(mod, (modules.get(mod) ?? 0) + us);
    const fn = `${leaf.callFrame.functionName || '(anonymous)'} (${mod}${mod.startsWith('src/') ? `:${leaf.callFrame.lineNumber + 1}` : ''})`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
    const stack: ProfileNode[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!);
    // the database layer passes work through for whoever called it: charged to that caller
    const owner =
      stack.map((n) => (/\/src\/db\//.test(n.callFrame.url) ? undefined : stepOf(n.callFrame.url))).find(Boolean) ??
      stack.map((n) => stepOf(n.callFrame.url)).find(Boolean);
    for (const file of new Set(stack.map((n) => /\/(src\/.*)$/.exec(n.callFrame.url)?.[1]).filter(Boolean)))
      within.set(file!, (within.get(file!) ?? 0) + us);
    const step = owner ?? (mod === 'GC' || mod.startsWith('(program') ? mod : `outside the project's code: ${mod}`);
    steps.set(step, (steps.get(step) ?? 0) + us);
    let at = tree;
    at.value += us;
    for (const n of stack.reverse().slice(1)) {
      const name = `${n.callFrame.functionName || '(anonymous)'} ${moduleOf(n.callFrame)}`;
      let next = at.children.get(name);
      if (!next) at.children.set(name, (next = { name, value: 0, children: new Map() }));
      next.value += us;
      at = next;
    }
  }
  const stages = new Map<string, number>();
  for (const [step, us] of steps) stages.set(stageOf(step), (stages.get(stageOf(step)) ?? 0) + us);
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const rows = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `| ${name} | ${(us / per).toFixed(0)} | ${((100 * us) / total).toFixed(1)} % |`);
  const text = [
    `${per} units in ${seconds.toFixed(1)} s; CPU ${(total / 1000).toFixed(0)} ms (${(total / per).toFixed(0)} µs per unit), idle ${((100 * idle) / (idle + total)).toFixed(0)} %`,
    '',
    '| stage | µs per unit | share |',
    '|---|--:|--:|',
    ...rows(stages, 3),
    '',
    '| step (the innermost project frame on the stack) | µs per unit | share |',
    '|---|--:|--:|',
    ...rows(steps, 40),
    '',
    '| self time by package or file | µs per unit | share |',
    '|---|--:|--:|',
    ...rows(modules, top),
    '',
    '| self time by function | µs per unit | share |',
    '|---|--:|--:|',
    ...rows(functions, top),
    '',
    '| project file anywhere on the stack (inclusive, synchronous part) | µs per unit | share |',
    '|---|--:|--:|',
    ...rows(within, top),
  ].join('\n');
  return { text, tree, total };
};

interface Tree {
  name: string;
  value: number;
  children: Map<string, Tree>;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An icicle graph (roots on top) of the frames above `min` of the whole: a few hundred boxes. */
export const flameGraph = (tree: Tree, title: string, min = 0.005): string => {
  const width = 1200;
  const row = 16;
  const boxes: string[] = [];
  let depth = 0;
  const walk = (node: Tree, x: number, level: number) => {
    const w = (node.value / tree.value) * width;
    depth = Math.max(depth, level);
    const hue = 20 + ((node.name.length * 37) % 40);
    const label = w > 40 ? escape(node.name.slice(0, Math.floor(w / 6.5))) : '';
    boxes.push(
      `<g><title>${escape(node.name)} ${((100 * node.value) / tree.value).toFixed(1)} %</title><rect x="${x.toFixed(1)}" y="${level * row + 24}" width="${w.toFixed(1)}" height="${row - 1}" fill="hsl(${hue},80%,62%)"/>${label ? `<text x="${(x + 3).toFixed(1)}" y="${level * row + 36}">${label}</text>` : ''}</g>`,
    );
    let cx = x;
    for (const child of [...node.children.values()].sort((a, b) => b.value - a.value)) {
      if (child.value / tree.value >= min) walk(child, cx, level + 1);
      cx += (child.value / tree.value) * width;
    }
  };
  walk(tree, 0, 0);
  const height = (depth + 1) * row + 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="11"><text x="4" y="16">${escape(title)}</text>${boxes.join('')}</svg>\n`;
};

const main = () => {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && a.endsWith('.cpuprofile'));
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts PROFILE.cpuprofile [--per N] [--svg OUT.svg] [--top 15]');
    return 2;
  }
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const per = Number(option('--per') ?? /-n(\d+)/.exec(path.basename(file))?.[1] ?? 1);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const { text, tree } = summarise(profile, per, Number(option('--top') ?? 15));
  console.log(text);
  const svg = option('--svg');
  if (svg) writeFileSync(svg, flameGraph(tree, `${path.basename(file)}: CPU of ${per} units, boxes of 0.5 % or more`));
  return 0;
};

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
