import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { serviceArgs } from '../support/service-command.js';
import { type Block, blocksOf, readBlocks } from './blocks.js';
import { holdMachineLock } from './machine-lock.js';
import { runDocument, SnippetFailed } from './terminal.js';

const root = path.resolve(import.meta.dirname, '../..');

/** README.md first (the documents after it take its terminal's setup as given), then docs/*.md. */
const documents = async () => [
  'README.md',
  ...(await readdir(path.join(root, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/**
 * A clone as the README's reader has it, without copying the sources: the files npm and the
 * commands read, the sources and the installed packages linked. What the documents make
 * (start.log, the packed client, ../my-supplier) lands in this folder and beside it.
 */
const makeClone = async (dir: string) => {
  const clone = path.join(dir, 'marketplace');
  await mkdir(path.join(clone, 'packages/client'), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json']) await copyFile(path.join(root, file), path.join(clone, file));
  for (const file of ['package.json', 'tsconfig.json', 'README.md'])
    await copyFile(path.join(root, 'packages/client', file), path.join(clone, 'packages/client', file));
  for (const linked of ['src', 'node_modules']) await symlink(path.join(root, linked), path.join(clone, linked));
  return clone;
};

/** The environment of the documents' terminals: this machine's, without what the test run's own npm set. */
const terminalEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|VITEST|NODE_OPTIONS$)/.test(k))),
  // the packages come from npm's cache when the project's install put them there
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
});

/**
 * The docs check: every fenced block of README.md and docs/*.md runs as written, twice in a
 * row, on one fresh sandbox, in the order a reader meets them (test/docs/blocks.ts says how a
 * block that cannot run here is marked, and refuses one that is neither). The sandbox is
 * the quick start's `npm start` (the compiled service, on a fresh data folder and a port of
 * its own, private targets allowed as docs/webhooks.md starts it), its lines in start.log.
 */
describe('the documents run as written, twice', () => {
  let dir: string;
  let clone: string;
  let service: ChildProcess | undefined;
  let data: string;
  let logged = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'docs-check-'));
    clone = await makeClone(dir);
    data = await clusterFolder('docs-check-data-');
    const port = await freePort();
    service = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['serve']), {
      cwd: clone,
      env: {
        ...terminalEnv(),
        PORT: String(port),
        SVC_DATA_DIR: data,
        SVC_ALLOW_PRIVATE_TARGETS: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(path.join(clone, 'start.log'));
    let printed = '';
    service.stdout!.on('data', (c) => ((printed += String(c)), log.write(c)));
    // what it logs past its start (warnings and errors), told with a failing block
    service.stderr!.on('data', (c) => ((printed += String(c)), (logged += String(c))));
    const deadline = Date.now() + 120_000;
    while (!/^demo_supplier_token=/m.test(printed)) {
      if (service.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox did not start:\n${printed}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // the documents place sandbox orders and test-fires (6 a minute each): two runs back to
    // back are a pace no reader keeps, so the operator gives the demo supplier room for it
    const line = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(printed)![1]!;
    const base = line('base_url');
    const me: any = await (
      await fetch(`${base}/api/v1/whoami`, { headers: { authorization: `Bearer ${line('demo_supplier_token')}` } })
    ).json();
    const raised = await fetch(`${base}/operator/v1/suppliers/${me.supplier.id}/rate-limits`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${line('operator_token')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ test: 60, bulk: 60 }),
    });
    expect(raised.status, await raised.text()).toBe(200);
  }, 180_000);

  afterAll(async () => {
    if (service && service.exitCode === null) {
      const stopped = new Promise((r) => service!.once('exit', r));
      service.kill('SIGTERM');
      await stopped;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    if (data) await rm(data, { recursive: true, force: true });
  }, 60_000);

  it('every block either runs or is marked with why it does not', async () => {
    const refused = (await documents())
      .flatMap((doc) => readBlocks(root, doc))
      .flatMap((b) =>
        b.handling.kind === 'refused' ? [`${b.doc} block ${b.index} (line ${b.line}): ${b.handling.why}`] : [],
      );
    expect(refused).toEqual([]);
  });

  it('every document runs, twice in a row, on one sandbox', async () => {
    const docs = await documents();
    const release = await holdMachineLock('marketplace-docs-check');
    try {
      for (const run of [1, 2])
        for (const doc of docs) {
          const blocks = readBlocks(root, doc);
          if (blocks.every((b) => b.handling.kind === 'skip')) continue;
          const scratch = path.join(dir, 'blocks');
          await mkdir(scratch, { recursive: true });
          await runDocument(blocks, {
            cwd: clone,
            env: terminalEnv(),
            scratch,
            run,
            context: () => (logged ? `\n--- the sandbox's log ---\n${logged.slice(-4000)}` : ''),
          });
        }
    } finally {
      await release();
    }
    // the TypeScript example type-checked with the README's tsconfig, and ran
    expect(await readFile(path.join(dir, 'my-supplier/first-call.js'), 'utf8')).toContain('createMarketplaceClient');
    // another run's documents may hold the ports first: its turn is as long as this one's
  }, 1_200_000);
});

