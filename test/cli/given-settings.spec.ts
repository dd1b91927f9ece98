import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { newOperatorToken } from '../../src/crypto/tokens.js';
import { createTestDatabase } from '../support/database.js';
import { freePort } from '../../src/db/embedded.js';
import { serviceArgs } from '../support/service-command.js';

// what `npm run ha -- service` (and `eval "$(npm run -s ha -- env)"` before `npm start`) gives
const SECRETS = {
  SVC_SECRET_KEY: newSecretKey(),
  SVC_OPERATOR_TOKEN: newOperatorToken(),
  SVC_LEDGER_SIGNING_KEY: newLedgerSigningKey(),
};
const REPAIRED = 'the data folder held no token of the demo supplier';

const children: ChildProcess[] = [];
const dirs: string[] = [];

/** `npm start`'s command as a real process, with every setting given; reads the lines it prints. */
const start = async (databaseUrl: string, dataDir: string, env: Record<string, string> = {}) => {
  const inherited: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const name of ['SVC_ENV', 'SVC_EVENT_STORE', 'SVC_TEST_CLOCK', 'SVC_FAULT_KILL_AT', 'DATABASE_READ_URL'])
    delete inherited[name];
  const child = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['serve']), {
    env: {
      ...inherited,
      ...SECRETS,
      DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (out += String(c)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const line = async (name: string) => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const m = new RegExp(`^${name}=(.*)$`, 'm').exec(out);
      if (m) return m[1]!;
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
        throw new Error(`no ${name} line; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  };
  return { line, exited, stop, output: () => out };
};
type Instance = Awaited<ReturnType<typeof start>>;

/** The demo token an instance printed, with what it answers there. */
const demoOf = async (instance: Instance) => {
  const token = await instance.line('demo_supplier_token');
  const origin = await instance.line('base_url');
  const who = await fetch(`${origin}/api/v1/whoami`, { headers: { authorization: `Bearer ${token}` } });
  return { token, origin, status: who.status, body: (await who.json()) as any };
};

const freshFolder = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-given-'));
  dirs.push(dir);
  // its parent exists, the data folder itself not yet: `npm run ha -- service` on a fresh clone
  return path.join(dir, 'data');
};

const productNames = async (origin: string, token: string) => {
  const answer = await fetch(`${origin}/api/v1/products`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { data: { name: string }[] }).data.map((p) => p.name).sort();
};
const DEMO_PRODUCTS = [
  'Crystal Legends 500 Gems',
  'Harbor Lights',
  'Iron Meridian: Deluxe Edition',
  'Retired Classic',
  'Starfall Odyssey',
];

/** How many events of each type the log holds (the source of truth, not a read model). */
const eventCounts = async (databaseUrl: string, types: string[]) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ type: string; n: number }>(
      'select type, count(*)::int as n from es_events where type = any($1) group by type',
      [types],
    );
    return Object.fromEntries(types.map((t) => [t, rows.find((r) => r.type === t)?.n ?? 0]));
  } finally {
    await client.end();
  }
};

describe('a sandbox started with every setting given, as `npm run ha -- service` starts it', () => {
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL'));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('starts twice on a fresh folder and database, and beside a second instance, with a working demo token each time', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await freshFolder();

    const first = await start(databaseUrl, dataDir);
    const demo = await demoOf(first);
    expect(demo.token).toMatch(/^svc_test_[0-9a-f]{40}$/);
    expect([demo.status, demo.body.supplier.name]).toEqual([200, 'Demo Supplier']);
    expect(await first.line('operator_token')).toBe(SECRETS.SVC_OPERATOR_TOKEN);
    expect(await productNames(demo.origin, demo.token)).toEqual(DEMO_PRODUCTS);
    // the one file the start wrote in the folder it made: none of the secrets given
    expect(await readFile(path.join(dataDir, 'demo-supplier-token'), 'utf8')).toBe(demo.token);
    expect((await stat(path.join(dataDir, 'demo-supplier-token'))).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(dataDir, 'secret-key'))).toBe(false);
    expect(first.output()).not.toContain(REPAIRED);
    await first.stop();

    const again = await start(databaseUrl, dataDir);
    const second = await start(databaseUrl, dataDir); // `npm run ha -- service --port 8081`
    for (const instance of [again, second]) {
      const seen = await demoOf(instance);
      expect([seen.token, seen.status, seen.body.supplier.id]).toEqual([demo.token, 200, demo.body.supplier.id]);
      expect(await productNames(seen.origin, seen.token)).toEqual(DEMO_PRODUCTS);
      expect(instance.output()).not.toContain(REPAIRED);
    }
    await Promise.all([again.stop(), second.stop()]);
    // the demo supplier and the two sandbox rivals, each registered once and given one token
    // (a rival's is revoked once it has stocked its offers: nobody signs in as a rival)
    expect(await eventCounts(databaseUrl, ['SupplierRegistered', 'SupplierTokenIssued'])).toEqual({
      SupplierRegistered: 3,
      SupplierTokenIssued: 3,
    });
  }, 240_000);

  it('gives a demo supplier whose token file is gone a new token, says so, revokes the lost one and keeps the operator’s', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await freshFolder();
    const first = await start(databaseUrl, dataDir);
    const lost = await demoOf(first);
    const supplierId = lost.body.supplier.id as string;
    const issued = await fetch(`${lost.origin}/operator/v1/suppliers/${supplierId}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRETS.SVC_OPERATOR_TOKEN}`, 'idempotency-key': 'operator-token-1' },
    });
    expect(issued.status).toBe(201);
    const operators = ((await issued.json()) as { token: string }).token;
    await first.stop();

    await rm(path.join(dataDir, 'demo-supplier-token'));
    const repaired = await start(databaseUrl, dataDir);
    const fresh = await demoOf(repaired);
    expect(fresh.token).toMatch(/^svc_test_[0-9a-f]{40}$/);
    expect(fresh.token).not.toBe(lost.token);
    expect([fresh.status, fresh.body.supplier.id]).toEqual([200, supplierId]);
    expect(await readFile(path.join(dataDir, 'demo-supplier-token'), 'utf8')).toBe(fresh.token);
    const said = repaired
      .output()
      .split('\n')
      .filter((l) => l.includes(REPAIRED))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(said).toEqual([
      expect.objectContaining({ level: 40, supplierId, tokenId: fresh.body.token_id, revokedTokens: 1 }),
    ]);
    // the line comes before the token it speaks of, and names no token
    expect(repaired.output().indexOf(REPAIRED)).toBeLessThan(repaired.output().indexOf('demo_supplier_token='));
    expect(said[0]).not.toHaveProperty('token');
    const whoami = (token: string) =>
      fetch(`${fresh.origin}/api/v1/whoami`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect([await whoami(lost.token), await whoami(operators)]).toEqual([401, 200]);
    expect(await productNames(fresh.origin, fresh.token)).toEqual(DEMO_PRODUCTS);
    await repaired.stop();

    // repaired once: the next start finds the token kept
    const next = await start(databaseUrl, dataDir);
    expect((await demoOf(next)).token).toBe(fresh.token);
    expect(next.output()).not.toContain(REPAIRED);
    await next.stop();
  }, 240_000);

  it('finishes a first start killed between registering the demo supplier and keeping its token', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await freshFolder();
    const killed = await start(databaseUrl, dataDir, { SVC_FAULT_KILL_AT: 'before-demo-token-kept' });
    expect(await killed.exited).toBe('SIGKILL');
    expect(killed.output()).not.toContain('demo_supplier_token=');
    expect(existsSync(path.join(dataDir, 'demo-supplier-token'))).toBe(false);

    const next = await start(databaseUrl, dataDir);
    const demo = await demoOf(next);
    expect([demo.status, demo.body.supplier.name]).toEqual([200, 'Demo Supplier']);
    expect(next.output()).toContain(REPAIRED);
    // the products the killed start never made, made once; one demo supplier (beside the two
    // sandbox rivals), its unseen token revoked
    expect(await productNames(demo.origin, demo.token)).toEqual(DEMO_PRODUCTS);
    expect(
      await eventCounts(databaseUrl, [
        'SupplierRegistered',
        'SupplierTokenIssued',
        'SupplierTokenRevoked',
        'ProductCreated',
      ]),
    ).toEqual({ SupplierRegistered: 3, SupplierTokenIssued: 4, SupplierTokenRevoked: 3, ProductCreated: 5 });
    await next.stop();
  }, 240_000);
});
