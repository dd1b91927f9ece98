import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

/**
 * A real HTTP server whose every answer is `bodyBytes` long, streamed in chunks as the
 * reader takes them (one 64 KiB buffer written again and again: the test never holds the
 * body), with no Content-Length: the reader learns its size only by reading it. It records
 * how much of each answer it wrote before the reader stopped taking it.
 */
export const startHugeAnswers = async (
  bodyBytes: number,
  options: {
    status?: number;
    /** Paths answered with these small JSON bodies instead. */
    small?: Record<string, string>;
  } = {},
) => {
  const status = options.status ?? 200;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const answers: { path: string; written: number; closedEarly: boolean; closed: Promise<void> }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    const small = options.small?.[req.url ?? ''];
    if (small !== undefined) return void res.writeHead(200, { 'content-type': 'application/json' }).end(small);
    let closed = () => undefined as void;
    const answer = {
      path: req.url ?? '',
      written: 0,
      closedEarly: false,
      closed: new Promise<void>((r) => (closed = r)),
    };
    answers.push(answer);
    res.on('close', () => {
      answer.closedEarly = !res.writableFinished;
      closed();
    });
    res.writeHead(status, { 'content-type': 'application/json' });
    const pump = () => {
      while (answer.written < bodyBytes && !res.destroyed) {
        const n = Math.min(chunk.length, bodyBytes - answer.written);
        answer.written += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    answers,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export const MB = 1024 * 1024;

/** A process's resident memory now and at its peak, in bytes (Linux: /proc/PID/status). */
export const memoryOf = (pid: number): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};
