import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * Over a raw socket: a client that announces a body and trickles it in never holds the
 * connection beyond the request timeout, one refused before its body was read (401)
 * loses the connection with the answer, and one without a body is answered once.
 */
interface Trickle {
  /** Everything the server sent. */
  received: () => string;
  /** Resolves with the milliseconds from the first byte sent to the server closing. */
  closed: Promise<number>;
  stop: () => void;
}

const trickle = (port: number, head: string): Trickle => {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const started = Date.now();
  socket.on('data', (d) => (received += d.toString('latin1')));
  socket.on('error', () => {}); // a reset while writing is one way of being closed
  socket.write(head);
  // one byte every 100 ms: always some traffic, never the whole body
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write('x');
  }, 100);
  const closed = new Promise<number>((resolve) => {
    const done = () => (clearInterval(timer), resolve(Date.now() - started));
    socket.on('close', done);
    socket.on('end', done);
  });
  return { received: () => received, closed, stop: () => (clearInterval(timer), socket.destroy()) };
};

const uploadHead = (port: number, path: string, token?: string) =>
  [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Content-Length: 100000',
    ...(token ? [`Authorization: Bearer ${token}`] : []),
    '',
    '{"items":[',
  ].join('\r\n');

describe('slow bodies and early refusals over a real socket', () => {
  let short: TestService;
  let normal: TestService;
  let shortPort: number;
  let normalPort: number;
  let token: string;

  beforeAll(async () => {
    [short, normal] = await Promise.all([
      startTestService({ extraConfig: { requestTimeoutMs: 1500 } }),
      // the default request timeout (a minute): only the early-refusal rule can close fast
      startTestService(),
    ]);
    token = (await short.newSupplier()).token;
    shortPort = Number(new URL(short.origin).port);
    normalPort = Number(new URL(normal.origin).port);
  });
  afterAll(async () => {
    await Promise.all([short.stop(), normal.stop()]);
  });

  it('an authenticated upload trickled in is cut off at the request timeout', async () => {
    const t = trickle(shortPort, uploadHead(shortPort, '/api/v1/offers/OFFER/inventory', token));
    const after = await Promise.race([t.closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    t.stop();
    // closed by the server, after the configured 1.5 s (checked at least every 375 ms), not held open
    expect(after).toBeGreaterThanOrEqual(1400);
    expect(after).toBeLessThan(10_000);
    expect(t.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a request refused with 401 before its body was read loses its connection with the answer', async () => {
    const t = trickle(normalPort, uploadHead(normalPort, '/api/v1/offers/OFFER/inventory'));
    const after = await Promise.race([t.closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    t.stop();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(10_000);
    expect(t.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(t.received().toLowerCase()).toContain('connection: close');
  });

  it('a request answered after its whole body keeps its keep-alive connection', async () => {
    const socket = net.connect(normalPort, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    const body = '{}';
    socket.write(
      `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await expect.poll(() => received.includes('\r\n\r\n')).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received.toLowerCase()).toContain('connection: keep-alive');
    socket.destroy();
  });

  it('a request without a body answered within the call that read its head gets one answer, and keeps its connection', async () => {
    // the console's handler redirects without a session and returns nothing: held a turn
    // for a body it does not have, it was answered a second time (ERR_HTTP_HEADERS_SENT)
    const socket = net.connect(normalPort, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    const get = 'GET /console/offers HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(get + get);
    await expect.poll(() => received.match(/^HTTP\/1\.1 /gm)?.length ?? 0).toBe(2);
    for (const answer of received.split(/(?=^HTTP\/1\.1 )/m)) {
      expect(answer).toMatch(/^HTTP\/1\.1 303 /);
      expect(answer.toLowerCase()).toContain('location: /console/sign-in');
      expect(answer.toLowerCase()).toContain('connection: keep-alive');
    }
    socket.destroy();
  });
});
