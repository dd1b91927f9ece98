import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, isPrivateAddress } from '../../src/net/targets.js';
import { startTestService, type TestService } from '../support/harness.js';
import type { Client } from '../support/http.js';
import { startReceiver } from './receiver.js';

describe('webhook target addresses', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast, unspecified, unique-local and mapped addresses', () => {
    const table: [string, boolean][] = [
      ['10.1.2.3', true],
      ['172.16.0.1', true],
      ['172.32.0.1', false],
      ['192.168.1.1', true],
      ['127.0.0.1', true],
      ['169.254.169.254', true],
      ['100.64.0.1', true],
      ['100.128.0.1', false],
      ['224.0.0.1', true],
      ['0.0.0.0', true],
      ['255.255.255.255', true],
      ['8.8.8.8', false],
      ['::1', true],
      ['::', true],
      ['fd00::1', true],
      ['fe80::1', true],
      ['ff02::1', true],
      ['::ffff:10.0.0.1', true],
      ['::ffff:7f00:1', true],
      ['::ffff:8.8.8.8', false],
      ['2001:4860:4860::8888', false],
    ];
    for (const [address, isPrivate] of table)
      expect([address, isPrivateAddress(address)]).toEqual([address, isPrivate]);
  });

  it('checks every address a host name resolves to, and wants https', async () => {
    const resolve = async (host: string) =>
      (
        ({
          'good.example': ['93.184.216.34'],
          'mixed.example': ['93.184.216.34', '10.0.0.7'],
          'inside.example': ['192.168.0.9'],
        }) as Record<string, string[]>
      )[host] ?? [];
    const policy = { allowPrivate: false, resolve };
    expect((await checkTarget('https://good.example/hooks', policy)).ok).toBe(true);
    expect(await checkTarget('https://mixed.example/hooks', policy)).toEqual({
      ok: false,
      reason: 'host mixed.example resolves to a private or reserved address (10.0.0.7)',
    });
    expect((await checkTarget('https://inside.example/hooks', policy)).ok).toBe(false);
    expect(await checkTarget('http://good.example/hooks', policy)).toEqual({ ok: false, reason: 'must use https' });
    expect((await checkTarget('https://[::ffff:127.0.0.1]:8443/x', policy)).ok).toBe(false);
    expect((await checkTarget('https://nowhere.example/', policy)).ok).toBe(false);
    expect((await checkTarget('https://user:pw@good.example/', policy)).ok).toBe(false);
    expect((await checkTarget('https://good.example:9443/any-port', policy)).ok).toBe(true);
  });
});

/** An uploaded offer of the supplier's, activated and deactivated `times` times: that many offer.deactivated events. */
const deactivations = async (svc: TestService, api: Client, times: number) => {
  const product = (await svc.newProduct()).id;
  const offer = (
    await api.post('/offers', {
      product_id: product,
      stock_mode: 'uploaded',
      price: { amount: 100, currency: 'EUR' },
      external_ref: `D${times}`,
    })
  ).body.id;
  for (let i = 0; i < times; i++) {
    await api.post(`/offers/${offer}/activate`);
    await api.post(`/offers/${offer}/deactivate`);
  }
};

