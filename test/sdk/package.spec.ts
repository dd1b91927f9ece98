import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { buy, keys, uploadedOffer } from '../orders/fixtures.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const packageDir = path.join(root, 'packages/client');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** What a supplier's plain Node script does with the installed package: no TypeScript anywhere. */
const SCRIPT = `
import { createHmac } from 'node:crypto';
import { createMarketplaceClient, ProblemError, verifySignature } from '@svc-marketplace/client';

const [origin, token, productId] = process.argv.slice(2);
const api = createMarketplaceClient({ baseUrl: origin, token });
const { data: me } = await api.GET('/api/v1/whoami');
const { data: products } = await api.GET('/api/v1/products');
const { data: offer } = await api.POST('/api/v1/offers', {
  body: { product_id: productId, stock_mode: 'uploaded', price: { amount: 1250, currency: 'EUR' }, external_ref: 'PKG-1' },
});
let problem;
try {
  await api.GET('/api/v1/offers/{offer_id}', { params: { path: { offer_id: 'no-such-offer' } } });
} catch (e) {
  problem = e instanceof ProblemError ? { name: e.name, status: e.status, code: e.code, traceId: e.traceId } : String(e);
}
const timestamp = String(Date.now());
const body = '{"id":"evt_1"}';
const signature = 'v1=' + createHmac('sha256', 'whsec_pkg').update(timestamp + '.' + body).digest('hex');
const headers = { 'x-svc-timestamp': timestamp, 'x-svc-signature': signature };
console.log(JSON.stringify({
  supplier: me.supplier.name,
  environment: me.environment,
  products: products.data.map((p) => p.name),
  offer: { status: offer.status, external_ref: offer.external_ref, price: offer.price },
  problem,
  verified: verifySignature(body, headers, ['whsec_pkg']).ok,
  wrongSecret: verifySignature(body, headers, ['whsec_other']),
}));
`;

/**
 * A supplier's plain Node script checking its ledger with the package alone: the public keys
 * from the well-known address, every entry's inclusion proof, and the head it kept earlier
 * against the head now.
 */
const LEDGER_SCRIPT = `
import { createMarketplaceClient, readPublicKeys, verifyConsistency, verifyInclusion } from '@svc-marketplace/client';

const [origin, token, keptJson] = process.argv.slice(2);
const kept = JSON.parse(keptJson);
const api = createMarketplaceClient({ baseUrl: origin, token });
const keys = readPublicKeys(await (await fetch(origin + '/.well-known/svc-ledger-signing-key')).text());
const { data: entries } = await api.GET('/api/v1/balance/entries', { params: { query: { limit: 100 } } });
const inclusion = [];
for (const e of entries.data) {
  const { data } = await api.GET('/api/v1/balance/entries/{entry_id}/proof', { params: { path: { entry_id: e.id } } });
  const checked = verifyInclusion(data, keys);
  inclusion.push(checked.ok ? checked.entry.seq : checked.reason);
}
const { data: now } = await api.GET('/api/v1/balance/proof');
const { data: between } = await api.GET('/api/v1/balance/proof/consistency', {
  params: { query: { from: kept.tree.size, to: now.tree.size } },
});
const consistent = verifyConsistency(kept.checkpoint, now.checkpoint, between.proof, keys);
// the kept head changed afterwards proves nothing
const changed = { ...kept.checkpoint, signed: kept.checkpoint.signed.replace(kept.tree.root_hash, now.tree.root_hash) };
console.log(JSON.stringify({
  keys: keys.map((k) => k.keyId),
  inclusion,
  consistency: consistent.ok ? [consistent.older.tree_size, consistent.newer.tree_size] : consistent.reason,
  changed: verifyConsistency(changed, now.checkpoint, between.proof, keys),
}));
`;

/** A supplier's TypeScript file: the types come from the package's .d.ts; a wrong path must not type-check. */
const TYPED = `
import { createMarketplaceClient, ProblemError, verifySignature, type VerifyResult } from '@svc-marketplace/client';

const api = createMarketplaceClient({ baseUrl: 'http://127.0.0.1:8080', token: 'svc_test_x' });
export const offers = async (): Promise<string[]> => {
  const { data } = await api.GET('/api/v1/offers', { params: { query: { limit: 10 } } });
  return (data?.data ?? []).map((o) => o.id);
};
// @ts-expect-error a path the API does not have
export const nowhere = () => api.GET('/api/v1/no-such-path');
// @ts-expect-error a price is Money, not a number
export const badBody = () => api.POST('/api/v1/offers', { body: { product_id: 'p', stock_mode: 'uploaded', price: 5 } });
export const code = (e: unknown): string | undefined => (e instanceof ProblemError ? e.code : undefined);
export const checked: VerifyResult = verifySignature('{}', {}, ['whsec_x']);
`;

/**
 * The client as a supplier gets it: built with its own tsconfig, packed with npm, installed
 * from the tarball into a project of its own, then used from a plain Node script against a
 * running service, and type-checked from TypeScript with NodeNext resolution.
 */
