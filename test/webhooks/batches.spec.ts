import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { AttemptRecord } from '../../src/outbound/webhook-send.js';
import { type DeliveryOutcome, foldCounters } from '../../src/processes/webhook-outcomes.js';
import { DeliverySender } from '../../src/processes/webhook-sender.js';
import { eventually } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from './receiver.js';

/** An outcome of `endpointId` whose attempt succeeded or failed (only what the fold reads). */
const sent = (endpointId: string, succeeded: boolean): DeliveryOutcome => ({
  deliveryId: newId(),
  endpointId,
  status: succeeded ? 'succeeded' : 'pending',
  attempts: 1,
  nextAttemptAt: null,
  sent: { succeeded } as AttemptRecord,
});

describe('failure counters folded per endpoint over a batch', () => {
  it('counts only the failures after the last 2xx, and ignores outcomes without an attempt', () => {
    const outcomes = [
      sent('ep-b', false),
      sent('ep-a', false),
      sent('ep-a', false),
      sent('ep-b', false),
      sent('ep-a', true),
      sent('ep-a', false),
      { deliveryId: 'd', endpointId: 'ep-c', status: 'skipped', attempts: null, nextAttemptAt: null },
      { deliveryId: 'e', endpointId: 'ep-a', status: 'pending', attempts: null, nextAttemptAt: new Date(0) },
      sent('ep-d', true),
    ] satisfies DeliveryOutcome[];
    expect(foldCounters(outcomes)).toEqual([
      { endpointId: 'ep-a', reset: true, failures: 1 },
      { endpointId: 'ep-b', reset: false, failures: 2 },
      { endpointId: 'ep-d', reset: true, failures: 0 },
    ]);
  });
});

