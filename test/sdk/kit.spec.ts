import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSupplierKit, type SupplierKit, type SupplierKitOptions } from '../../src/sdk/kit/index.js';

// The test signs on its own, straight from the spec: hex(hmac_sha256(secret, timestamp + "." + raw_body)).
const SECRET = `svcsec_${'a1'.repeat(16)}`;
const OLD_SECRET = `svcsec_${'b2'.repeat(16)}`;
const OFFER = 'offer-1';
const hmac = (secret: string, timestamp: string, raw: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');

let t = Date.parse('2026-03-01T12:00:00.000Z');
const clock = () => t;
const iso = (ms: number) => new Date(ms).toISOString();

interface CallOptions {
  secret?: string;
  timestamp?: string | null;
  signature?: string | null;
  raw?: string;
  offerId?: string | null;
  timeoutMs?: number;
}

interface Reply {
  status: number;
  body: any;
  text: string;
}

const call = async (
  kit: SupplierKit,
  method: string,
  p: string,
  body?: unknown,
  o: CallOptions = {},
): Promise<Reply> => {
  const raw = o.raw ?? (body === undefined ? '' : JSON.stringify(body));
  const ts = o.timestamp === undefined ? String(clock()) : o.timestamp;
  const headers: Record<string, string> = { 'user-agent': 'service-fulfilment/1.0' };
  if (o.offerId !== null) headers['x-svc-offer-id'] = o.offerId ?? OFFER;
  if (ts !== null) headers['x-svc-timestamp'] = ts;
  const sig = o.signature === undefined ? `v1=${hmac(o.secret ?? SECRET, ts ?? '', raw)}` : o.signature;
  if (sig !== null) headers['x-svc-signature'] = sig;
  if (raw !== '') headers['content-type'] = 'application/json';
  const res = await request(`${kit.url}${p}`, {
    method: method as 'GET',
    headers,
    body: raw === '' ? undefined : raw,
    signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
  });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, body: parsed, text };
};

const reservation = (id: string, extra: Record<string, unknown> = {}) => ({
  reservation_id: id,
  offer_id: OFFER,
  external_ref: 'SKU-1',
  product_id: 'prod-1',
  quantity: 1,
  buyer_country: 'DE',
  expires_at: iso(t + 15 * 60_000),
  ...extra,
});

const order = (id: string, reservationId: string, extra: Record<string, unknown> = {}) => ({
  order_id: id,
  reservation_id: reservationId,
  offer_id: OFFER,
  external_ref: 'SKU-1',
  quantity: 1,
  unit_price: { amount: 1000, currency: 'EUR' },
  buyer_country: 'DE',
  ...extra,
});

const validate = (op: string, userId: string, extra: Record<string, unknown> = {}) => ({
  operation_id: op,
  offer_id: OFFER,
  external_ref: 'TOPUP-1',
  product_id: 'prod-topup',
  quantity: 1,
  buyer_country: 'DE',
  form_fields: { user_id: userId },
  ...extra,
});

const execute = (op: string, userId: string, extra: Record<string, unknown> = {}) => ({
  operation_id: op,
  order_id: `order-${op}`,
  offer_id: OFFER,
  external_ref: 'TOPUP-1',
  quantity: 1,
  form_fields: { user_id: userId },
  ...extra,
});

const PNG = {
  kind: 'file' as const,
  file_name: 'card.png',
  content_type: 'image/png' as const,
  content_base64: Buffer.from('png-bytes').toString('base64'),
};

let kit: SupplierKit;
const start = async (options: Partial<SupplierKitOptions> = {}) => {
  kit = await startSupplierKit({
    secrets: [SECRET],
    now: clock,
    stock: { 'SKU-1': ['K1', 'K2', 'K3'], 'SKU-FILE': [PNG] },
    ...options,
  });
  return kit;
};

beforeEach(() => {
  t = Date.parse('2026-03-01T12:00:00.000Z');
});
afterEach(async () => {
  await kit?.close();
});

/** Reserve and order one key; returns the order id. */
const reserveAndOrder = async (id: string, extra: Record<string, unknown> = {}) => {
  expect((await call(kit, 'POST', '/reservations', reservation(`r-${id}`, extra))).status).toBe(201);
  const placed = await call(kit, 'POST', '/orders', order(id, `r-${id}`, extra));
  expect(placed.status).toBe(201);
  return id;
};

