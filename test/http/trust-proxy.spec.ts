import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * Behind the proxy the deployment puts in front (SVC_TRUST_PROXY), the per-IP limit of
 * requests without a token counts each client the proxy forwards, not the proxy; without
 * it, a forwarded address is not believed.
 */
describe('the client address behind a trusted proxy', () => {
  let behind: TestService;
  let direct: TestService;
  beforeAll(async () => {
    [behind, direct] = await Promise.all([
      startTestService({ limits: { unauthenticated: 3 }, extraConfig: { trustProxy: 'loopback' } }),
      startTestService({ limits: { unauthenticated: 3 } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([behind.stop(), direct.stop()]);
  });

  const statuses = async (svc: TestService, forwardedFor: string[]) => {
    const out: number[] = [];
    for (const address of forwardedFor) {
      const res = await fetch(`${svc.baseUrl}/errors`, { headers: { 'x-forwarded-for': address } });
      out.push(res.status);
    }
    return out;
  };

  it('counts each forwarded client on its own when the proxy is trusted', async () => {
    expect(await statuses(behind, ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'])).toEqual(
      [200, 200, 200, 200, 200],
    );
    expect(await statuses(behind, Array(4).fill('198.51.100.7'))).toEqual([200, 200, 200, 429]);
  });

  it('does not believe a forwarded address from a peer it does not trust', async () => {
    expect(await statuses(direct, ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'])).toEqual([
      200, 200, 200, 429,
    ]);
  });

  it('reads SVC_TRUST_PROXY as addresses, ranges or names, and refuses anything else', () => {
    expect(loadConfig({ SVC_TRUST_PROXY: 'uniquelocal' }).trustProxy).toBe('uniquelocal');
    expect(loadConfig({ SVC_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(() => loadConfig({ SVC_TRUST_PROXY: 'everyone;drop' })).toThrow(/SVC_TRUST_PROXY/);
  });
});
