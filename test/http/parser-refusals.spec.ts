import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * What Node's HTTP parser refuses before any route runs is answered as every other
 * refusal: a problem+json with its code and a trace id, and the connection closed.
 */
describe('requests the HTTP parser refuses, over a raw socket', () => {
  let svc: TestService;
  let port: number;
  beforeAll(async () => {
    svc = await startTestService();
    port = Number(new URL(svc.origin).port);
  });
  afterAll(() => svc.stop());

  /** Sends `head` as is and answers everything the server sent before it closed. */
  const raw = (head: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('error', () => {}); // a reset after the answer is one way of being closed
      socket.on('close', () => resolve(received));
      socket.write(head);
    });

  const answerOf = (text: string) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const [statusLine, ...headers] = head.split('\r\n');
    const header = (name: string) =>
      headers
        .find((h) => h.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    return { statusLine, contentType: header('content-type'), body: JSON.parse(body) };
  };

  it.each([
    [
      'headers past 16 KB',
      `GET /api/v1/products?cursor=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'an Idempotency-Key past 16 KB',
      `POST /api/v1/offers HTTP/1.1\r\nHost: a\r\nIdempotency-Key: ${'k'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'a Content-Length that is not a number',
      'POST /api/v1/offers HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'a control character in a header',
      'GET /api/v1/products HTTP/1.1\r\nHost: a\r\nX-Odd: a\u0001b\r\n\r\n',
      400,
      'bad_request',
    ],
  ])('%s: %i %s as problem+json', async (_what, head, status, code) => {
    const answer = answerOf(await raw(head));
    expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.contentType).toBe('application/problem+json');
    expect(answer.body).toEqual({
      type: `/api/v1/errors#${code}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      code,
      trace_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
    });
  });

  it("a malformed cookie of another of the host's apps: the console answers as without it", async () => {
    for (const cookie of ['other=%', 'other=%E0%A4%A']) {
      const signIn = await fetch(`${svc.origin}/console/sign-in`, { headers: { cookie } });
      expect([cookie, signIn.status]).toEqual([cookie, 200]);
      const offers = await fetch(`${svc.origin}/console/offers`, { headers: { cookie }, redirect: 'manual' });
      expect([cookie, offers.status, offers.headers.get('location')]).toEqual([cookie, 303, '/console/sign-in']);
    }
  });

  it('the service answers the next request as ever', async () => {
    const res = await fetch(`${svc.origin}/healthz`);
    expect(res.status).toBe(200);
  });
});
