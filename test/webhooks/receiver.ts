import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  /** performance.now() when the request arrived (for pacing checks). */
  at: number;
}

/** A self-signed certificate for 127.0.0.1, made with the openssl CLI. */
export const selfSignedCertificate = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'receiver-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        // an EC key: an RSA key of 2048 bits took a quarter of a second of CPU per test file
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** A webhook receiver over real HTTP(S): answers with the status the test sets, records each request. */
export const startReceiver = async (options: { tls?: { key: string; cert: string } } = {}) => {
  const received: Received[] = [];
  let answer: number | 'hang' | { redirect: string } | { ok: Buffer } = 200;
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw, body: raw ? JSON.parse(raw) : undefined, at: performance.now() });
      if (answer === 'hang') return;
      if (typeof answer === 'object' && 'ok' in answer) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(answer.ok);
      }
      if (typeof answer === 'object') {
        res.writeHead(302, { location: answer.redirect });
        return res.end();
      }
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer >= 300 ? `refused with ${answer} ${'x'.repeat(5000)}` : 'ok');
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks`,
    received,
    answer: (a: typeof answer) => void (answer = a),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};
