import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyCommand } from '../../src/cli/certify.js';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { MB, memoryOf, startHugeAnswers } from '../net/huge-answers.js';
import { serviceArgs } from '../support/service-command.js';

/**
 * `npm run cli -- certify` as a supplier runs it, a process of its own: the service's
 * target rules (SVC_ALLOW_PRIVATE_TARGETS for loopback and private addresses) and its
 * answer limits hold there too.
 */

/** Runs the CLI; answers its exit code, its output and its resident memory's peak. */
const certify = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string; peak: number }>((resolve) => {
    const clean = { ...(process.env as Record<string, string>) };
    for (const name of ['SVC_ALLOW_PRIVATE_TARGETS', 'SVC_ENV', 'CERTIFY_SECRET']) delete clean[name];
    const child = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['certify', ...args]), {
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let peak = 0;
    child.stdout.on('data', (c) => (output += String(c)));
    child.stderr.on('data', (c) => (output += String(c)));
    // the peak (VmHWM) is the kernel's: sampled often, its last reading is the process's peak
    const sampler = setInterval(() => {
      try {
        const now = memoryOf(child.pid!).peak;
        if (Number.isFinite(now)) peak = Math.max(peak, now); // an exited process has no memory lines
      } catch {
        // exited between two samples
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ code, output, peak });
    });
  });

const SECRET = 'svcsec_0123456789abcdef0123456789abcdef';

describe('certify CLI', () => {
  let kit: SupplierKit;
  beforeAll(async () => {
    kit = await startSupplierKit({
      secrets: [SECRET],
      stock: { '*': Array.from({ length: 10 }, (_, i) => `CLI-KEY-${i + 1}`) },
    });
  });
  afterAll(() => kit.close());

  it('refuses a loopback target without SVC_ALLOW_PRIVATE_TARGETS (exit 2, the reason), sending nothing', async () => {
    const port = new URL(kit.url).port;
    const before = kit.received.length;
    const https = await certify(['--base-url', `https://127.0.0.1:${port}`, '--secret', SECRET], {});
    expect(https.code).toBe(2);
    expect(https.output).toContain(
      '--base-url refused: host 127.0.0.1 resolves to a private or reserved address (127.0.0.1) (SVC_ALLOW_PRIVATE_TARGETS=1 allows http, loopback and private addresses while testing)',
    );
    // the same rules in-process (a process per case is slow): a name that resolves to loopback, plain http
    const lines: string[] = [];
    const run = (base: string, env: Record<string, string> = {}) =>
      certifyCommand(['--base-url', base, '--secret', SECRET], (l) => lines.push(l), env);
    expect(await run(`https://localhost:${port}`)).toBe(2);
    expect(lines.join('\n')).toMatch(/--base-url refused: host localhost resolves to a private or reserved address/);
    expect(await run(kit.url)).toBe(2);
    expect(lines.join('\n')).toContain('--base-url refused: must use https');
    // the setting is the service's, refused in production as the service refuses it
    expect(await run(kit.url, { SVC_ENV: 'production', SVC_ALLOW_PRIVATE_TARGETS: '1' })).toBe(2);
    expect(lines.join('\n')).toContain('SVC_ALLOW_PRIVATE_TARGETS: private targets are never allowed in production');
    expect(kit.received.length).toBe(before);
  }, 240_000);

  it('with SVC_ALLOW_PRIVATE_TARGETS=1, certifies the loopback server (exit 0)', async () => {
    const run = await certify(['--base-url', kit.url, '--secret', SECRET], { SVC_ALLOW_PRIVATE_TARGETS: '1' });
    expect(run.output).toMatch(/^PASSED: 12 passed, 0 failed, 0 skipped \(declared, http/m);
    expect(run.code).toBe(0);
  }, 240_000);

  it('against a server answering 300 MB, fails each call too_large and its memory stays bounded', async () => {
    const huge = await startHugeAnswers(300 * MB);
    try {
      const run = await certify(['--base-url', huge.url, '--secret', SECRET], { SVC_ALLOW_PRIVATE_TARGETS: '1' });
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/^FAIL healthcheck: .*\n.*too_large \(answer larger than 65536 bytes\)/m);
      expect(run.output).toMatch(/^FAILED: 0 passed, 4 failed, 7 skipped/m);
      await Promise.all(huge.answers.map((a) => a.closed));
      expect(huge.answers.map((a) => a.closedEarly)).toEqual([true, true, true, true]);
      for (const a of huge.answers) expect(a.written).toBeLessThan(32 * MB);
      // the CLI with its TypeScript loader peaks at about 170 MB here; reading these answers took gigabytes
      expect(run.peak).toBeGreaterThan(0);
      expect(run.peak).toBeLessThan(300 * MB);
    } finally {
      await huge.close();
    }
  }, 240_000);
});
