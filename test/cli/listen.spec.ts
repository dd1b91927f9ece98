import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { serviceArgs } from '../support/service-command.js';

/** A supplier's local receiver: checks every request as production code does, with the package's verifySignature. */
const startLocalReceiver = async (secret: string) => {
  const got: { raw: string; headers: http.IncomingHttpHeaders; check: ReturnType<typeof verifySignature> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const check = verifySignature(raw, req.headers, [secret]);
      got.push({ raw: raw.toString('utf8'), headers: req.headers, check });
      res.writeHead(check.ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

/** `npm run cli -- listen …` as a process of its own, its output read line by line. */
const startListen = (args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, serviceArgs('src/cli/main.ts', ['listen', ...args]), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () => out.split('\n').filter((l) => l !== '');
  const until = async (done: () => boolean, what: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what}; out:\n${out}\nerr:\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, lines, until, exited, stderr: () => err };
};

describe('listen: a webhook endpoint followed from the delivery log and forwarded to a local receiver', () => {
  let svc: TestService;
  let production: Awaited<ReturnType<typeof startReceiver>>;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let hook: { id: string; secret: string };
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    production = await startReceiver(); // where the endpoint points: the service delivers there as ever
    supplier = await svc.newSupplier('Listening Keys');
    const created = await supplier.api.post('/webhooks', { url: production.url, events: ['*'], description: 'dev' });
    expect(created.status, created.text).toBe(201);
    hook = { id: created.body.id, secret: created.body.secret };
  });
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
    await svc?.stop();
    await production?.close();
  });

  it("forwards a test-fire and a sandbox order's events, each verified by the local receiver with the endpoint's secret", async () => {
    // an attempt from before the start is history, not forwarded
    expect((await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'offer.stock_low' })).status).toBe(200);
    const local = await startLocalReceiver(hook.secret);
    const listen = startListen(['--base-url', svc.origin, '--webhook', hook.id, '--forward-to', local.url], {
      SUPPLIER_TOKEN: supplier.token,
      WEBHOOK_SECRET: hook.secret,
    });
    children.push(listen.child);
    await listen.until(() => listen.lines().length >= 1, 'listen did not start');
    expect(listen.lines()[0]).toBe(
      `listening to webhook ${hook.id} (${production.url}, active), forwarding to ${local.url}`,
    );

    production.received.length = 0;
    const fired = await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'order.paid' });
    expect(fired.body.succeeded).toBe(true);
    const product = await svc.newProduct({ name: 'Listened Quest' });
    const offer = (
      await supplier.api.post('/offers', {
        product_id: product.id,
        stock_mode: 'uploaded',
        price: { amount: 1500, currency: 'EUR' },
        external_ref: 'LISTEN-1',
      })
    ).body;
    await supplier.api.post(`/offers/${offer.id}/inventory`, { items: [{ kind: 'text', value: 'LISTEN-KEY-1' }] });
    expect((await supplier.api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    const order = await supplier.api.post('/sandbox/orders', { offer_id: offer.id, quantity: 1, buyer_country: 'DE' });
    expect(order.status, order.text).toBe(201);
    await svc.drain();
    // the test-fire, then the order's events (its one key sold: the offer's stock is low too)
    const sent = production.received.map((r) => r.body.type);
    expect([sent[0], sent.slice(1).sort()]).toEqual(['order.paid', ['offer.stock_low', 'order.created', 'order.paid']]);

    await listen.until(() => local.got.length >= 4, 'not every attempt was forwarded');
    await new Promise((r) => setTimeout(r, 2500)); // a few more polls: nothing is forwarded twice
    // the same envelopes, byte for byte, each verified as production verifies it (in the
    // order of their delivery ids: two deliveries of one batch may finish in either order)
    const byDelivery = <T extends { headers: http.IncomingHttpHeaders }>(list: T[]) =>
      [...list].sort((a, b) =>
        String(a.headers['x-svc-delivery-id']).localeCompare(String(b.headers['x-svc-delivery-id'])),
      );
    const forwarded = byDelivery(local.got);
    const delivered = byDelivery(production.received);
    expect(forwarded.map((g) => g.raw)).toEqual(delivered.map((r) => r.raw));
    expect(forwarded.map((g) => g.check)).toEqual(forwarded.map(() => ({ ok: true, timestamp: expect.any(Number) })));
    for (const [i, g] of forwarded.entries())
      for (const name of ['x-svc-event', 'x-svc-event-id', 'x-svc-delivery-id', 'content-type', 'user-agent'])
        expect([i, name, g.headers[name]]).toEqual([i, name, delivered[i]!.headers[name]]);
    // one line per event: time, type, event id, the local answer
    const lines = listen.lines().slice(1);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /);
    expect(lines.map((l) => l.slice(l.indexOf(' ') + 1)).sort()).toEqual(
      delivered.map((r) => `${r.body.type} ${r.body.id} -> 200`).sort(),
    );

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    await local.close();
  }, 180_000);

  it('refuses to forward with a secret that does not sign the endpoint: exit 1, nothing sent', async () => {
    const local = await startLocalReceiver('whsec_00000000000000000000000000000000');
    const listen = startListen(['--base-url', svc.origin, '--webhook', hook.id, '--forward-to', local.url], {
      SUPPLIER_TOKEN: supplier.token,
      WEBHOOK_SECRET: 'whsec_00000000000000000000000000000000',
    });
    children.push(listen.child);
    await listen.until(() => listen.lines().length >= 1, 'listen did not start');
    await supplier.api.post(`/webhooks/${hook.id}/test`, { event: 'order.paid' });
    expect(await listen.exited).toBe(1);
    expect(listen.stderr()).toContain(
      `the secret given does not sign webhook ${hook.id}'s deliveries (signature_mismatch): pass the endpoint's current secret`,
    );
    expect(local.got).toEqual([]);
    await local.close();
  }, 120_000);

  it('a missing setting is refused with the usage, exit 2', async () => {
    const listen = startListen(['--base-url', svc.origin, '--webhook', hook.id], {
      SUPPLIER_TOKEN: '',
      WEBHOOK_SECRET: '',
    });
    children.push(listen.child);
    expect(await listen.exited).toBe(2);
    expect(listen.stderr()).toContain(
      'missing --forward-to, --token (or SUPPLIER_TOKEN), --secret (or WEBHOOK_SECRET)\nusage: npm run cli -- listen',
    );
  }, 120_000);
});