describe('webhook endpoints', () => {
  let strict: TestService;
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let other: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    [strict, svc] = await Promise.all([
      startTestService({ extraConfig: { allowPrivateTargets: false } }),
      startTestService({ limits: { test: 1000, writes: 1000 } }),
    ]);
    receiver = await startReceiver();
    other = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([strict.stop(), svc.stop(), receiver.close(), other.close()]);
  });

  it('refuses non-public targets when private targets are not allowed, naming the field', async () => {
    const { api } = await strict.newSupplier();
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost:8443/hooks',
      'https://10.0.0.1/x',
      'http://example.com/x',
      'not a url',
    ]) {
      const res = await api.post('/webhooks', { url, events: ['*'] });
      expect([url, res.status, res.body.code, res.body.errors?.[0]?.field]).toEqual([
        url,
        422,
        'validation_failed',
        'body.url',
      ]);
    }
    expect((await api.get('/webhooks')).body.data).toEqual([]);
  });

  it('refuses a url whose text names no host, on create and on PATCH, naming the field; nothing changes', async () => {
    const { api } = await svc.newSupplier();
    const refused = (url: string) => [
      url,
      422,
      'validation_failed',
      [{ field: 'body.url', message: 'must name its host, as in https://host/path' }],
    ];
    const hostless = ['http:///x', 'https:///x', 'http:x', 'https:\\\\x'];
    for (const url of hostless) {
      const res = await api.post('/webhooks', { url, events: ['*'] });
      expect([url, res.status, res.body.code, res.body.errors]).toEqual(refused(url));
    }
    expect((await api.get('/webhooks')).body.data).toEqual([]);
    const created = await api.post('/webhooks', { url: receiver.url, events: ['*'] });
    expect(created.status, created.text).toBe(201);
    for (const url of hostless) {
      const res = await api.patch(`/webhooks/${created.body.id}`, { url });
      expect([url, res.status, res.body.code, res.body.errors]).toEqual(refused(url));
    }
    expect((await api.get(`/webhooks/${created.body.id}`)).body.url).toBe(receiver.url);
  });

  it('takes catalogue event types or *, at most 10 endpoints, and changes, lists and deletes them', async () => {
    const { api } = await svc.newSupplier();
    expect((await api.post('/webhooks', { url: receiver.url, events: ['order.shipped'] })).status).toBe(422);
    expect((await api.post('/webhooks', { url: receiver.url, events: [] })).status).toBe(422);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(
        (await api.post('/webhooks', { url: receiver.url, events: ['order.paid'], description: `n${i}` })).body.id,
      );
    const eleventh = await api.post('/webhooks', { url: receiver.url, events: ['order.paid'] });
    expect(eleventh.status).toBe(422);
    expect(eleventh.body.detail).toContain('at most 10');
    const patched = await api.patch(`/webhooks/${ids[0]}`, {
      events: ['order.paid', 'order.refunded'],
      description: 'changed',
    });
    expect(patched.body).toMatchObject({
      events: ['order.paid', 'order.refunded'],
      description: 'changed',
      status: 'active',
    });
    expect((await api.delete(`/webhooks/${ids[9]}`)).status).toBe(204);
    expect((await api.get(`/webhooks/${ids[9]}`)).status).toBe(404);
    expect((await api.post('/webhooks', { url: receiver.url, events: ['*'] })).status).toBe(201);
    const intruder = await svc.newSupplier('Intruder');
    expect((await intruder.api.get(`/webhooks/${ids[0]}`)).status).toBe(404);
    expect((await intruder.api.post(`/webhooks/${ids[0]}/test`, {})).status).toBe(404);
  });

  it('410 disables at once; re-enabling needs a passing test-fire (409 invalid_state with the probe otherwise)', async () => {
    const { api } = await svc.newSupplier('Gone');
    const hook = (await api.post('/webhooks', { url: receiver.url, events: ['*'] })).body;
    receiver.answer(410);
    await deactivations(svc, api, 1);
    await svc.drain();
    const disabled = (await api.get(`/webhooks/${hook.id}`)).body;
    expect(disabled.status).toBe('disabled');
    expect(disabled.disabled_at).toBe(svc.clock.now().toISOString());
    const refused = await api.patch(`/webhooks/${hook.id}`, { status: 'active' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_state');
    expect(refused.body.probe).toMatchObject({ event_type: 'order.paid', response_status: 410, succeeded: false });
    // changes sent with the re-enabling are written with it, or not at all
    const before = (await api.get(`/webhooks/${hook.id}`)).body;
    const refusedWithChanges = await api.patch(`/webhooks/${hook.id}`, {
      description: 'after',
      events: ['order.paid'],
      status: 'active',
    });
    expect([refusedWithChanges.status, refusedWithChanges.body.code]).toEqual([409, 'invalid_state']);
    expect((await api.get(`/webhooks/${hook.id}`)).body).toEqual(before);
    receiver.answer(200);
    const back = await api.patch(`/webhooks/${hook.id}`, { description: 'back', status: 'active' });
    expect(back.body).toMatchObject({
      status: 'active',
      description: 'back',
      consecutive_failures: 0,
      disabled_at: null,
    });
    expect(back.body.events).toEqual(before.events);
  });

  it('30 consecutive failures disable an endpoint and tell the other active endpoints with webhook.disabled', async () => {
    const { api } = await svc.newSupplier('Flaky');
    const failing = (await api.post('/webhooks', { url: receiver.url, events: ['offer.deactivated'] })).body;
    await api.post('/webhooks', { url: other.url, events: ['webhook.disabled'] });
    receiver.answer(500);
    other.received.length = 0;
    // 5 events x 6 attempts each (within the first 8 hours of the ladder) = 30 failures
    await deactivations(svc, api, 5);
    await svc.drain();
    for (const wait of [60, 300, 1800, 7200, 28800]) await svc.advance(wait);
    const state = (await api.get(`/webhooks/${failing.id}`)).body;
    expect(state.status).toBe('disabled');
    expect(state.consecutive_failures).toBe(30);
    expect(
      other.received.map((r) => [
        r.body.type,
        r.body.data.webhook_id,
        r.body.data.reason,
        r.body.data.consecutive_failures,
      ]),
    ).toEqual([['webhook.disabled', failing.id, 'consecutive_failures', 30]]);
    receiver.answer(200);
  });

  it('a 410 disables the endpoint at once: the attempts waiting for a slot behind it are not sent', async () => {
    const { api } = await svc.newSupplier('Gone Away');
    const gone = await startReceiver();
    try {
      const hook = (await api.post('/webhooks', { url: gone.url, events: ['offer.deactivated'] })).body;
      gone.answer(410);
      await deactivations(svc, api, 40);
      await svc.drain();
      const state = (await api.get(`/webhooks/${hook.id}`)).body;
      expect(state.status).toBe('disabled');
      // at most the attempts already under way in its 4 slots when the first 410 came
      const sent = gone.received.length;
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(4);
      const log = (await api.get(`/webhook-deliveries?webhook_id=${hook.id}&limit=200`)).body.data;
      expect(log.map((a: { response_status: number }) => a.response_status)).toEqual(Array(sent).fill(410));
      const deliveries = await svc.services.db
        .selectFrom('webhook_deliveries')
        .select(['status'])
        .where('endpoint_id', '=', hook.id)
        .execute();
      expect(deliveries.filter((d) => d.status === 'skipped')).toHaveLength(40 - sent);
    } finally {
      await gone.close();
    }
  });

  it("an endpoint the supplier disables itself is not announced: webhook.disabled is the auto-disable's", async () => {
    const { api } = await svc.newSupplier('Quiet');
    const own = (await api.post('/webhooks', { url: receiver.url, events: ['offer.deactivated'] })).body;
    await api.post('/webhooks', { url: other.url, events: ['webhook.disabled'] });
    other.received.length = 0;
    const disabled = await api.patch(`/webhooks/${own.id}`, { status: 'disabled' });
    expect([disabled.status, disabled.body.status]).toEqual([200, 'disabled']);
    await svc.drain();
    await svc.advance(60);
    expect(other.received.map((r) => r.body.type)).toEqual([]);
  });
});