describe('the @svc-marketplace/client package', () => {
  let svc: TestService;
  let dir: string;

  beforeAll(async () => {
    svc = await startTestService();
    dir = await mkdtemp(path.join(os.tmpdir(), 'client-package-'));
  });
  afterAll(async () => {
    await svc?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('installs from its tarball, works from plain Node and type-checks from TypeScript', async () => {
    // built into a copy of the package folder: the working tree is left as it is
    const staged = path.join(dir, 'package');
    await mkdir(staged);
    for (const file of ['package.json', 'README.md'])
      await copyFile(path.join(packageDir, file), path.join(staged, file));
    await run(process.execPath, [
      tsc,
      '-p',
      path.join(packageDir, 'tsconfig.json'),
      '--outDir',
      path.join(staged, 'dist'),
    ]);
    await run(npm, ['pack', staged, '--pack-destination', dir, '--ignore-scripts', '--silent'], { cwd: dir });
    const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('svc-marketplace-client-0.1.0.tgz');

    const manifest = JSON.parse(await readFile(path.join(staged, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@svc-marketplace/client',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      bin: { 'svc-ledger-witness': './dist/bin/witness.js' },
      dependencies: { 'openapi-fetch': expect.any(String) },
    });
    expect(manifest.private).toBeUndefined();

    const app = path.join(dir, 'app');
    await mkdir(app);
    await writeFile(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'supplier-app', private: true, type: 'module' }),
    );
    // openapi-fetch comes from npm's cache when the repository's install put it there
    await run(
      npm,
      [
        'install',
        path.join(dir, tarball!),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--silent',
      ],
      { cwd: app },
    );
    const installed = JSON.parse(
      await readFile(path.join(app, 'node_modules/@svc-marketplace/client/package.json'), 'utf8'),
    );
    expect(installed.version).toBe('0.1.0');

    const supplier = await svc.newSupplier('Packaged Keys');
    const product = await svc.newProduct({ name: 'Packaged Quest' });
    await writeFile(path.join(app, 'first-call.mjs'), SCRIPT);
    // no loader, no tsx: the node binary and the installed JavaScript only
    const { stdout } = await run(process.execPath, ['first-call.mjs', svc.origin, supplier.token, product.id], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '' },
    });
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      supplier: 'Packaged Keys',
      environment: 'sandbox',
      products: ['Packaged Quest'],
      offer: { status: 'draft', external_ref: 'PKG-1', price: { amount: 1250, currency: 'EUR' } },
      problem: {
        name: 'ProblemError',
        status: 404,
        code: 'not_found',
        traceId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      },
      verified: true,
      wrongSecret: { ok: false, reason: 'signature_mismatch' },
    });
    // the offer is the service's, made through the package
    const offers = (await supplier.api.get('/offers')).body.data;
    expect(offers.map((o: { external_ref: string }) => o.external_ref)).toEqual(['PKG-1']);

    // the ledger's proofs, checked by the package alone with the published public key
    const seller = await svc.newSupplier('Proving Keys');
    const sold = await svc.newProduct({ name: 'Proving Quest' });
    await uploadedOffer(seller, sold.id, { price: 1000, values: keys('PK', 3) });
    await buy(svc, [{ product_id: sold.id, quantity: 1 }]);
    await svc.advance(700);
    const kept = (await seller.api.get('/balance/proof')).body;
    await buy(svc, [{ product_id: sold.id, quantity: 1 }]);
    await svc.advance(700);
    await writeFile(path.join(app, 'ledger.mjs'), LEDGER_SCRIPT);
    const ledger = await run(process.execPath, ['ledger.mjs', svc.origin, seller.token, JSON.stringify(kept)], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(JSON.parse(ledger.stdout)).toEqual({
      keys: [svc.services.ledgerKey.keyId],
      // two sales and their settlements: six balance entries over four ledger entries
      inclusion: [0, 1, 1, 2, 3, 3],
      consistency: [2, 4],
      changed: {
        ok: false,
        reason: 'the older head: the signature does not verify: the head was changed, or the ledger did not sign it',
      },
    });

    // the witness, as the package installs it: plain Node, the public key from the service, its own key made on request
    const bin = path.join(app, 'node_modules/.bin/svc-ledger-witness');
    const witness = (args: string[], token = seller.token) =>
      run(process.execPath, [bin, ...args], {
        cwd: app,
        env: { PATH: process.env.PATH ?? '', SUPPLIER_TOKEN: token },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
    expect((await witness(['--new-key', 'witness.key'])).code).toBe(0);
    // the service's clock is the test's, not this machine's: the cosignatures stay here
    const watch = [
      '--base-url',
      svc.origin,
      '--public-key',
      svc.origin,
      '--witness-key',
      'witness.key',
      '--no-publish',
    ];
    const first = await witness([...watch, '--state', 'seller.json']);
    expect(first).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        /^ACCEPTED supplier \S+: 4 entries, .*the first head this witness keeps; cosigned by \w{16}\n$/,
      ),
    });
    await buy(svc, [{ product_id: sold.id, quantity: 1 }]);
    await svc.advance(700);
    const second = await witness([...watch, '--state', 'seller.json']);
    expect(second).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        /^ACCEPTED supplier \S+: 6 entries, .*, consistent with 4 entries, .*; cosigned by \w{16}\n$/,
      ),
    });
    // another supplier's ledger offered where this one was accepted: refused, both heads named
    const fork = await witness([...watch, '--state', 'seller.json'], supplier.token);
    expect(fork.code).toBe(1);
    expect(fork.stdout.split('\n')).toEqual([
      `FORK: the head offered is supplier ${supplier.id}'s, the one accepted ${seller.id}'s`,
      expect.stringMatching(/^ {2}accepted: 6 entries, root \w{64}, signed at \S+$/),
      expect.stringMatching(/^ {2}offered: 0 entries, root \w{64}, signed at \S+$/),
      '',
    ]);

    await writeFile(path.join(app, 'typed.ts'), TYPED);
    await writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(root, 'node_modules/@types')],
        },
        files: ['typed.ts'],
      }),
    );
    const typecheck = await run(process.execPath, [tsc, '-p', app]).then(
      () => 'ok',
      (e: { stdout: string }) => e.stdout,
    );
    expect(typecheck).toBe('ok');
  }, 240_000);
});
