import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { clusterFolder } from '../support/cluster-parent.js';

/** Starts `npm start`'s command as a real process and reads the lines it prints. */
const startProcess = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (out += String(c)));
  const line = async (name: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = new RegExp(`^${name}=(.*)$`, 'm').exec(out);
      if (m) return m[1]!;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${name} line; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, line, exited, output: () => out };
};

describe('npm start', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('starts the sandbox on the embedded Postgres, seeds demo data, prints its lines, and stops cleanly', async () => {
    const dir = await clusterFolder('marketplace-serve-');
    dirs.push(dir);
    const port = await freePort();
    const run = startProcess({ PORT: String(port), SVC_DATA_DIR: dir, SVC_TEST_CLOCK: '1' });
    children.push(run.child);

    const baseUrl = await run.line('base_url');
    const operatorToken = await run.line('operator_token');
    const demoToken = await run.line('demo_supplier_token');
    // base_url is the origin (the client's baseUrl, the docs' $BASE); api_root the API's root
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(await run.line('api_root')).toBe(`http://127.0.0.1:${port}/api/v1`);
    expect(await run.line('api_reference')).toBe(`http://127.0.0.1:${port}/api/v1/docs`);
    expect(demoToken).toMatch(/^svc_test_[0-9a-f]{40}$/);
    // the last lines are the ones scripts read
    const lines = run.output().trim().split('\n');
    expect(lines.slice(-3).map((l) => l.split('=')[0])).toEqual(['base_url', 'operator_token', 'demo_supplier_token']);

    const who = await fetch(`${baseUrl}/api/v1/whoami`, { headers: { authorization: `Bearer ${demoToken}` } });
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ supplier: { name: 'Demo Supplier' }, environment: 'sandbox' });

    const products = (await (
      await fetch(`${baseUrl}/api/v1/products`, { headers: { authorization: `Bearer ${demoToken}` } })
    ).json()) as any;
    expect(products.data.map((p: any) => p.type).sort()).toEqual([
      'game_key',
      'game_key',
      'game_key',
      'game_key',
      'topup',
    ]);
    const topup = products.data.find((p: any) => p.type === 'topup');
    expect(topup.form_fields.map((f: any) => f.key)).toEqual(['user_id', 'server']);

    // the API reference's servers name the port this instance really listens on, in the
    // document and in the copy the browsable reference loads
    for (const doc of ['/api/v1/openapi.json', '/api/v1/docs/json']) {
      const servers = ((await (await fetch(`${baseUrl}${doc}`)).json()) as { servers: { url: string }[] }).servers;
      expect([doc, servers.map((s) => s.url)]).toEqual([doc, [baseUrl]]);
    }

    const advanced = await fetch(`${baseUrl}/operator/v1/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 3600 }),
    });
    expect(advanced.status).toBe(200);
    const { now } = (await advanced.json()) as { now: string };
    expect(new Date(now).getTime() - Date.now()).toBeGreaterThan(3590_000);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    // a second start on the same data keeps the data and the tokens, and seeds nothing new
    const again = startProcess({ PORT: String(port), SVC_DATA_DIR: dir });
    children.push(again.child);
    expect(await again.line('operator_token')).toBe(operatorToken);
    expect(await again.line('demo_supplier_token')).toBe(demoToken);
    const base2 = await again.line('base_url');
    const list = (await (
      await fetch(`${base2}/api/v1/products`, { headers: { authorization: `Bearer ${demoToken}` } })
    ).json()) as any;
    expect(list.data).toHaveLength(5);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);
});
