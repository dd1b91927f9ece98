import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { serviceArgs } from '../support/service-command.js';

/** Runs `npm start`'s command as a real process until it exits; returns its code and output. */
const run = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['serve']), {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += String(c)));
    child.stderr.on('data', (c) => (output += String(c)));
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    });
  });

describe('npm start on KurrentDB without a server', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it.each(['sandbox', 'production'])(
    'refuses the %s start, naming the address it tried, before starting any database',
    async (svcEnv) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-kurrentdb-'));
      dirs.push(dir);
      const dataDir = path.join(dir, 'data');
      // a loopback port nothing listens on: the same refusal as esdb://localhost:2113 here
      const port = await freePort();
      const url = `esdb://admin:changeit@localhost:${port}?tls=false`;
      const { code, output } = await run({
        SVC_ENV: svcEnv,
        SVC_SECRET_KEY: 'ab'.repeat(32),
        SVC_LEDGER_SIGNING_KEY: 'cd'.repeat(32),
        SVC_EVENT_STORE: 'kurrentdb',
        SVC_KURRENTDB_URL: url,
        SVC_DATA_DIR: dataDir,
        PORT: String(await freePort()),
      });
      expect(code).toBe(1);
      const line = output.split('\n').find((l) => l.startsWith('refusing to start:'));
      expect(line).toMatch(
        new RegExp(
          `^refusing to start: KurrentDB at esdb://localhost:${port}\\?tls=false cannot be reached \\(.+\\); check SVC_KURRENTDB_URL and that the node is up$`,
        ),
      );
      expect(output).not.toContain('changeit');
      expect(output).not.toMatch(/base_url=|operator_token=/);
      // refused before the embedded Postgres was started: its data directory was never made
      expect(existsSync(dataDir)).toBe(false);
    },
    120_000,
  );

  it('refuses a setting that is not a KurrentDB connection string', async () => {
    const { code, output } = await run({ SVC_EVENT_STORE: 'kurrentdb', SVC_KURRENTDB_URL: 'http://localhost:2113' });
    expect(code).toBe(1);
    expect(output).toContain('SVC_KURRENTDB_URL: must be a KurrentDB connection string');
  }, 120_000);
});
