import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningServer } from '../../src/db/embedded.js';
import { PROCESS_STOPPING } from '../../src/db/pg-client.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { eventually } from '../support/eventually.js';

/**
 * Once an interruption began a process's stop (its embedded server is being stopped), the
 * process opens no database connection: its pools and its short connections fail at once,
 * as "unavailable", without meeting the stopping server; and a failure of its work then
 * does not end it with a code of its own: it ends with the interruption's, its server gone.
 */
describe('a process whose stop began', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens no connection, and ends with its interruption’s code once its server is stopped', async () => {
    dir = await clusterFolder('process-stopping-');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'stopping-process.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += String(c)));
    child.stderr.on('data', (c) => (err += String(c)));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      await eventually('the program ready', () => out.includes('ready\n'), {
        timeoutMs: 90_000,
      });
      child.kill('SIGINT');
      const ended = await exited;
      const refused = { message: PROCESS_STOPPING, unavailable: true };
      expect([ended, out.split('\n').slice(1), err], err).toEqual([
        { code: 130, signal: null },
        [JSON.stringify({ newPool: refused, existingPool: refused, adminClient: refused }), ''],
        '',
      ]);
      expect(await runningServer(path.join(dir, 'pg'))).toBeUndefined();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