describe('webhook deliveries in batches', () => {
  let svc: TestService;
  let ok: Awaited<ReturnType<typeof startReceiver>>;
  let failing: Awaited<ReturnType<typeof startReceiver>>;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let hooks: { ok: string; failing: string };
  let offer: string;

  beforeAll(async () => {
    svc = await startTestService();
    ok = await startReceiver();
    failing = await startReceiver();
    supplier = await svc.newSupplier('Batched');
    const hook = async (url: string) =>
      (await supplier.api.post('/webhooks', { url, events: ['offer.deactivated'] })).body.id as string;
    hooks = { ok: await hook(ok.url), failing: await hook(failing.url) };
    const product = (await svc.newProduct()).id;
    offer = (
      await supplier.api.post('/offers', {
        product_id: product,
        stock_mode: 'uploaded',
        price: { amount: 100, currency: 'EUR' },
        external_ref: 'BATCH',
      })
    ).body.id;
  });
  afterAll(async () => {
    await svc.stop();
    await ok.close();
    await failing.close();
  });

  /** A timer gauge of kind webhook.deliver, as GET /metrics shows it. */
  const deliveryGauge = async (name: 'svc_timers_due' | 'svc_timers_running') => {
    const res = await fetch(`${svc.origin}/metrics`, { headers: { authorization: `Bearer ${svc.operatorToken}` } });
    expect(res.status).toBe(200);
    const line = new RegExp(`^${name}\\{kind="webhook\\.deliver"\\} (\\d+)$`, 'm').exec(await res.text());
    return Number(line?.[1]);
  };

  const deliveriesTo = (endpointId: string) =>
    svc.services.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status', 'attempts', 'next_attempt_at', 'claimed_by'])
      .where('endpoint_id', '=', endpointId)
      .orderBy('event_id')
      .execute();

  it('sends every event to every endpoint once, records each outcome, and folds each endpoint counter', async () => {
    failing.answer(500);
    for (let i = 0; i < 5; i++) {
      await supplier.api.post(`/offers/${offer}/activate`);
      await supplier.api.post(`/offers/${offer}/deactivate`);
    }
    await svc.drain();
    const events = ok.received.map((r) => r.body.id as string).sort();
    expect(events).toHaveLength(5);
    expect(new Set(events).size).toBe(5);
    expect(failing.received.map((r) => r.body.id).sort()).toEqual(events);
    const retryAt = new Date(svc.clock.now().getTime() + 60_000);
    expect(await deliveriesTo(hooks.ok)).toEqual(
      events.map((event_id) => ({
        event_id,
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: null,
        claimed_by: null,
      })),
    );
    expect(await deliveriesTo(hooks.failing)).toEqual(
      events.map((event_id) => ({
        event_id,
        status: 'pending',
        attempts: 1,
        next_attempt_at: retryAt,
        claimed_by: null,
      })),
    );
    expect((await supplier.api.get(`/webhooks/${hooks.failing}`)).body.consecutive_failures).toBe(5);
    expect((await supplier.api.get(`/webhooks/${hooks.ok}`)).body.consecutive_failures).toBe(0);
    const log = (await supplier.api.get(`/webhook-deliveries?webhook_id=${hooks.failing}&limit=100`)).body.data;
    expect(log.map((a: any) => [a.attempt, a.succeeded, a.response_status])).toEqual(
      Array.from({ length: 5 }, () => [1, false, 500]),
    );

    // the second attempts come on the ladder, with the same event ids; a 2xx ends the streak
    failing.answer(200);
    await svc.advance(59);
    expect(failing.received).toHaveLength(5);
    await svc.advance(1);
    expect(
      failing.received
        .slice(5)
        .map((r) => r.body.id)
        .sort(),
    ).toEqual(events);
    expect((await deliveriesTo(hooks.failing)).map((d) => [d.status, d.attempts, d.next_attempt_at])).toEqual(
      events.map(() => ['succeeded', 2, null]),
    );
    expect((await supplier.api.get(`/webhooks/${hooks.failing}`)).body.consecutive_failures).toBe(0);
    expect(ok.received).toHaveLength(5);
  });

  /** A pending delivery of an offer.deactivated event to the 200 endpoint, written as `extra` says. */
  const pendingDelivery = (
    id: string,
    body: string,
    now: Date,
    extra: { next_attempt_at?: Date; claimed_by?: string },
    endpointId = hooks.ok,
  ) =>
    svc.services.db
      .insertInto('webhook_deliveries')
      .values({
        id,
        event_id: JSON.parse(body).id,
        event_type: 'offer.deactivated',
        supplier_id: supplier.id,
        endpoint_id: endpointId,
        body,
        test_fire: false,
        status: 'pending',
        attempts: 0,
        created_at: now,
        updated_at: now,
        ...extra,
      })
      .execute();

  it('a delivery claimed by an instance that died is sent once its lease runs out, and only then', async () => {
    ok.received.length = 0;
    const now = svc.clock.now();
    const id = newId();
    const body = JSON.stringify({ id: newId(), type: 'offer.deactivated', data: { offer_id: offer } });
    // as the claim of a crashed instance leaves it: due again at the end of its 30 s lease
    await pendingDelivery(id, body, now, {
      next_attempt_at: new Date(now.getTime() + 30_000),
      claimed_by: 'webhooks:gone',
    });
    await svc.drain();
    await svc.advance(29);
    expect(ok.received).toHaveLength(0);
    expect([await deliveryGauge('svc_timers_due'), await deliveryGauge('svc_timers_running')]).toEqual([0, 1]);
    await svc.advance(2);
    expect(ok.received.map((r) => [r.headers['x-svc-delivery-id'], r.raw])).toEqual([[id, body]]);
    const row = await svc.services.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'next_attempt_at', 'claimed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'succeeded', attempts: 1, next_attempt_at: null, claimed_by: null });
    await svc.advance(3600);
    expect(ok.received).toHaveLength(1);
    expect([await deliveryGauge('svc_timers_due'), await deliveryGauge('svc_timers_running')]).toEqual([0, 0]);
  });

  it('an attempt timer written by an instance from before the deliveries had their own due time is handed over and sent', async () => {
    ok.received.length = 0;
    const now = svc.clock.now();
    const id = newId();
    const body = JSON.stringify({ id: newId(), type: 'offer.deactivated', data: { offer_id: offer } });
    // what an instance of the previous version writes: the delivery without a due time, and a timer
    await pendingDelivery(id, body, now, {});
    await svc.services.timers.schedule('webhook.deliver', `${id}:1`, now, { deliveryId: id, attempt: 1 });
    await svc.drain();
    expect(ok.received.map((r) => r.headers['x-svc-delivery-id'])).toEqual([id]);
    const row = await svc.services.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'succeeded', attempts: 1, next_attempt_at: null });
    expect(
      await svc.services.db.selectFrom('timers').select('key').where('kind', '=', 'webhook.deliver').execute(),
    ).toEqual([]);
  });

  it('a fan-out hands what it makes to the sender of its instance: inserted claimed by it, sent without a claim', async () => {
    ok.received.length = 0;
    failing.received.length = 0;
    failing.answer(200);
    // what each delivery row looked like when it was inserted, and every claim made of one
    await sql`
      create table seen_deliveries (id text, claimed_by text, lease_ms double precision, claim boolean);
      create function seen_delivery() returns trigger language plpgsql as $$ begin
        insert into seen_deliveries values (new.id, new.claimed_by,
          extract(epoch from new.next_attempt_at - new.created_at) * 1000, tg_op = 'UPDATE');
        return new;
      end $$;
      create trigger seen_insert after insert on webhook_deliveries for each row execute function seen_delivery();
      create trigger seen_claim after update on webhook_deliveries for each row
        when (old.claimed_by is null and new.claimed_by is not null) execute function seen_delivery();`.execute(
      svc.services.db,
    );
    try {
      await supplier.api.post(`/offers/${offer}/activate`);
      await supplier.api.post(`/offers/${offer}/deactivate`);
      await svc.drain();
      expect([ok.received.length, failing.received.length]).toEqual([1, 1]);
      const seen = await sql<{ claimed_by: string; lease_ms: number; claim: boolean }>`
        select claimed_by, lease_ms, claim from seen_deliveries`.execute(svc.services.db);
      expect(seen.rows).toEqual([
        { claimed_by: expect.stringMatching(/^webhooks:/), lease_ms: 30_000, claim: false },
        { claimed_by: seen.rows[0]?.claimed_by, lease_ms: 30_000, claim: false },
      ]);
      const id = ok.received[0]!.headers['x-svc-delivery-id'] as string;
      expect(
        await svc.services.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'attempts', 'next_attempt_at', 'claimed_by'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ status: 'succeeded', attempts: 1, next_attempt_at: null, claimed_by: null });
    } finally {
      await sql`drop table seen_deliveries cascade;
        drop trigger seen_insert on webhook_deliveries; drop trigger seen_claim on webhook_deliveries;
        drop function seen_delivery;`.execute(svc.services.db);
    }
  });

  it('while new deliveries handed over fill its room, a sender still claims and sends the due ones', async () => {
    ok.received.length = 0;
    // a second sender on the same database, as another instance's: the test's own never runs here
    const sender = new DeliverySender(svc.services.commands, pino({ level: 'silent' }), () => undefined);
    expect(sender.reserve(5_000)).toBe(2_000);
    expect(sender.reserve(1)).toBe(0);
    const now = svc.clock.now();
    const id = newId();
    const body = JSON.stringify({ id: newId(), type: 'offer.deactivated', data: { offer_id: offer } });
    await pendingDelivery(id, body, now, { next_attempt_at: now });
    expect(await sender.runDue({ wait: true })).toBe(1);
    expect(ok.received.map((r) => r.headers['x-svc-delivery-id'])).toEqual([id]);
    // what the fan-out reserved and did not use goes back
    await sender.handOver([], 2_000, true);
    expect(sender.reserve(1)).toBe(1);
    await sender.handOver([], 1, true);
    await sender.settle();
  });

  /** An endpoint whose answers wait until the test lets them go. */
  const holdingEndpoint = async () => {
    const waiting: http.ServerResponse[] = [];
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      waiting.push(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const id = (await supplier.api.post('/webhooks', { url, events: ['offer.deactivated'] })).body.id as string;
    return {
      id,
      requests: () => requests,
      answerAll: () => waiting.splice(0).forEach((res) => res.writeHead(200).end('ok')),
      close: async () => {
        expect((await supplier.api.delete(`/webhooks/${id}`)).status).toBe(204);
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  };
  const bodyOf = () => JSON.stringify({ id: newId(), type: 'offer.deactivated', data: { offer_id: offer } });
  const until = (done: () => boolean) => eventually('the endpoint got the request', done);
  const rowOf = (id: string) =>
    svc.services.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'next_attempt_at', 'claimed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('a sender meeting a delivery it is still sending (its lease ran out on a clock moved ahead) leaves it to that attempt', async () => {
    const endpoint = await holdingEndpoint();
    const sender = new DeliverySender(svc.services.commands, pino({ level: 'silent' }), () => undefined);
    try {
      const id = newId();
      await pendingDelivery(id, bodyOf(), svc.clock.now(), { next_attempt_at: svc.clock.now() }, endpoint.id);
      expect(await sender.runDue({ wait: false })).toBe(1);
      await until(() => endpoint.requests() === 1);
      svc.clock.advance(60);
      // claimed again: on this clock its lease is over
      expect(await sender.runDue({ wait: false })).toBe(1);
      endpoint.answerAll();
      await sender.settle();
      expect(endpoint.requests()).toBe(1);
      expect(await rowOf(id)).toEqual({ status: 'succeeded', attempts: 1, next_attempt_at: null, claimed_by: null });
    } finally {
      endpoint.answerAll();
      await sender.settle();
      await endpoint.close();
    }
  });

  it('leases are renewed for the deliveries held, not for a claimed row whose outcome was not written', async () => {
    const endpoint = await holdingEndpoint();
    const sender = new DeliverySender(svc.services.commands, pino({ level: 'silent' }), () => undefined);
    try {
      const t0 = svc.clock.now();
      const [held, dropped] = [newId(), newId()];
      await pendingDelivery(held, bodyOf(), t0, { next_attempt_at: t0 }, endpoint.id);
      expect(await sender.runDue({ wait: false })).toBe(1);
      await until(() => endpoint.requests() === 1);
      // as a failed outcome write leaves a row: still claimed by this sender, held by nothing
      await pendingDelivery(dropped, bodyOf(), t0, {
        next_attempt_at: new Date(t0.getTime() + 30_000),
        claimed_by: sender.instance,
      });
      svc.clock.advance(20);
      await (sender as unknown as { renew(): Promise<void> }).renew();
      expect((await rowOf(held)).next_attempt_at).toEqual(new Date(t0.getTime() + 50_000));
      expect((await rowOf(dropped)).next_attempt_at).toEqual(new Date(t0.getTime() + 30_000));
    } finally {
      endpoint.answerAll();
      await sender.settle();
      await endpoint.close();
    }
  });

  it('a sender that began to stop takes no hand-over: the rows wait for their lease to run out', async () => {
    ok.received.length = 0;
    const sender = new DeliverySender(svc.services.commands, pino({ level: 'silent' }), () => undefined);
    expect(sender.reserve(1)).toBe(1);
    const stopped = sender.settle();
    expect(sender.reserve(1)).toBe(0);
    const now = svc.clock.now();
    const id = newId();
    const body = bodyOf();
    // what the fan-out that reserved before the stop inserted: claimed by this sender
    await pendingDelivery(id, body, now, {
      next_attempt_at: new Date(now.getTime() + 30_000),
      claimed_by: sender.instance,
    });
    await sender.handOver(
      [
        {
          id,
          event_id: JSON.parse(body).id,
          event_type: 'offer.deactivated',
          supplier_id: supplier.id,
          endpoint_id: hooks.ok,
          body,
          attempts: 0,
        },
      ],
      1,
      true,
    );
    await stopped;
    expect(ok.received).toHaveLength(0);
    expect(await rowOf(id)).toMatchObject({ status: 'pending', attempts: 0, claimed_by: sender.instance });
  });
});
