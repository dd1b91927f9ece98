import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLarge, callFailure, callFailureText, outboundCall, timedOut } from '../../src/net/outbound-call.js';

describe('outboundCall', () => {
  const policy = { allowPrivate: true };
  let server: http.Server;
  let base: string;
  let connections = 0;
  const drips: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/silent') return; // never answers
      if (req.url === '/drip') {
        // headers at once, then a byte every 50 ms for ever: each chunk well within the window
        res.writeHead(200);
        drips.push(setInterval(() => res.write('.'), 50));
        return;
      }
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/large') return void res.writeHead(201).end('x'.repeat(100_000));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, signature: req.headers['x-sig'], body }));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const d of drips) clearInterval(d);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('answers the status and the whole body of the answer, with the request as sent', async () => {
    const answer = await outboundCall(policy, `${base}/echo?x=1`, {
      method: 'POST',
      headers: { 'x-sig': 'v1=abc', 'content-type': 'application/json' },
      body: '{"a":1}',
      timeoutMs: 2000,
      maxAnswerBytes: 1024,
    });
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ method: 'POST', signature: 'v1=abc', body: '{"a":1}' });
  });

  it('reads a body of exactly maxAnswerBytes whole, to its end: the connection is reused', async () => {
    const before = connections;
    for (let i = 0; i < 2; i++) {
      const answer = await outboundCall(policy, `${base}/large`, {
        method: 'GET',
        headers: {},
        timeoutMs: 2000,
        maxAnswerBytes: 100_000,
      });
      expect(answer.statusCode).toBe(201);
      expect(answer.body.toString()).toBe('x'.repeat(100_000));
    }
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it('fails a body one byte past maxAnswerBytes with AnswerTooLarge, and reads no further', async () => {
    const error = await outboundCall(policy, `${base}/large`, {
      method: 'GET',
      headers: {},
      timeoutMs: 2000,
      maxAnswerBytes: 99_999,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerTooLarge);
    expect(callFailure(error, 2000)).toEqual({ reason: 'too_large', detail: 'answer larger than 99999 bytes' });
    expect(callFailureText(error, 2000)).toBe('answer larger than 99999 bytes');
  });

  it("with overLimit 'cut', answers the first maxAnswerBytes of a longer body", async () => {
    const cut = await outboundCall(policy, `${base}/large`, {
      method: 'GET',
      headers: {},
      timeoutMs: 2000,
      maxAnswerBytes: 4096,
      overLimit: 'cut',
    });
    expect(cut.statusCode).toBe(201);
    expect(cut.body.toString()).toBe('x'.repeat(4096));
  });

  it('fails with a timeout once the window passes when no answer comes', async () => {
    const started = performance.now();
    const error = await outboundCall(policy, `${base}/silent`, {
      method: 'GET',
      headers: {},
      timeoutMs: 300,
      maxAnswerBytes: 1024,
    }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(timedOut(error)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(299);
    expect(elapsed).toBeLessThan(2000);
  });

  it('bounds the whole call, not only the wait between chunks: a body that drips for ever times out', async () => {
    const started = performance.now();
    const error = await outboundCall(policy, `${base}/drip`, {
      method: 'GET',
      headers: {},
      timeoutMs: 300,
      maxAnswerBytes: 1024,
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
  });

  it('fails without a timeout when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const error = await outboundCall(policy, `http://127.0.0.1:${port}/`, {
      method: 'GET',
      headers: {},
      timeoutMs: 2000,
      maxAnswerBytes: 1024,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(timedOut(error)).toBe(false);
  });
});
