import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { startReceiver } from './receiver.js';

describe('webhook contract details', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000, writes: 1000 } });
  });
  afterAll(() => svc.stop());

  /** A receiver of the test's own, closed when the test ends however it ends: none answers another test's deliveries. */
  const ownReceiver = async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    return receiver;
  };

  // thirty-odd attempts one after another, each a real request: on a busy machine they take
  // longer than the suite's default bound
  it('a resend that is the 30th consecutive failure disables the endpoint, as an attempt of the ladder would', async () => {
    const [receiver, other] = [await ownReceiver(), await ownReceiver()];
    const { api } = await svc.newSupplier('Resender');
    const failing = (await api.post('/webhooks', { url: receiver.url, events: ['offer.deactivated'] })).body;
    await api.post('/webhooks', { url: other.url, events: ['webhook.disabled'] });
    receiver.answer(500);
    const product = (await svc.newProduct()).id;
    const offer = (
      await api.post('/offers', {
        product_id: product,
        stock_mode: 'uploaded',
        price: { amount: 100, currency: 'EUR' },
        external_ref: 'R',
      })
    ).body.id;
    await api.post(`/offers/${offer}/activate`);
    await api.post(`/offers/${offer}/deactivate`);
    await svc.drain();
    const delivery = (await api.get(`/webhook-deliveries?webhook_id=${failing.id}`)).body.data[0];
    expect(delivery.succeeded).toBe(false);
    for (let i = 2; i <= 29; i++)
      expect((await api.post(`/webhook-deliveries/${delivery.id}/resend`)).body.succeeded).toBe(false);
    expect((await api.get(`/webhooks/${failing.id}`)).body).toMatchObject({
      status: 'active',
      consecutive_failures: 29,
    });

    const thirtieth = await api.post(`/webhook-deliveries/${delivery.id}/resend`);
    expect(thirtieth.status).toBe(200);
    expect(thirtieth.body.succeeded).toBe(false);
    expect((await api.get(`/webhooks/${failing.id}`)).body).toMatchObject({
      status: 'disabled',
      consecutive_failures: 30,
    });
    await svc.drain();
    expect(
      other.received.map((r) => [
        r.body.type,
        r.body.data.webhook_id,
        r.body.data.reason,
        r.body.data.consecutive_failures,
      ]),
    ).toEqual([['webhook.disabled', failing.id, 'consecutive_failures', 30]]);
    const again = await api.post(`/webhook-deliveries/${delivery.id}/resend`);
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  }, 120_000);

  it('POST /webhooks/{id}/test with no body fires order.paid', async () => {
    const receiver = await ownReceiver();
    const { api, token } = await svc.newSupplier('Tester');
    const hook = (await api.post('/webhooks', { url: receiver.url, events: ['*'] })).body;
    // no body and no content type at all, as `curl -X POST` sends it
    const bare = await request(svc.baseUrl, 'POST', `/webhooks/${hook.id}/test`, { token });
    expect([bare.status, bare.body.event_type, bare.body.succeeded]).toEqual([200, 'order.paid', true]);
    // an empty JSON body, and an empty object, mean the same
    const empty = await request(svc.baseUrl, 'POST', `/webhooks/${hook.id}/test`, { token, rawBody: '' });
    expect([empty.status, empty.body.event_type]).toEqual([200, 'order.paid']);
    const empty2 = await request(svc.baseUrl, 'POST', `/webhooks/${hook.id}/test`, { token, rawBody: '{}' });
    expect([empty2.status, empty2.body.event_type]).toEqual([200, 'order.paid']);
    expect(receiver.received.map((r) => [r.body.type, r.body.test_fire])).toEqual([
      ['order.paid', true],
      ['order.paid', true],
      ['order.paid', true],
    ]);
  });
});
