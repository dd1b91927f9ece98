import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { newWitnessKey, witnessKey } from '../../src/sdk/index.js';
import { type Fulfilment, startFulfilment, textKeys } from '../offers/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { type Answer, request } from '../support/http.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';

// a CommonJS module: its default export arrives wrapped once more under ESM
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;
const eur = (amount: number) => ({ amount, currency: 'EUR' });
const DOC_ID = 'https://marketplace.invalid/openapi.json';

/** A copy without the `$id`/`$schema` markers zod leaves on components (ajv resolves refs from the document root instead). */
const withoutIds = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(withoutIds)
    : typeof node === 'object' && node !== null
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([k, v]) => !((k === '$id' || k === '$schema') && typeof v === 'string'))
            .map(([k, v]) => [k, withoutIds(v)]),
        )
      : node;

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Every operation of the OpenAPI document, called over a real socket: at least one success
 * and one problem each, and every answer checked against the document with a JSON Schema
 * 2020-12 validator (status declared, media type, body).
 */
describe('the OpenAPI document describes every answer', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let fulfilment: Fulfilment;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let kit: SupplierKit | undefined;
  let doc: any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const seen = new Map<string, Set<number>>();

  const validatorFor = (method: string, template: string, status: number, type: string) =>
    ajv.getSchema(
      `${DOC_ID}#/${pointer('paths', template, method.toLowerCase(), 'responses', String(status), 'content', type, 'schema')}`,
    )!;

  const check = (method: string, template: string, res: Answer) => {
    const route = `${method} ${template}`;
    const op = doc.paths[template]?.[method.toLowerCase()];
    expect(op, `${route} is documented`).toBeDefined();
    const answer = op.responses[String(res.status)];
    expect(answer, `${route} answered ${res.status}, which the document does not declare: ${res.text}`).toBeDefined();
    if (answer.content) {
      // the answer's own media type must be one the document lists for its status
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      expect(Object.keys(answer.content), `${route} ${res.status}: media type`).toContain(type);
      const validate = validatorFor(method, template, res.status, type);
      const ok = validate(type.endsWith('json') ? res.body : res.text);
      expect(ok, `${route} ${res.status}: ${JSON.stringify(validate.errors)} in ${res.text.slice(0, 500)}`).toBe(true);
    } else expect(res.text, route).toBe('');
    for (const header of Object.keys(answer.headers ?? {}))
      if (header !== 'retry-after' || res.status === 429)
        expect(res.headers.get(header), `${route} ${header}`).not.toBeNull();
    seen.set(route, (seen.get(route) ?? new Set()).add(res.status));
  };

  const call = async (
    token: string | undefined,
    method: string,
    template: string,
    params: Record<string, string> = {},
    options: { body?: unknown; query?: string; rawBody?: string; contentType?: string; accept?: string } = {},
  ) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x'));
    const res = await request(svc.origin, method, `${path}${options.query ?? ''}`, {
      token,
      body: options.body,
      rawBody: options.rawBody,
      contentType: options.contentType,
      ...(options.accept && { headers: { accept: options.accept } }),
    });
    check(method, template, res);
    return res;
  };
  const ok = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    expect(res.status, `${args[1]} ${args[2]}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    svc = await startTestService({ testClockEndpoint: true, trustedCa: tls.cert, limits: { unauthenticated: 3 } });
    fulfilment = await startFulfilment();
    receiver = await startReceiver({ tls });
    doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
    ajv.addSchema({ ...(withoutIds(doc) as object), $id: DOC_ID });
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
    await receiver.close();
    await kit?.close();
  });

  it('answers each operation with a success that validates', async () => {
    const op = svc.operatorToken;
    const created = await ok(op, 'POST', '/operator/v1/suppliers', {}, { body: { name: 'Document Keys' } });
    const token: string = created.token;
    const supplierId: string = created.supplier.id;
    const extra = await ok(op, 'POST', '/operator/v1/suppliers/{supplier_id}/tokens', { supplier_id: supplierId });
    await ok(op, 'DELETE', '/operator/v1/suppliers/{supplier_id}/tokens/{token_id}', {
      supplier_id: supplierId,
      token_id: extra.token_id,
    });
    await ok(
      op,
      'PUT',
      '/operator/v1/suppliers/{supplier_id}/rate-limits',
      { supplier_id: supplierId },
      { body: { reads: 6000 } },
    );
    await ok(op, 'GET', '/operator/v1/suppliers/{supplier_id}/rate-limits', { supplier_id: supplierId });
    const game = { type: 'game_key', platform: 'steam', region: 'EU', status: 'sellable' };
    const product = await ok(op, 'POST', '/operator/v1/products', {}, { body: { name: 'Document Quest', ...game } });
    const other = await ok(op, 'POST', '/operator/v1/products', {}, { body: { name: 'Document Quest II', ...game } });
    await ok(
      op,
      'PATCH',
      '/operator/v1/products/{product_id}',
      { product_id: other.id },
      { body: { name: 'Document Quest 2' } },
    );

    await ok(undefined, 'GET', '/api/v1/errors');
    await ok(undefined, 'GET', '/.well-known/svc-ledger-signing-key');
    await ok(token, 'GET', '/api/v1/whoami');
    await ok(token, 'GET', '/api/v1/products');
    await ok(token, 'GET', '/api/v1/products/{product_id}', { product_id: product.id });
    await ok(token, 'GET', '/api/v1/fees');
    await ok(token, 'POST', '/api/v1/pricing/simulate', {}, { body: { product_id: product.id, price: eur(1000) } });

    const hook = await ok(token, 'POST', '/api/v1/webhooks', {}, { body: { url: receiver.url, events: ['*'] } });
    const hookId = { webhook_id: hook.id };
    await ok(token, 'GET', '/api/v1/webhooks');
    await ok(token, 'GET', '/api/v1/webhooks/{webhook_id}', hookId);
    await ok(token, 'PATCH', '/api/v1/webhooks/{webhook_id}', hookId, { body: { description: 'all events' } });
    await ok(token, 'POST', '/api/v1/webhooks/{webhook_id}/rotate-secret', hookId);
    await ok(token, 'POST', '/api/v1/webhooks/{webhook_id}/test', hookId, { body: {} });

    const offer = await ok(
      token,
      'POST',
      '/api/v1/offers',
      {},
      { body: { product_id: product.id, stock_mode: 'uploaded', price: eur(1000), external_ref: 'DOC-U' } },
    );
    const offerId = { offer_id: offer.id };
    const uploaded = await ok(token, 'POST', '/api/v1/offers/{offer_id}/inventory', offerId, {
      body: { items: textKeys('DOC', 9) },
    });
    await ok(token, 'GET', '/api/v1/offers/{offer_id}/inventory', offerId);
    await ok(token, 'DELETE', '/api/v1/offers/{offer_id}/inventory/{item_id}', {
      ...offerId,
      item_id: uploaded.item_ids[7],
    });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/inventory/withdrawals', offerId, {
      body: { item_ids: [uploaded.item_ids[8]] },
    });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/inventory/{item_id}/reveal', {
      ...offerId,
      item_id: uploaded.item_ids[5],
    });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/inventory/imports/preview', offerId, {
      body: { content: 'key\nDOC-IMPORT-1\n' },
    });
    const imported = await ok(token, 'POST', '/api/v1/offers/{offer_id}/inventory/imports', offerId, {
      body: { file_name: 'doc.csv', content: 'DOC-IMPORT-1\n' },
    });
    await svc.drain();
    await ok(token, 'GET', '/api/v1/offers/{offer_id}/inventory/imports/{import_id}', {
      ...offerId,
      import_id: imported.id,
    });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/activate', offerId);
    await ok(token, 'PATCH', '/api/v1/offers/{offer_id}', offerId, { body: { low_stock_threshold: 1 } });
    await ok(token, 'PUT', '/api/v1/offers/{offer_id}/price', offerId, { body: { price: eur(1100) } });
    await ok(token, 'GET', '/api/v1/offers');
    await ok(token, 'GET', '/api/v1/offers/{offer_id}', offerId);
    await ok(token, 'GET', '/api/v1/offers/{offer_id}/routing', offerId);
    await ok(token, 'GET', '/api/v1/offers/{offer_id}/health', offerId);

    const declared = await ok(
      token,
      'POST',
      '/api/v1/offers',
      {},
      {
        body: {
          product_id: other.id,
          stock_mode: 'declared',
          price: eur(900),
          external_ref: 'DOC-D',
          fulfilment: { base_url: fulfilment.url },
          declared_stock: 5,
        },
      },
    );
    const declaredId = { offer_id: declared.id };
    await ok(token, 'PUT', '/api/v1/offers/{offer_id}/stock', declaredId, { body: { declared_stock: 7 } });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/fulfilment/check', declaredId);
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/fulfilment/rotate-secret', declaredId);

    const order = await ok(
      op,
      'POST',
      '/operator/v1/orders',
      {},
      { body: { items: [{ product_id: product.id, quantity: 1 }], buyer_country: 'DE' } },
    );
    const orderId = { order_id: order.id };
    await ok(op, 'GET', '/operator/v1/orders/{order_id}', orderId);
    await ok(op, 'POST', '/operator/v1/orders/{order_id}/pay', orderId);
    await ok(op, 'GET', '/operator/v1/orders/{order_id}/deliverables', orderId);
    await ok(op, 'POST', '/operator/v1/orders/{order_id}/dispute', orderId, {
      body: { item_ids: [order.items[0].id], reason: 'key already redeemed' },
    });
    const refunded = await ok(
      op,
      'POST',
      '/operator/v1/orders',
      {},
      { body: { items: [{ product_id: product.id, quantity: 1 }], buyer_country: 'DE' } },
    );
    await ok(op, 'POST', '/operator/v1/orders/{order_id}/pay', { order_id: refunded.id });
    await ok(op, 'POST', '/operator/v1/orders/{order_id}/refund', { order_id: refunded.id }, { body: {} });
    const available = await ok(token, 'GET', '/api/v1/offers/{offer_id}/inventory', offerId, {
      query: '?status=available',
    });
    await ok(
      op,
      'POST',
      '/operator/v1/inventory/{item_id}/invalidate',
      { item_id: available.data[0].id },
      { body: { reason: 'leaked' } },
    );
    await ok(op, 'POST', '/operator/v1/inventory/{item_id}/hold', { item_id: available.data[1].id });
    await ok(op, 'GET', '/operator/v1/key-collisions', {}, { query: '?open=false' });
    await ok(op, 'POST', '/operator/v1/inventory/{item_id}/release', { item_id: available.data[1].id });
    await ok(op, 'POST', '/operator/v1/clock/advance', {}, { body: { seconds: 60 } });
    await svc.drain();

    await ok(token, 'GET', '/api/v1/orders');
    await ok(token, 'GET', '/api/v1/orders/{order_id}', orderId);
    await ok(
      token,
      'POST',
      '/api/v1/sandbox/orders',
      {},
      { body: { offer_id: offer.id, quantity: 1, buyer_country: 'DE' } },
    );
    await ok(token, 'GET', '/api/v1/balance');
    await ok(token, 'GET', '/api/v1/balance/entries');

    // a sale that settles, so there is available money to pay out (the payout minimum is 2000)
    const sale = await ok(
      op,
      'POST',
      '/operator/v1/orders',
      {},
      { body: { items: [{ product_id: product.id, quantity: 3 }], buyer_country: 'DE' } },
    );
    await ok(op, 'POST', '/operator/v1/orders/{order_id}/pay', { order_id: sale.id });
    await svc.advance(600);
    const now = svc.clock.now().toISOString();
    const balance = await ok(token, 'GET', '/api/v1/balance', {}, { query: `?as_of=${encodeURIComponent(now)}` });
    expect(balance.available.amount, 'available before the payouts').toBeGreaterThanOrEqual(2000);
    const head = await ok(token, 'GET', '/api/v1/balance/proof');
    // a witness's cosignature of that head, kept and published
    const cosignature = witnessKey(newWitnessKey()).cosign(head.checkpoint, svc.clock.now().toISOString());
    await ok(token, 'POST', '/api/v1/balance/cosignatures', {}, { body: cosignature });
    await ok(token, 'GET', '/api/v1/balance/cosignatures');
    const listed = await ok(token, 'GET', '/api/v1/balance/entries');
    await ok(token, 'GET', '/api/v1/balance/entries/{entry_id}/proof', { entry_id: listed.data[0].id });
    await ok(token, 'GET', '/api/v1/balance/proof/consistency', {}, { query: '?from=1' });
    await ok(token, 'GET', '/api/v1/balance/statements/{month}', { month: now.slice(0, 7) });
    // the statement's text formats, each listed beside the JSON
    for (const accept of ['text/csv', 'text/html'])
      await ok(token, 'GET', '/api/v1/balance/statements/{month}', { month: now.slice(0, 7) }, { accept });
    await ok(token, 'GET', '/api/v1/payouts/schedule');
    await ok(token, 'PUT', '/api/v1/payouts/schedule', {}, { body: { interval: 'weekly', minimum_amount: eur(5000) } });
    await ok(token, 'PUT', '/api/v1/payouts/schedule', {}, { body: { interval: 'manual' } });
    // one payout down each path; a cancelled or failed one gives the amount back for the next
    const cancelled = await ok(token, 'POST', '/api/v1/payouts', {}, { body: { amount: eur(2000) } });
    await ok(op, 'POST', '/operator/v1/payouts/{payout_id}/cancel', { payout_id: cancelled.id });
    const failed = await ok(token, 'POST', '/api/v1/payouts', {}, { body: { amount: eur(2000), method: 'paypal' } });
    await ok(op, 'POST', '/operator/v1/payouts/{payout_id}/in_transit', { payout_id: failed.id });
    await ok(
      op,
      'POST',
      '/operator/v1/payouts/{payout_id}/failed',
      { payout_id: failed.id },
      { body: { failure_code: 'account_closed' } },
    );
    const paid = await ok(token, 'POST', '/api/v1/payouts', {}, { body: { amount: eur(2000) } });
    await ok(op, 'POST', '/operator/v1/payouts/{payout_id}/in_transit', { payout_id: paid.id });
    await ok(op, 'POST', '/operator/v1/payouts/{payout_id}/paid', { payout_id: paid.id });
    await ok(token, 'GET', '/api/v1/payouts');
    await ok(token, 'GET', '/api/v1/payouts/{payout_id}', { payout_id: paid.id });
    // destinations, and a payout to one cancelled by its supplier
    const bank = await ok(
      token,
      'POST',
      '/api/v1/payout-destinations',
      {},
      { body: { method: 'sepa_bank_transfer', iban: 'DE89370400440532013000', holder_name: 'Answers' } },
    );
    const pp = await ok(
      token,
      'POST',
      '/api/v1/payout-destinations',
      {},
      { body: { method: 'paypal', email: 'a@b.example' } },
    );
    await ok(token, 'GET', '/api/v1/payout-destinations');
    await ok(
      token,
      'PATCH',
      '/api/v1/payout-destinations/{destination_id}',
      { destination_id: pp.id },
      { body: { default: true } },
    );
    await ok(token, 'DELETE', '/api/v1/payout-destinations/{destination_id}', { destination_id: bank.id });
    const toCancel = await ok(token, 'POST', '/api/v1/payouts', {}, { body: { amount: eur(2000) } });
    await ok(token, 'POST', '/api/v1/payouts/{payout_id}/cancel', { payout_id: toCancel.id });

    // a rule whose ceiling is the current price: with no competitor the price stays 1100
    await ok(token, 'GET', '/api/v1/products/{product_id}/competition', { product_id: product.id });
    await ok(token, 'PUT', '/api/v1/offers/{offer_id}/pricing-rule', offerId, {
      body: { beat_by: { amount: 10 }, floor: eur(1000), ceiling: eur(1100), max_changes_per_hour: 60 },
    });
    await svc.drain();
    await ok(token, 'GET', '/api/v1/offers/{offer_id}/pricing-rule', offerId);
    await ok(token, 'DELETE', '/api/v1/offers/{offer_id}/pricing-rule', offerId);

    // certification runs the whole contract against a declared offer served by the reference kit
    const kitProduct = await ok(
      op,
      'POST',
      '/operator/v1/products',
      {},
      { body: { name: 'Document Quest III', ...game } },
    );
    // a finite stock, so the out_of_stock check gets its 409 (an unlimited kit would try to make a million keys)
    kit = await startSupplierKit({
      secrets: ['svcsec_00000000000000000000000000000000'],
      now: () => svc.clock.now().getTime(),
      stock: { '*': textKeys('DOC-KIT', 20).map((k) => k.value) },
    });
    const certified = await ok(
      token,
      'POST',
      '/api/v1/offers',
      {},
      {
        body: {
          product_id: kitProduct.id,
          stock_mode: 'declared',
          price: eur(900),
          external_ref: 'DOC-K',
          fulfilment: { base_url: kit.url },
          declared_stock: 5,
        },
      },
    );
    kit.setSecrets([certified.fulfilment.secret]);
    const report = await ok(token, 'POST', '/api/v1/offers/{offer_id}/certification', { offer_id: certified.id });
    expect(report.checks.filter((c: any) => !c.passed).map((c: any) => `${c.name}: ${c.detail}`)).toEqual([]);

    await ok(token, 'POST', '/api/v1/webhooks/{webhook_id}/recover', hookId, {
      body: { since: new Date(svc.clock.now().getTime() - 60_000).toISOString() },
    });
    await svc.drain();
    const deliveries = await ok(token, 'GET', '/api/v1/webhook-deliveries');
    const deliveryId = { delivery_id: deliveries.data[0].id };
    await ok(token, 'GET', '/api/v1/webhook-deliveries/{delivery_id}', deliveryId);
    await ok(token, 'POST', '/api/v1/webhook-deliveries/{delivery_id}/resend', deliveryId);
    await ok(token, 'DELETE', '/api/v1/webhooks/{webhook_id}', hookId);
    const session = await ok(token, 'POST', '/api/v1/webhook-listen-sessions', {}, { body: { events: ['*'] } });
    await ok(
      token,
      'POST',
      '/api/v1/webhook-listen-sessions/{session_id}/poll',
      { session_id: session.id },
      { body: {} },
    );
    await ok(token, 'DELETE', '/api/v1/webhook-listen-sessions/{session_id}', { session_id: session.id });
    await ok(token, 'POST', '/api/v1/offers/{offer_id}/deactivate', offerId);
  }, 180_000); // some 60 calls in a row: on a loaded machine they take more than the default 30 s

  it('answers each operation with a problem that validates', async () => {
    const supplier = await svc.newSupplier('Problem Keys');
    // every guarded operation, called with the other side's token: 401 unauthorized
    for (const [template, ops] of Object.entries<Record<string, any>>(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        if (Array.isArray(op.security) && op.security.length === 0) continue;
        const token = template.startsWith('/operator/') ? supplier.token : svc.operatorToken;
        expect(
          (await call(token, method.toUpperCase(), template, {}, { body: method === 'get' ? undefined : {} })).status,
          `${method} ${template}`,
        ).toBe(401);
      }
    // the shared machinery's problems on a route that takes a body
    const t = supplier.token;
    expect((await call(t, 'POST', '/api/v1/offers', {}, { rawBody: '{"product_id":' })).body.code).toBe(
      'malformed_json',
    );
    expect(
      (await call(t, 'POST', '/api/v1/offers', {}, { rawBody: 'product', contentType: 'text/plain' })).status,
    ).toBe(415);
    expect(
      (await call(t, 'POST', '/api/v1/offers', {}, { rawBody: JSON.stringify({ note: 'x'.repeat(1_100_000) }) }))
        .status,
    ).toBe(413);
    expect((await call(t, 'POST', '/api/v1/offers', {}, { body: { stock_mode: 'uploaded' } })).body.code).toBe(
      'validation_failed',
    );
    expect((await call(t, 'GET', '/api/v1/offers/{offer_id}', { offer_id: 'missing' })).status).toBe(404);
    expect((await call(t, 'GET', '/api/v1/orders/{order_id}', { order_id: 'missing' })).status).toBe(404);
    // the public catalogue is limited per address: the fourth anonymous call in a minute is refused
    await svc.advance(120);
    for (let i = 0; i < 3; i++) await call(undefined, 'GET', '/api/v1/errors');
    expect((await call(undefined, 'GET', '/api/v1/errors')).status).toBe(429);
    // the ledger's signing key too: no token, and limited per address as the catalogue is
    expect((await call(undefined, 'GET', '/.well-known/svc-ledger-signing-key')).status).toBe(429);
  }, 180_000);

  it('every operation was seen answering both, and the validator refuses what the document does not allow', () => {
    expect(validatorFor('GET', '/api/v1/whoami', 200, 'application/json')({})).toBe(false);
    expect(
      validatorFor(
        'GET',
        '/api/v1/offers',
        401,
        'application/problem+json',
      )({ type: 'x', title: 'x', status: 401, detail: 'x', code: 'no_such_code', trace_id: 'x' }),
    ).toBe(false);
    const missing: string[] = [];
    for (const [template, ops] of Object.entries<Record<string, any>>(doc.paths))
      for (const method of Object.keys(ops)) {
        const statuses = [...(seen.get(`${method.toUpperCase()} ${template}`) ?? [])];
        if (!statuses.some((s) => s < 300)) missing.push(`${method.toUpperCase()} ${template}: no success`);
        if (!statuses.some((s) => s >= 400)) missing.push(`${method.toUpperCase()} ${template}: no problem`);
      }
    expect(missing).toEqual([]);
  });
});
