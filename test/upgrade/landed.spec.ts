import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { serviceArgs } from '../support/service-command.js';
import { LANDED } from './landed.js';

const root = path.resolve(import.meta.dirname, '../..');

interface Instance {
  child: ChildProcess;
  output: () => string;
  line: (name: string) => Promise<string>;
  stop: () => Promise<void>;
}

/** A sandbox as `npm start` runs it, on a given data folder, with the test clock; the lines it prints. */
const start = async (args: string[], cwd: string, dataDir: string): Promise<Instance> => {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const name of ['SVC_ENV', 'SVC_EVENT_STORE', 'DATABASE_URL', 'DATABASE_READ_URL', 'VITEST', 'NODE_OPTIONS'])
    delete env[name];
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      ...env,
      SVC_DATA_DIR: dataDir,
      SVC_TEST_CLOCK: '1',
      SVC_ALLOW_PRIVATE_TARGETS: '1',
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += String(c)));
  child.stderr!.on('data', (c) => (out += String(c)));
  const exited = new Promise<unknown>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return {
    child,
    output: () => out,
    line: async (name) => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const m = new RegExp(`^${name}=(.*)$`, 'm').exec(out);
        if (m) return m[1]!;
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
          throw new Error(`no ${name} line; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      child.kill('SIGTERM');
      expect(await exited, out).toBe(0);
    },
  };
};

/** A client of one instance's API, as a supplier or the operator calls it. */
const client = (origin: string, token: string) => {
  const call = async (method: string, url: string, body?: unknown, key?: string) => {
    const res = await fetch(`${origin}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(key && { 'idempotency-key': key }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown, key?: string) => call('POST', url, body, key),
  };
};

/** What a supplier reads of its business: compared before and after the upgrade. */
const reads = async (api: ReturnType<typeof client>, offerId: string) => {
  const [whoami, offer, orders, balance, entries, inventory, hooks] = await Promise.all([
    api.get('/api/v1/whoami'),
    api.get(`/api/v1/offers/${offerId}`),
    api.get('/api/v1/orders?limit=100'),
    api.get('/api/v1/balance'),
    api.get('/api/v1/balance/entries?limit=100'),
    api.get(`/api/v1/offers/${offerId}/inventory?limit=100`),
    api.get('/api/v1/webhooks'),
  ]);
  for (const r of [whoami, offer, orders, balance, entries, inventory, hooks]) expect(r.status, r.text).toBe(200);
  return {
    whoami: whoami.body,
    offer: offer.body,
    orders: orders.body,
    balance: balance.body,
    entries: entries.body,
    inventory: inventory.body,
    hooks: hooks.body,
  };
};

/**
 * The last landed version's sandbox makes a data folder (a supplier's offer, keys, orders
 * paid, refunded and disputed, a settled sale and a payout, a webhook endpoint); this
 * version starts on it: every read answers what it answered, new fields besides, the
 * ledger audits and verifies clean, and the business goes on.
 */
describe('this version on a data folder the last landed version made', () => {
  let dir: string;
  let oldSources: string;
  let dataDir: string;
  const running: Instance[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-landed-'));
    oldSources = path.join(dir, 'landed');
    await mkdir(oldSources);
    // its sources as they landed, run through tsx on this checkout's packages (the versions
    // since then only added packages)
    const archive = execFileSync(
      'git',
      ['-C', root, 'archive', '--format=tar', LANDED, 'src', 'package.json', 'tsconfig.json'],
      {
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    execFileSync('tar', ['-x', '-C', oldSources], { input: archive });
    await symlink(path.join(root, 'node_modules'), path.join(oldSources, 'node_modules'));
    dataDir = path.join(await clusterFolder('marketplace-landed-data-'), 'data');
  }, 60_000);
  afterAll(async () => {
    for (const i of running) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('answers every read as before, audits and verifies clean, and sells on', async () => {
    // the landed version's sandbox, and a supplier's day on it
    const old = await start(['--import', 'tsx', 'src/cli/main.ts', 'serve'], oldSources, dataDir);
    running.push(old);
    const origin = await old.line('base_url');
    const token = await old.line('demo_supplier_token');
    const operatorToken = await old.line('operator_token');
    let api = client(origin, token);
    const operator = client(origin, operatorToken);
    const products = (await api.get('/api/v1/products?limit=100')).body.data as any[];
    const product = products.find((p) => p.status === 'sellable' && p.type !== 'topup')!;
    const existing = (await api.get(`/api/v1/offers?product_id=${product.id}`)).body.data[0];
    const offer =
      existing ??
      (
        await api.post('/api/v1/offers', {
          product_id: product.id,
          stock_mode: 'uploaded',
          price: { amount: 3000, currency: 'EUR' },
          external_ref: 'LANDED-1',
        })
      ).body;
    const keys = Array.from({ length: 6 }, (_, i) => `LAND-${String(i).padStart(4, '0')}-KEY`);
    const uploaded = await api.post(`/api/v1/offers/${offer.id}/inventory`, {
      items: keys.map((value) => ({ kind: 'text', value })),
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    if (offer.status !== 'active') expect((await api.post(`/api/v1/offers/${offer.id}/activate`)).status).toBe(200);
    for (const scenario of ['paid', 'refunded', 'disputed', 'paid']) {
      const placed = await api.post(
        '/api/v1/sandbox/orders',
        { offer_id: offer.id, quantity: 1, buyer_country: 'DE', scenario },
        `landed-${scenario}-${Math.random()}`,
      );
      expect(placed.status, placed.text).toBe(201);
    }
    // the sales settle after the sandbox's hold, and a payout takes part of them
    expect((await operator.post('/operator/v1/clock/advance', { seconds: 3600 }, 'landed-clock')).status).toBe(200);
    const payout = await api.post('/api/v1/payouts', { amount: { amount: 2000, currency: 'EUR' } }, 'landed-payout');
    expect(payout.status, payout.text).toBe(201);
    const hook = await api.post(
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/webhooks', events: ['order.paid'] },
      'landed-hook',
    );
    expect(hook.status, hook.text).toBe(201);
    const before = await reads(api, offer.id);
    await old.stop();

    // this version on the same folder
    const next = await start(serviceArgs('src/cli/main.ts', ['serve']), root, dataDir);
    running.push(next);
    const nextOrigin = await next.line('base_url');
    api = client(nextOrigin, token);
    const after = await reads(api, offer.id);
    // what was answered is answered again; a field this version adds may be beside it
    expect(after).toMatchObject(before);
    const disputed = (after.orders.data as any[]).filter((o) => o.items.some((i: any) => i.disputed_at));
    expect(disputed).toHaveLength(1);
    // and the business goes on: the same token sells a key of the same offer
    const placed = await api.post(
      '/api/v1/sandbox/orders',
      { offer_id: offer.id, quantity: 1, buyer_country: 'DE' },
      'after-upgrade',
    );
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.status).toBe('completed');
    await next.stop();

    // the ledger, replayed from the events, matches the read models, and its chains hold
    const cli = (args: string[]) =>
      spawn(process.execPath, serviceArgs('src/cli/main.ts', args), {
        cwd: root,
        env: { ...(process.env as Record<string, string>), SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    for (const args of [
      ['ledger', 'audit'],
      ['ledger', 'verify'],
    ]) {
      const child = cli(args);
      let out = '';
      child.stdout!.on('data', (c) => (out += String(c)));
      child.stderr!.on('data', (c) => (out += String(c)));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect({ args, code }, out).toEqual({ args, code: 0 });
    }
  }, 600_000);
});
