import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endListenSession, openListenSession } from '../../src/commands/webhook-listen.js';
import { verifySignature } from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { serviceArgs } from '../support/service-command.js';

/**
 * A supplier's local receiver: checks every request as production code does, with the
 * package's verifySignature, against the secret it is given once listen printed it (and the
 * service's clock, which the test holds).
 */
const startLocalReceiver = async (now: () => number) => {
  const secret = { value: '' };
  const got: { raw: string; headers: http.IncomingHttpHeaders; check: ReturnType<typeof verifySignature> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const check = verifySignature(raw, req.headers, [secret.value], { now });
      got.push({ raw: raw.toString('utf8'), headers: req.headers, check });
      res.writeHead(check.ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    secret,
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

describe('listen: a forwarding session, no endpoint of the supplier needed', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  const children: ChildProcess[] = [];

  /** An offer of `keys` keys on a product of its own, active. */
  const activeOffer = async (name: string, keys: number) => {
    const product = await svc.newProduct({ name });
    const offer = (
      await supplier.api.post('/offers', {
        product_id: product.id,
        stock_mode: 'uploaded',
        price: { amount: 1500, currency: 'EUR' },
        external_ref: name,
      })
    ).body;
    const items = Array.from({ length: keys }, (_, i) => ({ kind: 'text', value: `${name}-KEY-${i}` }));
    expect((await supplier.api.post(`/offers/${offer.id}/inventory`, { items })).status).toBe(201);
    expect((await supplier.api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    return offer;
  };
  const order = async (offerId: string) => {
    const placed = await supplier.api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE' });
    expect(placed.status, placed.text).toBe(201);
    await svc.drain();
    return placed.body;
  };

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    supplier = await svc.newSupplier('Listening Keys');
  });
  afterAll(async () => {
    children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
    await svc?.stop();
  });

  it("forwards a sandbox order's events signed with the session's printed secret, and ends the session on Ctrl-C", async () => {
    const local = await startLocalReceiver(() => svc.clock.now().getTime());
    const listen = startListen(['--base-url', svc.origin, '--forward-to', local.url], {
      SUPPLIER_TOKEN: supplier.token,
    });
    children.push(listen.child);
    await listen.until(() => listen.lines().length >= 2, 'listen did not start');
    const [first, second] = listen.lines();
    const sessionId = /session (\S+),/.exec(first!)?.[1];
    expect(first).toBe(
      `listening to Listening Keys's events (*) in the sandbox, session ${sessionId}, forwarding to ${local.url}`,
    );
    expect(second).toMatch(/^webhook_secret=whsec_[0-9a-f]{32}$/);
    local.secret.value = second!.slice('webhook_secret='.length);

    const offer = await activeOffer('Listened Quest', 1);
    const placed = await order(offer.id);
    await listen.until(() => local.got.length >= 3, 'not every event was forwarded');
    await new Promise((r) => setTimeout(r, 1500)); // a few more polls: nothing is forwarded twice
    const bodies = local.got.map((g) => JSON.parse(g.raw));
    // its one key sold: the offer's stock is low too
    expect(bodies.map((b) => b.type).sort()).toEqual(['offer.stock_low', 'order.created', 'order.paid']);
    expect(bodies.filter((b) => b.type.startsWith('order.')).map((b) => b.data.order.id)).toEqual([
      placed.id,
      placed.id,
    ]);
    expect(local.got.map((g) => g.check)).toEqual(local.got.map(() => ({ ok: true, timestamp: expect.any(Number) })));
    for (const [i, g] of local.got.entries())
      expect([i, g.headers['x-svc-event'], g.headers['x-svc-event-id'], g.headers['user-agent']]).toEqual([
        i,
        bodies[i].type,
        bodies[i].id,
        'service-webhooks/1.0',
      ]);
    const lines = listen.lines().slice(2);
    expect(lines.map((l) => l.slice(l.indexOf(' ') + 1)).sort()).toEqual(
      bodies.map((b) => `${b.type} ${b.id} -> 200`).sort(),
    );
    // no endpoint was made, and none delivered anything
    expect((await supplier.api.get('/webhooks')).body.data).toEqual([]);
    expect((await supplier.api.get('/webhook-deliveries')).body.data).toEqual([]);

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    const after = await supplier.api.post(`/webhook-listen-sessions/${sessionId}/poll`, {});
    expect([after.status, after.body.code, after.body.detail]).toEqual([
      409,
      'invalid_state',
      `listen session ${sessionId} was closed`,
    ]);
    await local.close();
  }, 180_000);

  it('goes on through a stretch where the service does not answer, and forwards what came meanwhile', async () => {
    // between listen and the service: while `down`, every connection is cut as it comes
    let down = false;
    const proxy = http.createServer((req, res) => {
      if (down) return req.socket.destroy();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
        ) as Record<string, string>;
        void fetch(`${svc.origin}${req.url}`, {
          method: req.method,
          headers,
          ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
        }).then(
          async (answer) =>
            res
              .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' })
              .end(Buffer.from(await answer.arrayBuffer())),
          () => req.socket.destroy(),
        );
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const local = await startLocalReceiver(() => svc.clock.now().getTime());
    const listen = startListen(
      ['--base-url', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, '--forward-to', local.url],
      { SUPPLIER_TOKEN: supplier.token },
    );
    children.push(listen.child);
    await listen.until(() => listen.lines().length >= 2, 'listen did not start');
    local.secret.value = listen.lines()[1]!.slice('webhook_secret='.length);

    down = true;
    proxy.closeAllConnections();
    // an order while listen cannot reach the service: its events wait for the session
    const offer = await activeOffer('Outage Quest', 3);
    const placed = await order(offer.id);
    await listen.until(
      () => listen.lines().filter((l) => l.startsWith('the service did not answer')).length >= 2,
      'listen did not say it tries again',
    );
    down = false;
    await listen.until(() => local.got.length >= 2, 'what came meanwhile was not forwarded');
    expect(local.got.map((g) => [JSON.parse(g.raw).type, JSON.parse(g.raw).data.order.id, g.check.ok]).sort()).toEqual([
      ['order.created', placed.id, true],
      ['order.paid', placed.id, true],
    ]);
    expect(listen.lines().filter((l) => l.startsWith('the service did not answer'))[0]).toMatch(
      /^the service did not answer \(fetch failed: \w+\); trying again in 1 s$/,
    );
    listen.child.kill('SIGTERM');
    expect(await listen.exited).toBe(0);
    proxy.close();
    await local.close();
  }, 180_000);

  it('a session nobody polls ends with its lease, and keeps nothing for later', async () => {
    const opened = await supplier.api.post('/webhook-listen-sessions', { events: ['order.paid'] });
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body).toEqual({
      id: expect.any(String),
      events: ['order.paid'],
      secret: expect.stringMatching(/^whsec_[0-9a-f]{32}$/),
      lease_until: new Date(svc.clock.now().getTime() + 60_000).toISOString(),
      created_at: svc.clock.now().toISOString(),
    });
    const session = opened.body;
    const offer = await activeOffer('Leased Quest', 3);
    const placed = await order(offer.id);

    // only the type it named, signed with its secret at the service's time
    const polled = await supplier.api.post(`/webhook-listen-sessions/${session.id}/poll`, {});
    expect(polled.status, polled.text).toBe(200);
    expect(polled.body.data.map((e: any) => [e.event_type, JSON.parse(e.body).data.order.id])).toEqual([
      ['order.paid', placed.id],
    ]);
    const [event] = polled.body.data;
    expect(
      verifySignature(event.body, event.headers, [session.secret], { now: () => svc.clock.now().getTime() }),
    ).toEqual({ ok: true, timestamp: svc.clock.now().getTime() });
    expect(event.headers['x-svc-delivery-id']).toBe(event.id);
    // handed over until acknowledged, then gone
    const again = await supplier.api.post(`/webhook-listen-sessions/${session.id}/poll`, { ack: [] });
    expect(again.body.data.map((e: any) => e.id)).toEqual([event.id]);
    const acked = await supplier.api.post(`/webhook-listen-sessions/${session.id}/poll`, { ack: [event.id] });
    expect(acked.body).toEqual({ data: [], lease_until: new Date(svc.clock.now().getTime() + 60_000).toISOString() });

    // a minute with no poll: the timer ends it, and what follows is copied nowhere
    await svc.advance(61);
    await order(offer.id);
    const lapsed = await supplier.api.post(`/webhook-listen-sessions/${session.id}/poll`, {});
    expect([lapsed.status, lapsed.body.code, lapsed.body.reason]).toEqual([409, 'invalid_state', 'lease_lapsed']);
    const kept = await svc.services.commands.db
      .selectFrom('webhook_listen_events')
      .select('id')
      .where('session_id', '=', session.id)
      .execute();
    expect(kept).toEqual([]);
  }, 120_000);

  it('a poll waits for the next event instead of answering empty', async () => {
    const session = (await supplier.api.post('/webhook-listen-sessions', {})).body;
    const offer = await activeOffer('Awaited Quest', 3);
    const waiting = supplier.api.post(`/webhook-listen-sessions/${session.id}/poll`, { wait_seconds: 20 });
    await new Promise((r) => setTimeout(r, 300));
    await order(offer.id);
    const answered = await waiting;
    expect(answered.body.data.map((e: any) => e.event_type).sort()).toEqual(['order.created', 'order.paid']);
    expect((await supplier.api.delete(`/webhook-listen-sessions/${session.id}`)).status).toBe(204);
  }, 120_000);

  it('at most five sessions at once, none of them an endpoint; bad input changes nothing', async () => {
    const other = await svc.newSupplier('Other Keys');
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push((await other.api.post('/webhook-listen-sessions', {})).body.id);
    const sixth = await other.api.post('/webhook-listen-sessions', {});
    expect([sixth.status, sixth.body.code, sixth.body.detail]).toEqual([
      409,
      'invalid_state',
      'at most 5 listen sessions at once: stop one, or wait 60 s for an interrupted one to lapse',
    ]);
    // the endpoint limit is another's: ten endpoints can still be made
    expect((await other.api.get('/webhooks')).body.data).toEqual([]);
    // another supplier's session is as unknown as none
    expect((await supplier.api.post(`/webhook-listen-sessions/${opened[0]}/poll`, {})).status).toBe(404);
    expect((await supplier.api.delete(`/webhook-listen-sessions/${opened[0]}`)).status).toBe(404);
    expect((await other.api.post('/webhook-listen-sessions/nope/poll', {})).status).toBe(404);
    for (const [body, field] of [
      [{ events: ['ledger.checkpoint'] }, 'body.events.0'],
      [{ events: [] }, 'body.events'],
      [{ events: ['*'], url: 'http://x' }, 'body'],
    ] as const) {
      const refused = await other.api.post('/webhook-listen-sessions', body);
      expect([refused.status, refused.body.code, refused.body.errors?.[0]?.field]).toEqual([
        422,
        'validation_failed',
        field,
      ]);
    }
    const badPoll = await other.api.post(`/webhook-listen-sessions/${opened[0]}/poll`, { wait_seconds: 26 });
    expect([badPoll.status, badPoll.body.errors?.[0]?.field]).toEqual([422, 'body.wait_seconds']);
    // closing one makes room; closing it again changes nothing
    expect((await other.api.delete(`/webhook-listen-sessions/${opened[0]}`)).status).toBe(204);
    expect((await other.api.delete(`/webhook-listen-sessions/${opened[0]}`)).status).toBe(204);
    expect((await other.api.post('/webhook-listen-sessions', {})).status).toBe(201);
  }, 120_000);

  it('an opening run again under its operation (its answer lost) finds the session it made, while it lives', async () => {
    const deps = svc.services.commands;
    const first = await openListenSession(deps, supplier.id, ['*'], {}, 'op-listen-1');
    const again = await openListenSession(deps, supplier.id, ['*'], {}, 'op-listen-1');
    expect([again.session.id, again.secret]).toEqual([first.session.id, first.secret]);
    await endListenSession(deps, first.session.id, 'closed', {});
    await expect(openListenSession(deps, supplier.id, ['*'], {}, 'op-listen-1')).rejects.toMatchObject({
      code: 'invalid_state',
      detail: 'listen session op-listen-1 was closed',
    });
    const live = await deps.db
      .selectFrom('webhook_listen_sessions')
      .select('id')
      .where('id', '=', first.session.id)
      .execute();
    expect(live).toEqual([]);
  });

  it('a missing setting is refused with the usage, exit 2', async () => {
    const listen = startListen(['--base-url', svc.origin], { SUPPLIER_TOKEN: '' });
    children.push(listen.child);
    expect(await listen.exited).toBe(2);
    expect(listen.stderr()).toContain(
      'missing --forward-to, --token (or SUPPLIER_TOKEN)\nusage: npm run cli -- listen',
    );
  }, 120_000);
});
