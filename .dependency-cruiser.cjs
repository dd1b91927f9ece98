/**
 * The folder table of docs/architecture.md as rules: every layer imports only the layers
 * below it, the domain imports nothing but itself, and no file is part of an import cycle.
 * `npm run lint:layers` checks src; test/lint/layers.spec.ts checks it too, and shows that
 * a wrong import in a fixture fails.
 */
const layers = [
  // the base: small modules everything may use
  ['base', ['clock\\.ts', 'ids\\.ts', 'faults\\.ts', 'config\\.ts', 'net/', 'crypto/']],
  ['db', ['db/']],
  ['eventstore', ['eventstore/']],
  ['metrics', ['metrics\\.ts']],
  ['projections', ['projections/']],
  ['resources', ['resources/']],
  ['outbound', ['outbound/']],
  ['commands', ['commands/']],
  ['processes', ['processes/']],
  ['http', ['http/']],
  ['composition', ['service\\.ts', 'clock-offset\\.ts', 'store-rewind\\.ts']],
  // the command line and the simulation use everything; nothing uses them
  ['tools', ['cli/', 'sim/']],
];
const paths = (list) => `^src/(${list.join('|')})`;

const below = (i) => ['domain/', 'sdk/', ...layers.slice(0, i + 1).flatMap(([, p]) => p)];

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'a file reaches itself through its imports: one of them points the wrong way',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'the domain imports only the domain (no I/O, no clock, no other layer)',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'sdk-stands-alone',
      comment: "the suppliers' client is shipped on its own: it imports nothing of the service",
      severity: 'error',
      from: { path: '^src/sdk/' },
      to: { path: '^src/', pathNot: '^src/sdk/' },
    },
    ...layers.map(([name, own], i) => ({
      name: `layer-${name}`,
      comment: `${name} imports only the layers below it (docs/architecture.md, Folders)`,
      severity: 'error',
      from: { path: paths(own) },
      to: { path: '^src/', pathNot: paths(below(i)) },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/http/console/assets' },
  },
};
