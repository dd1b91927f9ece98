import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyCommand } from '../../src/cli/certify.js';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { startTestService, type TestService } from '../support/harness.js';

/** Production: a declared offer goes live only with a passing certification of its base_url within 30 days. */

const DAY = 24 * 3600;
const keys = (n: number) => Array.from({ length: n }, (_, i) => `GATE-KEY-${i + 1}`);

describe('the production activation gate', () => {
  let svc: TestService;
  const kits: SupplierKit[] = [];
  beforeAll(async () => {
    svc = await startTestService({ env: 'production', limits: { test: 1000, writes: 1000, per_supplier: 10_000 } });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all(kits.map((k) => k.close()));
  });

  const kit = async () => {
    const k = await startSupplierKit({
      secrets: ['svcsec_00000000000000000000000000000000'],
      stock: { '*': keys(20) },
      now: () => svc.clock.now().getTime(),
    });
    kits.push(k);
    return k;
  };

  const draft = async () => {
    const k = await kit();
    const supplier = await svc.newSupplier('Live Declared');
    const product = await svc.newProduct();
    const created = await supplier.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'declared',
      price: { amount: 1500, currency: 'EUR' },
      external_ref: 'LIVE-1',
      fulfilment: { base_url: k.url },
      declared_stock: 5,
    });
    expect(created.status, created.text).toBe(201);
    k.setSecrets([created.body.fulfilment.secret]);
    return { k, api: supplier.api, offerId: created.body.id as string };
  };

  it('refuses to activate an uncertified declared offer: 409 certification_required, nothing changes, the supplier is not called', async () => {
    const { k, api, offerId } = await draft();
    const res = await api.post(`/offers/${offerId}/activate`);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 409, code: 'certification_required', base_url: k.url, kind: 'declared' });
    expect(res.body.detail).toContain(`/offers/${offerId}/certification`);
    expect((await api.get(`/offers/${offerId}`)).body.status).toBe('draft');
    expect(k.received).toEqual([]);
  });

  it('a failing certification does not open the gate; a passing one does, for 30 days', async () => {
    const { k, api, offerId } = await draft();
    k.faults.set('GET /orders/:id/items', { kind: 'wrong_count', delta: 1 });
    const failed = await api.post(`/offers/${offerId}/certification`);
    expect(failed.status).toBe(200);
    expect(failed.body.passed).toBe(false);
    expect((await api.post(`/offers/${offerId}/activate`)).body.code).toBe('certification_required');

    k.faults.clear();
    const passed = await api.post(`/offers/${offerId}/certification`);
    expect(passed.body.passed).toBe(true);
    const activated = await api.post(`/offers/${offerId}/activate`);
    expect(activated.status, activated.text).toBe(200);
    expect(activated.body.status).toBe('active');

    // 30 days later the same certification still counts; one second past, it does not
    expect((await api.post(`/offers/${offerId}/deactivate`)).status).toBe(200);
    svc.clock.advance(30 * DAY - 60 - (svc.clock.now().getTime() - Date.parse(passed.body.finished_at)) / 1000);
    expect((await api.post(`/offers/${offerId}/activate`)).status).toBe(200);
    expect((await api.post(`/offers/${offerId}/deactivate`)).status).toBe(200);
    svc.clock.advance(61);
    const stale = await api.post(`/offers/${offerId}/activate`);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('certification_required');
  });

  it('a certification counts for its base URL only: a new base_url needs its own', async () => {
    const { api, offerId } = await draft();
    expect((await api.post(`/offers/${offerId}/certification`)).body.passed).toBe(true);
    const other = await kit();
    const moved = await api.patch(`/offers/${offerId}`, { fulfilment: { base_url: other.url } });
    expect(moved.status, moved.text).toBe(200);
    expect((await api.post(`/offers/${offerId}/activate`)).body.code).toBe('certification_required');
    expect(other.received).toEqual([]);
  });

  it('uploaded offers activate without any certification', async () => {
    const supplier = await svc.newSupplier('Live Uploaded');
    const product = await svc.newProduct();
    const created = await supplier.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 900, currency: 'EUR' },
      external_ref: 'UP-1',
    });
    const res = await supplier.api.post(`/offers/${created.body.id}/activate`);
    expect(res.status, res.text).toBe(200);
  });
});

describe('npm run cli -- certify', () => {
  let k: SupplierKit;
  const secret = 'svcsec_0123456789abcdef0123456789abcdef';
  /** The kit listens on loopback: allowed, as for the service, by this setting only. */
  const local = { SVC_ALLOW_PRIVATE_TARGETS: '1' };
  beforeAll(async () => {
    k = await startSupplierKit({ secrets: [secret], stock: { '*': keys(10) } });
  });
  afterAll(() => k.close());

  it('passes the reference kit (exit 0) and prints one line per check, never the secret', async () => {
    const lines: string[] = [];
    const code = await certifyCommand(['--base-url', k.url, '--secret', secret], (l) => lines.push(l), local);
    const text = lines.join('\n');
    expect(text).toMatch(/^PASSED: 12 passed, 0 failed, 0 skipped \(declared, http/m);
    expect(text).toMatch(/^PASS reservation_expired:/m);
    expect(text).not.toContain(secret);
    expect(code).toBe(0);
  });

  it('fails (exit 1) with the wrong secret, top-up kind against the kit with --json', async () => {
    const lines: string[] = [];
    expect(
      await certifyCommand(
        ['--base-url', k.url, '--secret', 'svcsec_ffffffffffffffffffffffffffffffff'],
        (l) => lines.push(l),
        local,
      ),
    ).toBe(1);
    expect(lines.join('\n')).toMatch(/^FAIL reservation:/m);
    const json: string[] = [];
    expect(
      await certifyCommand(['--base-url', k.url, '--kind', 'topup', '--json'], (l) => json.push(l), {
        ...local,
        CERTIFY_SECRET: secret,
      }),
    ).toBe(0);
    expect(JSON.parse(json.join('\n'))).toMatchObject({ kind: 'topup', passed: true });
  });

  it('bad arguments exit 2 with the usage', async () => {
    const lines: string[] = [];
    expect(await certifyCommand(['--kind', 'other'], (l) => lines.push(l), {})).toBe(2);
    expect(lines.join('\n')).toContain('--base-url is required');
    expect(lines.join('\n')).toContain('--secret (or CERTIFY_SECRET) is required');
    expect(lines.join('\n')).toContain('--kind is declared or topup');
  });
});
