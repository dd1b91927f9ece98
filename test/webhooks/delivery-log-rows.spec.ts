import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from './receiver.js';

/** What one row of the delivery log says: which endpoint it went to, and how it ended in a word. */
describe('the delivery log names the endpoint and the outcome of each attempt', () => {
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    receiver = await startReceiver();
    supplier = await svc.newSupplier('Logged Keys');
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
  });

  const endpoint = async (url: string) => {
    const created = await supplier.api.post('/webhooks', { url, events: ['*'], description: 'log' });
    expect(created.status, created.text).toBe(201);
    return created.body.id as string;
  };
  const lastRow = async (webhookId: string) => {
    const rows = (await supplier.api.get(`/webhook-deliveries?webhook_id=${webhookId}&limit=1`)).body.data;
    const one = (await supplier.api.get(`/webhook-deliveries/${rows[0].id}`)).body;
    const pick = (r: any) => ({
      webhook_id: r.webhook_id,
      webhook_url: r.webhook_url,
      succeeded: r.succeeded,
      response_status: r.response_status,
      outcome: r.outcome,
      error: r.error,
    });
    // the list and the single read say the same
    expect(pick(one)).toEqual(pick(rows[0]));
    return pick(rows[0]);
  };

  it('a delivered attempt and an answered failure: the endpoint id and URL, succeeded or http_error', async () => {
    const id = await endpoint(receiver.url);
    const fired = await supplier.api.post(`/webhooks/${id}/test`, { event: 'order.paid' });
    expect(fired.body).toMatchObject({ succeeded: true, response_status: 200, outcome: 'succeeded' });
    expect(await lastRow(id)).toEqual({
      webhook_id: id,
      webhook_url: receiver.url,
      succeeded: true,
      response_status: 200,
      outcome: 'succeeded',
      error: null,
    });

    receiver.answer(500);
    const refused = await supplier.api.post(`/webhooks/${id}/test`, { event: 'order.paid' });
    expect(refused.body).toMatchObject({ succeeded: false, response_status: 500, outcome: 'http_error' });
    expect(await lastRow(id)).toEqual({
      webhook_id: id,
      webhook_url: receiver.url,
      succeeded: false,
      response_status: 500,
      outcome: 'http_error',
      error: null,
    });
    receiver.answer(200);
  });

  it('nothing listening at the address reads connection_refused, not a status of 0', async () => {
    const gone = await startReceiver();
    await gone.close(); // its port is free again: a connection there is refused
    const id = await endpoint(gone.url);
    const fired = await supplier.api.post(`/webhooks/${id}/test`, { event: 'order.paid' });
    expect(fired.body).toMatchObject({ succeeded: false, response_status: 0, outcome: 'connection_refused' });
    expect(await lastRow(id)).toEqual({
      webhook_id: id,
      webhook_url: gone.url,
      succeeded: false,
      response_status: null,
      outcome: 'connection_refused',
      error: 'connection refused',
    });
  });
});