describe('signatures', () => {
  beforeEach(() => start());

  it('accepts a correctly signed call and records method, path, headers and body', async () => {
    const r = await call(kit, 'POST', '/reservations', reservation('r1'));
    expect(r.status).toBe(201);
    const rec = kit.received.at(-1)!;
    expect(rec).toMatchObject({
      method: 'POST',
      path: '/reservations',
      route: 'POST /reservations',
      offerId: OFFER,
      userAgent: 'service-fulfilment/1.0',
      signature: 'ok',
      status: 201,
    });
    expect(rec.body).toEqual(reservation('r1'));
    expect(rec.headers['x-svc-timestamp']).toBe(String(t));
  });

  it.each([
    ['missing signature', { signature: null }, 'missing_signature'],
    ['missing timestamp', { timestamp: null }, 'missing_timestamp'],
    ['wrong secret', { secret: `svcsec_${'0'.repeat(32)}` }, 'signature_mismatch'],
    ['non-digit timestamp', { timestamp: `${Date.parse('2026-03-01T12:00:00.000Z')}a` }, 'invalid_timestamp'],
    ['negative timestamp', { timestamp: '-1' }, 'invalid_timestamp'],
    ['decimal timestamp', { timestamp: `${Date.parse('2026-03-01T12:00:00.000Z')}.5` }, 'invalid_timestamp'],
    [
      'stale timestamp (300001 ms old)',
      { timestamp: String(Date.parse('2026-03-01T12:00:00.000Z') - 300_001) },
      'stale_timestamp',
    ],
    [
      'timestamp 300001 ms ahead',
      { timestamp: String(Date.parse('2026-03-01T12:00:00.000Z') + 300_001) },
      'stale_timestamp',
    ],
  ] as const)('rejects %s with 401', async (_name, o, reason) => {
    const r = await call(kit, 'POST', '/reservations', reservation('r1'), o);
    expect(r.status).toBe(401);
    expect(kit.received.at(-1)!.signature).toBe(reason);
    expect(kit.state.reservations).toEqual({});
  });

  it('rejects a signature with an unknown scheme only, even when its value is the right HMAC', async () => {
    const raw = JSON.stringify(reservation('r1'));
    const r = await call(kit, 'POST', '/reservations', undefined, {
      raw,
      signature: `v2=${hmac(SECRET, String(t), raw)}`,
    });
    expect(r.status).toBe(401);
    expect(kit.received.at(-1)!.signature).toBe('no_v1_signature');
  });

  it('ignores unknown schemes beside a valid v1 entry', async () => {
    const raw = JSON.stringify(reservation('r1'));
    const r = await call(kit, 'POST', '/reservations', undefined, {
      raw,
      signature: `v2=${'f'.repeat(64)},v1=${hmac(SECRET, String(t), raw)}`,
    });
    expect(r.status).toBe(201);
  });

  it('accepts a timestamp exactly 300000 ms old', async () => {
    const ts = String(t - 300_000);
    expect((await call(kit, 'POST', '/reservations', reservation('r1'), { timestamp: ts })).status).toBe(201);
  });

  it('signs the raw bytes: a body signed before re-serialization does not verify', async () => {
    const signedRaw = JSON.stringify(reservation('r1'), null, 2);
    const sentRaw = JSON.stringify(reservation('r1'));
    const r = await call(kit, 'POST', '/reservations', undefined, {
      raw: sentRaw,
      signature: `v1=${hmac(SECRET, String(t), signedRaw)}`,
    });
    expect(r.status).toBe(401);
    // and the pretty-printed bytes themselves verify
    expect((await call(kit, 'POST', '/reservations', undefined, { raw: signedRaw })).status).toBe(201);
  });

  it('accepts either secret during a rotation, and a header carrying one v1 entry per secret', async () => {
    await kit.close();
    await start({ secrets: [SECRET, OLD_SECRET] });
    expect((await call(kit, 'POST', '/reservations', reservation('r1'), { secret: OLD_SECRET })).status).toBe(201);
    expect((await call(kit, 'POST', '/reservations', reservation('r2'), { secret: SECRET })).status).toBe(201);
    const raw = JSON.stringify(reservation('r3'));
    const both = `v1=${hmac(`svcsec_${'c3'.repeat(16)}`, String(t), raw)},v1=${hmac(OLD_SECRET, String(t), raw)}`;
    expect((await call(kit, 'POST', '/reservations', undefined, { raw, signature: both })).status).toBe(201);
    kit.setSecrets([SECRET]); // the old one retired
    expect((await call(kit, 'POST', '/reservations', reservation('r4'), { secret: OLD_SECRET })).status).toBe(401);
  });

  it('checks every route but the healthcheck', async () => {
    for (const [method, p, body] of [
      ['DELETE', '/reservations/x', undefined],
      ['POST', '/orders', order('o', 'r')],
      ['GET', '/orders/o/items', undefined],
      ['DELETE', '/orders/o/items', undefined],
      ['POST', '/topup/validate', validate('op', '100001')],
      ['POST', '/topup/execute', execute('op', '100001')],
      ['GET', '/topup/operations/op', undefined],
    ] as const) {
      expect((await call(kit, method, p, body, { signature: null })).status, `${method} ${p}`).toBe(401);
    }
    expect((await call(kit, 'GET', '/healthcheck', undefined, { signature: null, timestamp: null })).status).toBe(200);
    expect(kit.received.at(-1)!.signature).toBe('skipped');
  });

  it('with offerId set, refuses calls for another offer', async () => {
    await kit.close();
    await start({ offerId: OFFER });
    expect((await call(kit, 'POST', '/reservations', reservation('r1'), { offerId: 'other' })).status).toBe(403);
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(201);
  });
});

