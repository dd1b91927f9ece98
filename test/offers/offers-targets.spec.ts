import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, isPrivateAddress } from '../../src/net/targets.js';
import { startTestService, type TestService } from '../support/harness.js';
import { eur } from './fixtures.js';

describe('where fulfilment calls may go', () => {
  it('private, loopback, link-local, reserved and IPv4-embedding addresses are refused; public ones pass', () => {
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::7f00:1',
      '64:ff9b::a00:1',
      '2001:0:4136:e378::1',
      '2002:7f00:1::1',
      '2001:db8::1',
      'not-an-address',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
    ];
    expect(refused.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isPrivateAddress(a))).toEqual([]);
  });

  it('a host is judged by every address it resolves to', async () => {
    const policy = (addresses: string[]) => ({ allowPrivate: false, resolve: async () => addresses });
    expect(await checkTarget('https://supplier.example/api', policy(['93.184.216.34']))).toMatchObject({ ok: true });
    expect(await checkTarget('https://supplier.example/api', policy(['93.184.216.34', '10.0.0.7']))).toEqual({
      ok: false,
      reason: 'host supplier.example resolves to a private or reserved address (10.0.0.7)',
    });
    expect(await checkTarget('https://supplier.example', policy([]))).toEqual({
      ok: false,
      reason: 'host supplier.example does not resolve',
    });
    const failing = { allowPrivate: false, resolve: async () => Promise.reject(new Error('ENOTFOUND')) };
    expect(await checkTarget('https://nowhere.example', failing)).toEqual({
      ok: false,
      reason: 'host nowhere.example does not resolve',
    });
    // address literals are not resolved, and the forms URLs normalise to are judged too
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[::ffff:10.0.0.1]/',
    ])
      expect([url, (await checkTarget(url, policy(['93.184.216.34']))).ok]).toEqual([url, false]);
    expect(await checkTarget('http://supplier.example', policy(['93.184.216.34']))).toEqual({
      ok: false,
      reason: 'must use https',
    });
  });

  describe('with private targets not allowed (production)', () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startTestService({ extraConfig: { allowPrivateTargets: false } });
    });
    afterAll(() => svc.stop());

    it('refuses a base_url that is not public HTTPS, on create and on PATCH', async () => {
      const { api } = await svc.newSupplier();
      const product = await svc.newProduct();
      const base = { product_id: product.id, stock_mode: 'declared', price: eur(100), external_ref: 'T' };
      for (const [url, message] of [
        ['http://127.0.0.1:8080', 'must use https'],
        ['https://127.0.0.1:8443', 'host 127.0.0.1 resolves to a private or reserved address (127.0.0.1)'],
        ['https://[::1]/', 'host ::1 resolves to a private or reserved address (::1)'],
        [
          'https://169.254.169.254/latest',
          'host 169.254.169.254 resolves to a private or reserved address (169.254.169.254)',
        ],
        [
          'https://localhost/',
          expect.stringMatching(/^host localhost resolves to a private or reserved address \((127\.0\.0\.1|::1)\)$/),
        ],
      ] as const) {
        const res = await api.post('/offers', { ...base, fulfilment: { base_url: url } });
        expect([url, res.status, res.body.errors]).toEqual([
          url,
          422,
          [{ field: 'body.fulfilment.base_url', message }],
        ]);
      }
      expect((await api.get('/offers')).body.data).toEqual([]);

      // a public address literal needs no resolving
      const created = await api.post('/offers', { ...base, fulfilment: { base_url: 'https://93.184.216.34/fulfil' } });
      expect(created.status).toBe(201);
      const moved = await api.patch(`/offers/${created.body.id}`, {
        fulfilment: { base_url: 'https://10.0.0.1/fulfil' },
      });
      expect(moved.status).toBe(422);
      expect(moved.body.errors).toEqual([
        {
          field: 'body.fulfilment.base_url',
          message: 'host 10.0.0.1 resolves to a private or reserved address (10.0.0.1)',
        },
      ]);
      expect((await api.get(`/offers/${created.body.id}`)).body.fulfilment.base_url).toBe(
        'https://93.184.216.34/fulfil',
      );
    });
  });
});
