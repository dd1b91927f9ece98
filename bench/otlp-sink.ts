/**
 * An OTLP/HTTP collector that keeps nothing, in a process of its own: the service under
 * `orders.tracing` exports its spans here, so their encoding and sending are on the service's
 * CPU as they would be against a real collector, and receiving them is on no one's timed CPU.
 * Started by `bench/processes.ts`; answers `stop` over the IPC channel.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (ask: { id: number; kind: string }) => {
  if (ask.kind === 'stop')
    server.close(() => {
      process.send?.({ id: ask.id, ok: true });
      process.disconnect();
    });
  else process.send?.({ id: ask.id, ok: true });
});