describe('declared stock', () => {
  beforeEach(() => start());

  it('healthcheck: 200 {status: ok}, no side effects', async () => {
    const before = JSON.stringify(kit.state);
    const r = await call(kit, 'GET', '/healthcheck');
    expect(r).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(JSON.stringify(kit.state)).toBe(before);
  });

  it('POST /reservations: 201 holds keys, 200 replays the same body, 409 out_of_stock', async () => {
    const body = reservation('r1', { quantity: 2 });
    const first = await call(kit, 'POST', '/reservations', body);
    expect(first).toMatchObject({ status: 201, body: { reservation_id: 'r1', expires_at: body.expires_at } });
    expect(kit.state.stock['SKU-1']).toHaveLength(1);
    const replay = await call(kit, 'POST', '/reservations', body);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(kit.state.stock['SKU-1']).toHaveLength(1);
    const out = await call(kit, 'POST', '/reservations', reservation('r2', { quantity: 2 }));
    expect(out).toMatchObject({ status: 409, body: { code: 'out_of_stock' } });
    expect((await call(kit, 'POST', '/reservations', reservation('r3', { external_ref: 'UNKNOWN' }))).body).toEqual({
      code: 'out_of_stock',
    });
  });

  it('POST /reservations: 409 region_blocked for a blocked buyer country', async () => {
    await kit.close();
    await start({ blockedCountries: ['RU'] });
    expect(await call(kit, 'POST', '/reservations', reservation('r1', { buyer_country: 'RU' }))).toMatchObject({
      status: 409,
      body: { code: 'region_blocked' },
    });
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
  });

  it('honors expires_at with the kit clock: keys come back and the order gets 410', async () => {
    await call(kit, 'POST', '/reservations', reservation('r1', { quantity: 3 }));
    expect(kit.state.stock['SKU-1']).toHaveLength(0);
    t += 15 * 60_000;
    const r = await call(kit, 'POST', '/orders', order('o1', 'r1', { quantity: 3 }));
    expect(r).toMatchObject({ status: 410, body: { code: 'reservation_expired' } });
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
    expect(kit.state.reservations.r1!.status).toBe('expired');
  });

  it('DELETE /reservations/{id} releases the keys early', async () => {
    await call(kit, 'POST', '/reservations', reservation('r1'));
    expect(await call(kit, 'DELETE', '/reservations/r1')).toMatchObject({
      status: 200,
      body: { reservation_id: 'r1', released: 1 },
    });
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
    expect(await call(kit, 'DELETE', '/reservations/r1')).toMatchObject({ status: 200, body: { released: 0 } });
    expect((await call(kit, 'POST', '/orders', order('o1', 'r1'))).status).toBe(410);
  });

  it('POST /orders: 201 accepted, 409 with exactly the original body, 410 for an unknown reservation', async () => {
    await call(kit, 'POST', '/reservations', reservation('r1'));
    const first = await call(kit, 'POST', '/orders', order('o1', 'r1'));
    expect(first).toMatchObject({ status: 201, body: { order_id: 'o1', status: 'accepted' } });
    const dup = await call(kit, 'POST', '/orders', order('o1', 'r1'));
    expect(dup.status).toBe(409);
    expect(dup.text).toBe(first.text);
    expect(Object.keys(kit.state.orders)).toEqual(['o1']);
    expect(await call(kit, 'POST', '/orders', order('o2', 'nope'))).toMatchObject({
      status: 410,
      body: { code: 'reservation_expired' },
    });
  });

  it('GET /orders/{id}/items: pending while allocating, then exactly quantity items, the same on every poll', async () => {
    await kit.close();
    await start({ allocationDelayMs: 30_000 });
    await call(kit, 'POST', '/reservations', reservation('r1', { quantity: 2 }));
    await call(kit, 'POST', '/orders', order('o1', 'r1', { quantity: 2 }));
    expect(await call(kit, 'GET', '/orders/o1/items')).toMatchObject({
      status: 200,
      body: { order_id: 'o1', status: 'pending', items: [] },
    });
    t += 29_999;
    expect((await call(kit, 'GET', '/orders/o1/items')).body.status).toBe('pending');
    t += 1;
    const ready = await call(kit, 'GET', '/orders/o1/items');
    expect(ready.body).toEqual({
      order_id: 'o1',
      status: 'ready',
      items: [
        { kind: 'text', value: 'K1' },
        { kind: 'text', value: 'K2' },
      ],
    });
    t += 3_600_000;
    expect((await call(kit, 'GET', '/orders/o1/items')).text).toBe(ready.text);
    expect(kit.state.orders.o1!.polls).toBe(4);
    expect(await call(kit, 'GET', '/orders/unknown/items')).toMatchObject({ status: 404 });
  });

  it('hands over file items in the spec shape', async () => {
    await call(kit, 'POST', '/reservations', reservation('r1', { external_ref: 'SKU-FILE' }));
    await call(kit, 'POST', '/orders', order('o1', 'r1', { external_ref: 'SKU-FILE' }));
    expect((await call(kit, 'GET', '/orders/o1/items')).body.items).toEqual([PNG]);
  });

  it('manual allocation: pending until markReady', async () => {
    await kit.close();
    await start({ manualAllocation: true });
    await reserveAndOrder('o1');
    t += 3_600_000;
    expect((await call(kit, 'GET', '/orders/o1/items')).body.status).toBe('pending');
    kit.markReady('o1');
    expect((await call(kit, 'GET', '/orders/o1/items')).body).toMatchObject({
      status: 'ready',
      items: [{ kind: 'text', value: 'K1' }],
    });
    expect(() => kit.markReady('nope')).toThrow();
  });

  it('DELETE /orders/{id}/items: 200 returned n, keys withheld (410 afterwards) and back in stock', async () => {
    await call(kit, 'POST', '/reservations', reservation('r1', { quantity: 2 }));
    await call(kit, 'POST', '/orders', order('o1', 'r1', { quantity: 2 }));
    expect(kit.state.stock['SKU-1']).toHaveLength(1);
    expect(await call(kit, 'DELETE', '/orders/o1/items')).toMatchObject({
      status: 200,
      body: { order_id: 'o1', returned: 2 },
    });
    expect(await call(kit, 'GET', '/orders/o1/items')).toMatchObject({
      status: 410,
      body: { code: 'order_cancelled' },
    });
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
    expect(await call(kit, 'DELETE', '/orders/o1/items')).toMatchObject({ status: 200, body: { returned: 2 } });
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
    expect(() => kit.markReady('o1')).toThrow();
  });

  it('DELETE /orders/{id}/items before the order arrived: returned 0, and that order is never taken', async () => {
    expect(await call(kit, 'DELETE', '/orders/o9/items')).toMatchObject({
      status: 200,
      body: { order_id: 'o9', returned: 0 },
    });
    await call(kit, 'POST', '/reservations', reservation('r9'));
    expect((await call(kit, 'POST', '/orders', order('o9', 'r9'))).status).toBe(410);
    expect((await call(kit, 'GET', '/orders/o9/items')).status).toBe(410);
  });

  it('DELETE /orders/{id}/items answers 405 when returns are unsupported', async () => {
    await kit.close();
    await start({ supportsItemReturn: false });
    await reserveAndOrder('o1');
    expect((await call(kit, 'DELETE', '/orders/o1/items')).status).toBe(405);
    expect((await call(kit, 'GET', '/orders/o1/items')).body.status).toBe('ready');
  });

  it('without stock configured, generates keys without limit', async () => {
    await kit.close();
    kit = await startSupplierKit({ secrets: [SECRET], now: clock });
    await call(kit, 'POST', '/reservations', reservation('r1', { quantity: 50 }));
    await call(kit, 'POST', '/orders', order('o1', 'r1', { quantity: 50 }));
    const items = (await call(kit, 'GET', '/orders/o1/items')).body.items;
    expect(items).toHaveLength(50);
    expect(new Set(items.map((i: { value: string }) => i.value)).size).toBe(50);
  });

  it('answers 404, 405, 400 and 422 for unknown paths, wrong methods, bad JSON and missing fields', async () => {
    expect((await call(kit, 'GET', '/nope')).status).toBe(404);
    expect((await call(kit, 'GET', '/reservations')).status).toBe(405);
    expect(await call(kit, 'POST', '/orders', undefined, { raw: '{"order_id":' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_json' },
    });
    expect(await call(kit, 'POST', '/orders', { order_id: 'x' })).toMatchObject({
      status: 422,
      body: { code: 'invalid_request' },
    });
  });
});

describe('top-up', () => {
  beforeEach(() =>
    start({
      topupAccounts: {
        '200001': { label: 'Server-bound', servers: ['eu-1'] },
        '200002': { label: 'Banned', eligible: false },
        '200003': { label: 'Small', maxQuantity: 1 },
      },
    }),
  );

  it('validate: valid with account_label, every invalid code, and no side effects', async () => {
    expect(await call(kit, 'POST', '/topup/validate', validate('op1', '100001'))).toMatchObject({
      status: 200,
      body: { operation_id: 'op1', valid: true, account_label: 'Sandbox player 100001' },
    });
    const invalid = async (body: unknown) => (await call(kit, 'POST', '/topup/validate', body)).body;
    expect(await invalid(validate('op2', '999999'))).toEqual({
      operation_id: 'op2',
      valid: false,
      code: 'invalid_user_id',
      message: expect.any(String),
    });
    expect(
      (await invalid(validate('op3', '200001', { form_fields: { user_id: '200001', server: 'us-9' } }))).code,
    ).toBe('invalid_server');
    expect(
      (
        await call(
          kit,
          'POST',
          '/topup/validate',
          validate('op3', '200001', { form_fields: { user_id: '200001', server: 'eu-1' } }),
        )
      ).body.valid,
    ).toBe(true);
    expect((await invalid(validate('op4', '200002'))).code).toBe('account_ineligible');
    expect((await invalid(validate('op5', '200003', { quantity: 2 }))).code).toBe('limit_exceeded');
    kit.faults.set('POST /topup/validate', {
      kind: 'validate_invalid',
      code: 'other',
      message: 'maintenance',
      times: 1,
    });
    expect(await invalid(validate('op6', '100001'))).toEqual({
      operation_id: 'op6',
      valid: false,
      code: 'other',
      message: 'maintenance',
    });
    expect((await invalid(validate('op7', '100001'))).valid).toBe(true);
    expect(kit.state.operations).toEqual({});
    expect(kit.state.topups_performed).toBe(0);
  });

  it('execute: 201 completed with a receipt_ref, 200 replay of the original body, one top-up', async () => {
    const first = await call(kit, 'POST', '/topup/execute', execute('op1', '100001'));
    expect(first).toMatchObject({
      status: 201,
      body: { operation_id: 'op1', status: 'completed', receipt_ref: expect.any(String) },
    });
    expect(first.body.receipt_ref.length).toBeLessThanOrEqual(128);
    const replay = await call(kit, 'POST', '/topup/execute', execute('op1', '100001'));
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(kit.state.operations.op1).toMatchObject({ executions: 1, calls: 2 });
    expect(kit.state.topups_performed).toBe(1);
  });

  it('777777: the first answer is discarded and the retry is a 200 replay; the top-up happens once', async () => {
    expect((await call(kit, 'POST', '/topup/validate', validate('op7', '777777'))).body.valid).toBe(true);
    await call(kit, 'POST', '/topup/execute', execute('op7', '777777')); // answer thrown away
    const retry = await call(kit, 'POST', '/topup/execute', execute('op7', '777777'));
    expect(retry).toMatchObject({ status: 200, body: { operation_id: 'op7', status: 'completed' } });
    expect(kit.state.operations.op7).toMatchObject({ executions: 1, calls: 2 });
    expect(kit.state.topups_performed).toBe(1);
  });

  it('an answer lost after the top-up (hang with process): the retry replays, still one top-up', async () => {
    kit.faults.set('POST /topup/execute', { kind: 'hang', process: true, times: 1 });
    await expect(call(kit, 'POST', '/topup/execute', execute('op1', '100001'), { timeoutMs: 200 })).rejects.toThrow();
    const retry = await call(kit, 'POST', '/topup/execute', execute('op1', '100001'));
    expect(retry).toMatchObject({ status: 200, body: { status: 'completed' } });
    expect(kit.state.operations.op1!.executions).toBe(1);
  });

  it('888888: validates, then execute ends failed / topup_failed without a top-up; replays repeat it', async () => {
    expect((await call(kit, 'POST', '/topup/validate', validate('op8', '888888'))).body.valid).toBe(true);
    const failed = await call(kit, 'POST', '/topup/execute', execute('op8', '888888'));
    expect(failed).toMatchObject({
      status: 201,
      body: { operation_id: 'op8', status: 'failed', code: 'topup_failed', message: expect.any(String) },
    });
    const replay = await call(kit, 'POST', '/topup/execute', execute('op8', '888888'));
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(failed.text);
    expect(kit.state.operations.op8!.executions).toBe(0);
    expect(kit.state.topups_performed).toBe(0);
  });

  it('topup_failed fault: definitive failure answered 200', async () => {
    kit.faults.set('POST /topup/execute', {
      kind: 'topup_failed',
      code: 'account_banned',
      message: 'banned',
      status: 200,
      times: 1,
    });
    expect(await call(kit, 'POST', '/topup/execute', execute('op1', '100001'))).toMatchObject({
      status: 200,
      body: { operation_id: 'op1', status: 'failed', code: 'account_banned', message: 'banned' },
    });
    expect(kit.faults.get('POST /topup/execute')).toBeUndefined();
    expect((await call(kit, 'POST', '/topup/execute', execute('op2', '100001'))).status).toBe(201);
  });

  it('execute for an account that does not validate fails definitively', async () => {
    expect((await call(kit, 'POST', '/topup/execute', execute('op1', '999999'))).body).toMatchObject({
      status: 'failed',
      code: 'invalid_user_id',
    });
  });

  it('202 processing, polled on GET /topup/operations/{id}, settles on the kit clock', async () => {
    kit.faults.set('POST /topup/execute', { kind: 'topup_processing', settleAfterMs: 60_000 });
    expect(await call(kit, 'POST', '/topup/execute', execute('op1', '100001'))).toMatchObject({
      status: 202,
      body: { operation_id: 'op1', status: 'processing' },
    });
    expect(await call(kit, 'GET', '/topup/operations/op1')).toMatchObject({
      status: 200,
      body: { operation_id: 'op1', status: 'processing' },
    });
    expect((await call(kit, 'POST', '/topup/execute', execute('op1', '100001'))).status).toBe(202); // replay while processing
    expect(kit.state.operations.op1!.executions).toBe(0);
    t += 60_000;
    const done = await call(kit, 'GET', '/topup/operations/op1');
    expect(done.body).toEqual({ operation_id: 'op1', status: 'completed', receipt_ref: expect.any(String) });
    const replay = await call(kit, 'POST', '/topup/execute', execute('op1', '100001'));
    expect(replay).toMatchObject({ status: 200, body: done.body });
    expect(kit.state.operations.op1).toMatchObject({ executions: 1, calls: 3 });
    expect(await call(kit, 'GET', '/topup/operations/unknown')).toMatchObject({ status: 404 });
  });

  it('processing settled by hand as failed', async () => {
    kit.faults.set('POST /topup/execute', { kind: 'topup_processing' });
    await call(kit, 'POST', '/topup/execute', execute('op1', '100001'));
    t += 3_600_000;
    expect((await call(kit, 'GET', '/topup/operations/op1')).body.status).toBe('processing');
    kit.settleOperation('op1', { code: 'topup_failed', message: 'provider down' });
    expect((await call(kit, 'GET', '/topup/operations/op1')).body).toEqual({
      operation_id: 'op1',
      status: 'failed',
      code: 'topup_failed',
      message: 'provider down',
    });
    expect(() => kit.settleOperation('op1')).toThrow();
    expect(kit.state.topups_performed).toBe(0);
  });
});

describe('faults', () => {
  beforeEach(() => start());

  it('delay: answers normally, late', async () => {
    kit.faults.set('POST /reservations', { kind: 'delay', ms: 300 });
    const started = performance.now();
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('delay beyond the caller timeout: the caller gives up, the work still happens', async () => {
    kit.faults.set('POST /reservations', { kind: 'delay', ms: 400, times: 1 });
    await expect(call(kit, 'POST', '/reservations', reservation('r1'), { timeoutMs: 100 })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 450));
    expect(kit.state.reservations.r1!.status).toBe('held');
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(200);
  });

  it('status 5xx with times: the next N calls only, without side effects', async () => {
    kit.faults.set('POST /reservations', { kind: 'status', status: 503, times: 2 });
    expect(kit.faults.get('POST /reservations')).toMatchObject({ kind: 'status', remaining: 2 });
    expect(await call(kit, 'POST', '/reservations', reservation('r1'))).toMatchObject({
      status: 503,
      body: { code: 'fault_injected' },
    });
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(503);
    expect(kit.state.reservations).toEqual({});
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(201);
    expect(kit.faults.get('POST /reservations')).toBeUndefined();
  });

  it('status with a custom body, and process: true keeps the side effect', async () => {
    kit.faults.set('POST /orders', { kind: 'status', status: 500, body: { oops: true }, process: true, times: 1 });
    await call(kit, 'POST', '/reservations', reservation('r1'));
    expect(await call(kit, 'POST', '/orders', order('o1', 'r1'))).toMatchObject({ status: 500, body: { oops: true } });
    expect(kit.state.orders.o1).toBeDefined();
    expect(await call(kit, 'POST', '/orders', order('o1', 'r1'))).toMatchObject({
      status: 409,
      body: { order_id: 'o1', status: 'accepted' },
    });
  });

  it('a signature rejection does not use up a fault', async () => {
    kit.faults.set('POST /reservations', { kind: 'status', status: 500, times: 1 });
    expect((await call(kit, 'POST', '/reservations', reservation('r1'), { signature: null })).status).toBe(401);
    expect((await call(kit, 'POST', '/reservations', reservation('r1'))).status).toBe(500);
  });

  it('hang: no answer until the kit closes', async () => {
    kit.faults.set('GET /orders/:id/items', { kind: 'hang' });
    await expect(call(kit, 'GET', '/orders/o1/items', undefined, { timeoutMs: 150 })).rejects.toThrow();
    expect(kit.received.at(-1)!.status).toBeUndefined();
    const pending = call(kit, 'GET', '/orders/o1/items', undefined, { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    await kit.close();
    await expect(pending).rejects.toThrow();
  });

  it('malformed JSON body', async () => {
    kit.faults.set('GET /orders/:id/items', { kind: 'malformed' });
    const r = await call(kit, 'GET', '/orders/o1/items');
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('wrong item count on ready (and only once ready)', async () => {
    await reserveAndOrder('o1');
    kit.faults.set('GET /orders/:id/items', { kind: 'wrong_count', delta: 1, times: 1 });
    const wrong = await call(kit, 'GET', '/orders/o1/items');
    expect(wrong.body.status).toBe('ready');
    expect(wrong.body.items).toHaveLength(2);
    expect((await call(kit, 'GET', '/orders/o1/items')).body.items).toEqual([{ kind: 'text', value: 'K1' }]);
    kit.faults.set('GET /orders/:id/items', { kind: 'wrong_count', delta: -1 });
    expect((await call(kit, 'GET', '/orders/o1/items')).body.items).toEqual([]);
  });

  it('stay_pending keeps items pending', async () => {
    await reserveAndOrder('o1');
    kit.faults.set('GET /orders/:id/items', { kind: 'stay_pending', times: 1 });
    expect((await call(kit, 'GET', '/orders/o1/items')).body).toEqual({ order_id: 'o1', status: 'pending', items: [] });
    expect((await call(kit, 'GET', '/orders/o1/items')).body.status).toBe('ready');
  });

  it('202 pending_stock: the order is taken; its duplicate repeats the pending_stock body', async () => {
    kit.faults.set('POST /orders', { kind: 'pending_stock', times: 1 });
    await call(kit, 'POST', '/reservations', reservation('r1'));
    const first = await call(kit, 'POST', '/orders', order('o1', 'r1'));
    expect(first).toMatchObject({ status: 202, body: { order_id: 'o1', status: 'pending_stock' } });
    const dup = await call(kit, 'POST', '/orders', order('o1', 'r1'));
    expect(dup.status).toBe(409);
    expect(dup.text).toBe(first.text);
    expect((await call(kit, 'GET', '/orders/o1/items')).body.status).toBe('ready');
  });

  it('410 reservation_expired: the reservation is gone, a fresh cycle works', async () => {
    kit.faults.set('POST /orders', { kind: 'reservation_expired', times: 1 });
    await call(kit, 'POST', '/reservations', reservation('r1'));
    expect(await call(kit, 'POST', '/orders', order('o1', 'r1'))).toMatchObject({
      status: 410,
      body: { code: 'reservation_expired' },
    });
    expect(kit.state.reservations.r1!.status).toBe('expired');
    expect(kit.state.stock['SKU-1']).toHaveLength(3);
    await call(kit, 'POST', '/reservations', reservation('r2'));
    expect((await call(kit, 'POST', '/orders', order('o1', 'r2'))).status).toBe(201);
  });

  it('slow healthcheck and healthcheck 503', async () => {
    kit.faults.set('GET /healthcheck', { kind: 'delay', ms: 250, times: 1 });
    const started = performance.now();
    expect((await call(kit, 'GET', '/healthcheck')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    kit.faults.set('GET /healthcheck', { kind: 'status', status: 503 });
    expect((await call(kit, 'GET', '/healthcheck')).status).toBe(503);
    kit.faults.clear();
    expect((await call(kit, 'GET', '/healthcheck')).status).toBe(200);
  });

  it('delayMs on a fault delays its answer', async () => {
    kit.faults.set('POST /topup/execute', { kind: 'topup_failed', delayMs: 200 });
    const started = performance.now();
    expect((await call(kit, 'POST', '/topup/execute', execute('op1', '100001'))).body.status).toBe('failed');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('refuses a fault that does not fit its route', () => {
    expect(() => kit.faults.set('GET /healthcheck', { kind: 'pending_stock' })).toThrow(/does not apply/);
    expect(() => kit.faults.set('POST /orders', { kind: 'status', status: 500, times: 0 })).toThrow();
  });
});

describe('stock file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps keys and state in the file across a restart', async () => {
    const file = path.join(dir, 'stock.json');
    writeFileSync(file, JSON.stringify({ stock: { 'SKU-1': ['F1', 'F2'] } }));
    kit = await startSupplierKit({ secrets: [SECRET], now: clock, stock: file });
    await reserveAndOrder('o1');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.stock['SKU-1']).toEqual([{ kind: 'text', value: 'F2' }]);
    expect(saved.orders.o1.items).toEqual([{ kind: 'text', value: 'F1' }]);
    await kit.close();
    kit = await startSupplierKit({ secrets: [SECRET], now: clock, stock: file });
    expect((await call(kit, 'POST', '/orders', order('o1', 'r-o1'))).status).toBe(409);
    expect((await call(kit, 'GET', '/orders/o1/items')).body.items).toEqual([{ kind: 'text', value: 'F1' }]);
    expect(await call(kit, 'POST', '/reservations', reservation('r2', { quantity: 2 }))).toMatchObject({
      status: 409,
      body: { code: 'out_of_stock' },
    });
  });

  it('refuses a missing file and invalid items', async () => {
    await expect(startSupplierKit({ secrets: [SECRET], stock: path.join(dir, 'none.json') })).rejects.toThrow(
      /does not exist/,
    );
    await expect(startSupplierKit({ secrets: [SECRET], stock: { X: [''] } })).rejects.toThrow(/1 to 1,024/);
  });
});