describe('the docs check itself', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'docs-check-self-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const run = async (markdown: string, runs = [1, 2]) => {
    const blocks: Block[] = blocksOf('docs/example.md', markdown);
    for (const n of runs) await runDocument(blocks, { cwd: dir, env: terminalEnv(), scratch: dir, run: n });
  };
  const failure = (markdown: string) =>
    run(markdown).then(
      () => 'passed',
      (e: unknown) => (e instanceof SnippetFailed ? e.message.split('\n')[0] : String(e)),
    );

  it("takes turns at the documents' ports: a second holder of the lock waits until the first lets go", async () => {
    const name = `marketplace-docs-check-self-${process.pid}`;
    const releaseFirst = await holdMachineLock(name);
    let second: (() => Promise<void>) | undefined;
    const waiting = holdMachineLock(name).then((release) => (second = release));
    await new Promise((r) => setTimeout(r, 300));
    expect(second).toBeUndefined();
    await releaseFirst();
    await waiting;
    expect(second).toBeTypeOf('function');
    await second!();
    await rm(path.join(os.tmpdir(), `${name}.lock`), { force: true });
  });

  it('fails a snippet on its second run, naming the document, the block and the run', async () => {
    expect(await failure('Make a folder:\n\n```sh\necho ready\n```\n\n```sh\nmkdir made-once\n```\n')).toBe(
      'docs/example.md block 2 (line 7), run 2: the terminal stopped with exit code 1',
    );
  });

  it('fails an id that came back undefined, an HTTP error of curl, an uncaught error and an unmarked block', async () => {
    expect(await failure('```sh\nOFFER=$(node -p "({}).id")\n```\n')).toBe(
      'docs/example.md block 1 (line 1), run 1: OFFER holds undefined or null: an id the snippet read was not there',
    );
    const server = http.createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/offers/none`;
    expect(await failure(`\`\`\`sh\ncurl -s "${url}"\n\`\`\`\n`)).toBe(
      'docs/example.md block 1 (line 1), run 1: the terminal stopped with exit code 22',
    );
    server.close();
    expect(
      await failure(
        '<!-- docs-check: file boom.mjs -->\n```js\nthrow new Error("boom")\n```\n\n```sh\nnode boom.mjs\n```\n',
      ),
    ).toBe('docs/example.md block 2 (line 6), run 1: the terminal stopped with exit code 1');
    expect(await failure('```js\nconsole.log(1)\n```\n')).toBe(
      'docs/example.md block 1 (line 1), run 1: refused: a js block with no docs-check marker: a shell block runs, any other needs "file NAME" or "skip (reason)"',
    );
  });

  it('shares variables and the folder from block to block, and stops what runs in the background', async () => {
    const markdown = [
      '```sh',
      'mkdir -p inner && cd inner && GREETING=hello',
      '```',
      '<!-- docs-check: background until "serving" -->',
      '```sh',
      'echo serving; sleep 300',
      '```',
      '```sh',
      'echo "$GREETING from $(basename "$PWD")" > said.txt',
      '```',
      '<!-- docs-check: skip (needs Docker) -->',
      '```sh',
      'docker compose up',
      '```',
    ].join('\n');
    await run(markdown, [1]);
    expect(await readFile(path.join(dir, 'inner/said.txt'), 'utf8')).toBe('hello from inner\n');
  });
});
