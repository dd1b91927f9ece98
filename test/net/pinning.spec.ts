import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { probeHealthcheck } from '../../src/outbound/fulfilment-client.js';
import { callSupplier } from '../../src/outbound/supplier-calls.js';

/**
 * DNS rebinding: a name that answers a public address to the check and a private one to the
 * connection. The connection must use the address that was checked, so the private server
 * below never sees a connection in production mode.
 */
describe('outbound calls connect to the address they checked', () => {
  const clock = new TestClock(new Date('2026-01-05T10:00:00.000Z'));
  let tcp: net.Server;
  let tcpPort: number;
  let connections = 0;
  let web: http.Server;
  let webPort: number;

  beforeAll(async () => {
    // stands in for a private service: counts every connection that reaches it
    tcp = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    tcpPort = (tcp.address() as AddressInfo).port;
    web = http.createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })),
    );
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => tcp.close(r));
    web.closeAllConnections();
    await new Promise((r) => web.close(r));
  });

  /** Answers `first` to the first look-up and `later` to every one after it. */
  const rebinding = (first: string[], later: string[]) => {
    const calls: string[] = [];
    return { calls, resolve: async (host: string) => (calls.push(host), calls.length === 1 ? first : later) };
  };
  const endpoint = (baseUrl: string) => ({ offerId: 'OFFER', baseUrl, secrets: ['s3cret'] });

  it('production: a name answering public then private never reaches the private address (supplier calls and healthchecks)', async () => {
    // "localhost" also resolves to the private server through the system resolver, which is
    // what a second, unpinned look-up would use
    const dns = rebinding(['93.184.216.34'], ['127.0.0.1']);
    const policy = { allowPrivate: false, resolve: dns.resolve };
    const outcome = await callSupplier(endpoint(`https://localhost:${tcpPort}`), 'POST', '/orders', { a: 1 }, 300, {
      clock,
      policy,
    });
    expect(outcome.kind).toBe('failure');
    const probe = await probeHealthcheck(endpoint(`https://localhost:${tcpPort}`), { clock, policy, timeoutMs: 300 });
    expect(probe.ok).toBe(false);
    expect(connections).toBe(0);
    expect(dns.calls.every((h) => h === 'localhost')).toBe(true);
  });

  it('production: a name whose look-up answers a private address is refused as a target, without connecting', async () => {
    const dns = rebinding(['127.0.0.1'], ['127.0.0.1']);
    const outcome = await callSupplier(
      endpoint(`https://supplier.test:${tcpPort}`),
      'GET',
      '/healthcheck',
      undefined,
      300,
      {
        clock,
        policy: { allowPrivate: false, resolve: dns.resolve },
      },
    );
    expect(outcome).toMatchObject({
      kind: 'failure',
      reason: 'target',
      detail: 'host supplier.test resolves to a private or reserved address (127.0.0.1)',
    });
    expect(connections).toBe(0);
  });

  it('private targets allowed: the connection goes to the address the one look-up answered', async () => {
    const dns = rebinding(['127.0.0.1'], ['169.254.169.254']);
    const outcome = await callSupplier(endpoint(`http://supplier.test:${webPort}`), 'GET', '/status', undefined, 2000, {
      clock,
      policy: { allowPrivate: true, resolve: dns.resolve },
    });
    expect(outcome).toMatchObject({ kind: 'answer', status: 200, body: { path: '/status' } });
    expect(dns.calls).toEqual(['supplier.test']);
  });

  it('private targets allowed: a name resolving to link-local is refused', async () => {
    const dns = rebinding(['169.254.169.254'], ['169.254.169.254']);
    const outcome = await callSupplier(endpoint(`http://metadata.test:${webPort}`), 'GET', '/latest', undefined, 2000, {
      clock,
      policy: { allowPrivate: true, resolve: dns.resolve },
    });
    expect(outcome).toMatchObject({
      kind: 'failure',
      reason: 'target',
      detail: 'host metadata.test resolves to a link-local address (169.254.169.254)',
    });
  });
});