describe('the delivery log', () => {
  it('filters by endpoint, type, event, status and time, and is purged after 30 days', async () => {
    const svc = await startTestService({ limits: { test: 1000 } });
    const a = await startReceiver();
    const b = await startReceiver();
    try {
      const { api } = await svc.newSupplier();
      const ha = (await api.post('/webhooks', { url: a.url, events: ['*'] })).body.id;
      const hb = (await api.post('/webhooks', { url: b.url, events: ['*'] })).body.id;
      b.answer(500);
      await api.post(`/webhooks/${ha}/test`, { event: 'order.paid' });
      svc.clock.advance(60);
      const middle = svc.clock.now().toISOString();
      await api.post(`/webhooks/${hb}/test`, { event: 'offer.stock_low' });
      const all = (await api.get('/webhook-deliveries')).body.data;
      expect(all.map((d: any) => [d.webhook_id, d.event_type, d.succeeded])).toEqual([
        [hb, 'offer.stock_low', false],
        [ha, 'order.paid', true],
      ]);
      expect((await api.get(`/webhook-deliveries?webhook_id=${ha}`)).body.data.map((d: any) => d.webhook_id)).toEqual([
        ha,
      ]);
      expect((await api.get('/webhook-deliveries?status=failed')).body.data.map((d: any) => d.webhook_id)).toEqual([
        hb,
      ]);
      expect((await api.get('/webhook-deliveries?event_type=order.paid')).body.data).toHaveLength(1);
      expect(
        (await api.get(`/webhook-deliveries?event_id=${all[0].event_id}`)).body.data.map((d: any) => d.id),
      ).toEqual([all[0].id]);
      expect(
        (await api.get(`/webhook-deliveries?from=${encodeURIComponent(middle)}`)).body.data.map(
          (d: any) => d.webhook_id,
        ),
      ).toEqual([hb]);
      expect(
        (await api.get(`/webhook-deliveries?to=${encodeURIComponent(middle)}`)).body.data.map((d: any) => d.webhook_id),
      ).toEqual([ha]);
      const other = await svc.newSupplier('Other');
      expect((await other.api.get('/webhook-deliveries')).body.data).toEqual([]);
      expect((await other.api.get(`/webhook-deliveries/${all[0].id}`)).status).toBe(404);
      await svc.advance(29 * 24 * 3600);
      expect((await api.get('/webhook-deliveries')).body.data).toHaveLength(2);
      await svc.advance(2 * 24 * 3600);
      expect((await api.get('/webhook-deliveries')).body.data).toEqual([]);
    } finally {
      await svc.stop();
      await a.close();
      await b.close();
    }
  });
});
