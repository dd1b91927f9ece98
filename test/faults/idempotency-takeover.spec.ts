import { createHash, createHmac } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../../src/commands/context.js';
import { load } from '../../src/commands/handle.js';
import { inventoryDecider } from '../../src/domain/inventory.js';
import { offerDecider } from '../../src/domain/offer.js';
import { LEASE_MS } from '../../src/http/idempotency.js';
import { deriveId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { startReceiver } from '../webhooks/receiver.js';
import { buy, eur, keys, stockOf, type Supplier, troubles, uploadedOffer, withDb } from '../orders/fixtures.js';
import { inventoryStream, offerStream } from '../../src/commands/streams.js';

/**
 * A request whose process died keeps its Idempotency-Key `in_flight`: no onSend ever runs.
 * The key holds a lease its request renews; once it lapses, a retry takes the key over and
 * runs the operation again under the identity recorded for the key, so it finds the order
 * (the upload, the payment, the refund) the dead request made and answers with it.
 *
 * A dead owner is made exactly as a SIGKILL leaves it: the row is put back to `in_flight`
 * with its lease, no answer stored (test/faults/service-crash.spec.ts kills a real process).
 */
describe('Idempotency-Key takeover after the owner died', () => {
  let svc: TestService;
  let supplier: Supplier;
  let productId: string;
  let offerId: string;

  beforeAll(async () => {
    // a test here holds a read model still on purpose: a short bound for waiting on it (the
    // lock's open transaction holds back every database's readers on the shared server)
    svc = await startTestService({ extraConfig: { readModelWaitMs: 5_000 } });
    supplier = await svc.newSupplier('Takeover Keys');
    productId = (await svc.newProduct({ name: 'Takeover' })).id;
    ({ offerId } = await uploadedOffer(supplier, productId, { price: 1000, values: keys('TAKE', 20) }));
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

  /** What a SIGKILL between the effect and the stored answer leaves: in flight, lease running. */
  const ownerDied = (scope: string, key: string) =>
    withDb(svc, (db) =>
      db.query(
        `update idempotency_keys set state = 'in_flight', owner = 'died', lease_until = $3,
           response_status = null, response_headers = null, response_body = null
         where scope = $1 and key = $2`,
        [scope, key, new Date(svc.clock.now().getTime() + LEASE_MS)],
      ),
    ).then((r) => expect(r.rowCount).toBe(1));

  const orderCount = () =>
    withDb(svc, async (db) =>
      Number(
        (await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'order-%'`)).rows[0]
          .n,
      ),
    );

  it('an order placed by a request that died: 409 with Retry-After during the lease, then the same order, placed once', async () => {
    const body = { items: [{ product_id: productId, quantity: 2 }], buyer_country: 'DE' };
    const first = await svc.operator.post('/orders', body, withKey('order-died-1'));
    expect(first.status, first.text).toBe(201);
    const orders = await orderCount();
    await ownerDied('operator', 'order-died-1');

    const early = await svc.operator.post('/orders', body, withKey('order-died-1'));
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('idempotency_key_in_use');
    expect(early.headers.get('retry-after')).toBe(String(LEASE_MS / 1000));

    await svc.advance(LEASE_MS / 1000);
    const retried = await svc.operator.post('/orders', body, withKey('order-died-1'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replay')).toBeNull(); // run again, not replayed
    expect(retried.body.id).toBe(first.body.id);
    expect(retried.body.items.map((i: any) => [i.id, i.fulfilment.inventory_item_ids])).toEqual(
      first.body.items.map((i: any) => [i.id, i.fulfilment.inventory_item_ids]),
    );
    expect(await orderCount()).toBe(orders);
    expect((await stockOf(supplier, offerId)).available).toBe(18);

    // its answer is stored now: the next retry replays it
    const replay = await svc.operator.post('/orders', body, withKey('order-died-1'));
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
  });

  it('a checkout that died after reserving, before recording the order: the retry takes up that reservation', async () => {
    const body = { items: [{ product_id: productId, quantity: 3 }], buyer_country: 'DE' };
    const before = (await stockOf(supplier, offerId)).available;
    const operationId = '01KAPZ6Y3N7QF0000000000000';
    // the dead run: its key claimed with an expired lease, and the reservation it made
    await withDb(svc, (db) =>
      db.query(
        `insert into idempotency_keys (scope, key, request_hash, state, created_at, expires_at, operation_id, owner, lease_until)
         values ('operator', 'order-died-2', $1, 'in_flight', $2, $3, $4, 'died', $2)`,
        [
          createHmac('sha256', svc.services.commands.secretKey)
            .update(`POST /operator/v1/orders\n${JSON.stringify(body)}`)
            .digest('hex'),
          svc.clock.now(),
          new Date(svc.clock.now().getTime() + 86_400_000),
          operationId,
        ],
      ),
    );
    const orderItemId = deriveId(operationId, 0, offerId);
    const { state: offer } = await load(svc.services.store, offerStream(offerId), offerDecider);
    const held = await execute(
      svc.services.commands,
      inventoryStream(offerId),
      inventoryDecider,
      (now) => ({
        type: 'ReserveItems' as const,
        data: {
          offerId,
          orderId: operationId,
          orderItemId,
          quantity: 3,
          expiresAt: new Date(Date.parse(now) + 15 * 60_000).toISOString(),
          lowStockThreshold: offer!.terms.lowStockThreshold,
          now,
        },
      }),
      {},
    );
    const reserved = held.state.reservations.get(orderItemId)!.itemIds;
    expect((await stockOf(supplier, offerId)).available).toBe(before - 3);

    const retried = await svc.operator.post('/orders', body, withKey('order-died-2'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.id).toBe(operationId);
    expect(retried.body.items.map((i: any) => [i.id, i.fulfilment.inventory_item_ids])).toEqual([
      [orderItemId, reserved],
    ]);
    // three keys held, not six
    expect((await stockOf(supplier, offerId)).available).toBe(before - 3);
  });

  it('a sandbox order whose request died: the retry answers with that order, one order only', async () => {
    const body = { offer_id: offerId, quantity: 1, buyer_country: 'DE', scenario: 'disputed' };
    const first = await supplier.api.post('/sandbox/orders', body, withKey('sandbox-died'));
    expect(first.status, first.text).toBe(201);
    const orders = await orderCount();
    await ownerDied(`supplier:${supplier.id}`, 'sandbox-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post('/sandbox/orders', body, withKey('sandbox-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    expect(retried.body.status).toBe(first.body.status);
    expect(await orderCount()).toBe(orders);
    const disputes = await withDb(svc, async (db) =>
      Number(
        (
          await db.query(`select count(*) as n from es_events where stream_id = $1 and type = 'OrderDisputed'`, [
            `order-${first.body.id}`,
          ])
        ).rows[0].n,
      ),
    );
    expect(disputes).toBe(1);
  });

  it('an inventory upload whose request died: the retry answers with the same items, stock counted once', async () => {
    const body = {
      mode: 'partial',
      items: [...keys('TAKE-UP', 3), 'TAKE-0001'].map((value) => ({ kind: 'text', value })),
    };
    const before = (await stockOf(supplier, offerId)).available;
    const first = await supplier.api.post(`/offers/${offerId}/inventory`, body, withKey('upload-died'));
    expect(first.status, first.text).toBe(201);
    expect(first.body.accepted).toBe(3);
    await ownerDied(`supplier:${supplier.id}`, 'upload-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post(`/offers/${offerId}/inventory`, body, withKey('upload-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.item_ids).toEqual(first.body.item_ids);
    expect(retried.body.accepted).toBe(3);
    expect(retried.body.rejected).toEqual(first.body.rejected);
    expect((await stockOf(supplier, offerId)).available).toBe(before + 3);
  });

  it('a payment and a refund whose requests died: the retries answer with the order, one sale and one refund entry', async () => {
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.id;

    const paid = await svc.operator.post(`/orders/${orderId}/pay`, undefined, withKey('pay-died'));
    expect(paid.status, paid.text).toBe(200);
    await ownerDied('operator', 'pay-died');
    await svc.advance(LEASE_MS / 1000);
    const payAgain = await svc.operator.post(`/orders/${orderId}/pay`, undefined, withKey('pay-died'));
    expect(payAgain.status, payAgain.text).toBe(200);
    expect(payAgain.body.status).toBe('completed');
    expect(payAgain.body.items).toEqual(paid.body.items);

    const refunded = await svc.operator.post(`/orders/${orderId}/refund`, {}, withKey('refund-died'));
    expect(refunded.status, refunded.text).toBe(200);
    await ownerDied('operator', 'refund-died');
    await svc.advance(LEASE_MS / 1000);
    const refundAgain = await svc.operator.post(`/orders/${orderId}/refund`, {}, withKey('refund-died'));
    expect(refundAgain.status, refundAgain.text).toBe(200);
    expect(refundAgain.body.status).toBe('refunded');
    await svc.drain();

    const entries = (await supplier.api.get('/balance/entries?limit=200')).body.data.filter(
      (e: any) => e.order_id === orderId,
    );
    expect(entries.map((e: any) => [e.type, e.amount.amount]).sort()).toEqual([
      ['refund', -915],
      ['sale', 915],
    ]);
  });

  it('a payout whose request died: the retry answers with that payout; one payout, paid out once', async () => {
    await buy(svc, [{ product_id: productId, quantity: 3 }]);
    await svc.advance(600); // the sales settle
    const available = async () => (await supplier.api.get('/balance')).body.available.amount as number;
    const before = await available();
    const first = await supplier.api.post('/payouts', { amount: eur(2000) }, withKey('payout-died'));
    expect(first.status, first.text).toBe(201);
    await ownerDied(`supplier:${supplier.id}`, 'payout-died');
    await svc.advance(LEASE_MS / 1000);
    const retry = await supplier.api.post('/payouts', { amount: eur(2000) }, withKey('payout-died'));
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect((await supplier.api.get('/payouts')).body.data.map((p: { id: string }) => p.id)).toEqual([first.body.id]);
    expect(await available()).toBe(before - 2000);
  });

  it('a payout the read models cannot show yet: 503 to retry, and the retry answers with that payout, paid out once', async () => {
    await buy(svc, [{ product_id: productId, quantity: 3 }]);
    await svc.advance(600); // the sales settle
    const available = async () => (await supplier.api.get('/balance')).body.available.amount as number;
    const before = await available();
    const payouts = async () => (await supplier.api.get('/payouts')).body.data.map((p: { id: string }) => p.id);
    const earlier = await payouts();
    // the payouts read model held still: its projector waits on the lock past the read's wait
    const locker = new pg.Client({ connectionString: svc.databaseUrl });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table payouts in exclusive mode');
    const first = await supplier.api.post('/payouts', { amount: eur(2000) }, withKey('payout-lagging'));
    await locker.query('commit');
    await locker.end();
    expect([first.status, first.body.code, first.headers.get('retry-after')]).toEqual([
      503,
      'service_unavailable',
      '2',
    ]);

    const retry = await supplier.api.post('/payouts', { amount: eur(2000) }, withKey('payout-lagging'));
    expect(retry.status, retry.text).toBe(201);
    expect(await payouts()).toEqual([retry.body.id, ...earlier]);
    expect(await available()).toBe(before - 2000);
  });

  it('a webhook recovery whose request died: the retry is the same recovery, and sends no event twice', async () => {
    const receiver = await startReceiver();
    try {
      const hook = (await supplier.api.post('/webhooks', { url: receiver.url, events: ['order.created'] })).body;
      const since = svc.clock.now().toISOString();
      await svc.advance(1);
      const placed = await svc.operator.post('/orders', {
        items: [{ product_id: productId, quantity: 1 }],
        buyer_country: 'DE',
      });
      expect(placed.status, placed.text).toBe(201);
      await svc.drain();
      const first = await supplier.api.post(`/webhooks/${hook.id}/recover`, { since }, withKey('recover-died'));
      expect(first.status, first.text).toBe(202);
      await svc.drain();
      await ownerDied(`supplier:${supplier.id}`, 'recover-died');
      await svc.advance(LEASE_MS / 1000);
      const retry = await supplier.api.post(`/webhooks/${hook.id}/recover`, { since }, withKey('recover-died'));
      expect([retry.status, retry.body.id]).toEqual([202, first.body.id]);
      await svc.drain();
      const recovered = receiver.received.filter(
        (r) => r.body.type === 'order.created' && r.body.data.order.id === placed.body.id,
      );
      // once as it happened, once recovered
      expect(recovered).toHaveLength(2);
      expect((await supplier.api.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    } finally {
      await receiver.close();
    }
  });

  it('a product created by a request that died: the retry answers with that product, one product only', async () => {
    const body = { name: 'Died Creating', type: 'game_key', platform: 'steam', region: 'EU', status: 'sellable' };
    const first = await svc.operator.post('/products', body, withKey('product-died'));
    expect(first.status, first.text).toBe(201);
    await ownerDied('operator', 'product-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await svc.operator.post('/products', body, withKey('product-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toEqual(first.body);
    const named = await withDb(svc, (db) =>
      db.query(`select count(*)::int as n from products where name = 'Died Creating'`),
    );
    expect(named.rows[0].n).toBe(1);
  });

  it("a secret rotation whose request died: the retry answers with that rotation's secret; the old one still signs", async () => {
    const created = await supplier.api.post('/webhooks', {
      url: 'https://127.0.0.1:9/rotating',
      events: ['order.paid'],
    });
    expect(created.status, created.text).toBe(201);
    const hookId = created.body.id as string;
    const first = await supplier.api.post(`/webhooks/${hookId}/rotate-secret`, undefined, withKey('rotate-died'));
    expect(first.status, first.text).toBe(200);
    await ownerDied(`supplier:${supplier.id}`, 'rotate-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post(`/webhooks/${hookId}/rotate-secret`, undefined, withKey('rotate-died'));
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.secret).toBe(first.body.secret);
    const rotations = await withDb(svc, (db) =>
      db.query(`select data from es_events where stream_id = $1 and type = 'WebhookSecretRotated'`, [
        `webhook-${hookId}`,
      ]),
    );
    expect(rotations.rows).toHaveLength(1);
    // the secret the supplier held before still signs beside the new one
    const state = svc.services.commands.secretBox;
    expect(state.open(rotations.rows[0].data.previousSecretSealed)).toBe(created.body.secret);
    expect((await supplier.api.delete(`/webhooks/${hookId}`)).status).toBe(204);
  });

  it('deletions whose requests died: the retries answer as the first runs did, not 404', async () => {
    // a webhook endpoint
    const hook = await supplier.api.post('/webhooks', { url: 'https://127.0.0.1:9/deleting', events: ['order.paid'] });
    expect(hook.status, hook.text).toBe(201);
    const gone = await supplier.api.delete(`/webhooks/${hook.body.id}`, withKey('hook-delete-died'));
    expect(gone.status).toBe(204);
    await ownerDied(`supplier:${supplier.id}`, 'hook-delete-died');
    await svc.advance(LEASE_MS / 1000);
    expect((await supplier.api.delete(`/webhooks/${hook.body.id}`, withKey('hook-delete-died'))).status).toBe(204);
    expect((await supplier.api.get(`/webhooks/${hook.body.id}`)).status).toBe(404);

    // an uploaded item
    const items = (await supplier.api.get(`/offers/${offerId}/inventory?status=available&limit=1`)).body.data;
    const itemId = items[0].id as string;
    const removed = await supplier.api.delete(`/offers/${offerId}/inventory/${itemId}`, withKey('item-delete-died'));
    expect(removed.status, removed.text).toBe(200);
    await ownerDied(`supplier:${supplier.id}`, 'item-delete-died');
    await svc.advance(LEASE_MS / 1000);
    const again = await supplier.api.delete(`/offers/${offerId}/inventory/${itemId}`, withKey('item-delete-died'));
    expect([again.status, again.body]).toEqual([200, removed.body]);

    // a pricing rule
    const rule = await supplier.api.put(`/offers/${offerId}/pricing-rule`, {
      max_changes_per_hour: 60,
      beat_by: { amount: 10 },
      floor: eur(500),
      ceiling: eur(1500),
    });
    expect(rule.status, rule.text).toBe(200);
    const stopped = await supplier.api.delete(`/offers/${offerId}/pricing-rule`, withKey('rule-delete-died'));
    expect(stopped.status).toBe(204);
    await ownerDied(`supplier:${supplier.id}`, 'rule-delete-died');
    await svc.advance(LEASE_MS / 1000);
    expect((await supplier.api.delete(`/offers/${offerId}/pricing-rule`, withKey('rule-delete-died'))).status).toBe(
      204,
    );
  });

  it('a supplier registration whose request died: the retry answers with that supplier and a working token; the unseen one is revoked', async () => {
    const first = await svc.operator.post('/suppliers', { name: 'Died Registering' }, withKey('supplier-died'));
    expect(first.status, first.text).toBe(201);
    const streams = await withDb(svc, async (db) =>
      Number(
        (await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'supplier-%'`))
          .rows[0].n,
      ),
    );
    await ownerDied('operator', 'supplier-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await svc.operator.post('/suppliers', { name: 'Died Registering' }, withKey('supplier-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.supplier).toEqual(first.body.supplier);
    expect(
      await withDb(svc, async (db) =>
        Number(
          (await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'supplier-%'`))
            .rows[0].n,
        ),
      ),
    ).toBe(streams);
    const whoami = (token: string) => request(svc.baseUrl, 'GET', '/whoami', { token });
    expect((await whoami(retried.body.token)).status).toBe(200);
    expect((await whoami(first.body.token)).status).toBe(401);
  });

  it('a webhook endpoint created by a request that died: the retry answers with that endpoint and its secret', async () => {
    const body = { url: 'https://127.0.0.1:9/hooks', events: ['order.paid'] };
    const first = await supplier.api.post('/webhooks', body, withKey('webhook-died'));
    expect(first.status, first.text).toBe(201);
    await ownerDied(`supplier:${supplier.id}`, 'webhook-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post('/webhooks', body, withKey('webhook-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toEqual(first.body);
    expect((await supplier.api.get('/webhooks')).body.data.map((e: any) => e.id)).toEqual([first.body.id]);
  });

  it('an offer created by a request that died: the retry answers 201 with that offer and its secret, not offer_exists', async () => {
    const product = (await svc.newProduct({ name: 'Takeover Offer' })).id;
    const body = {
      product_id: product,
      stock_mode: 'declared',
      price: { amount: 500, currency: 'EUR' },
      external_ref: 'DIED',
      fulfilment: { base_url: 'https://127.0.0.1:9/' },
    };
    const first = await supplier.api.post('/offers', body, withKey('offer-died'));
    expect(first.status, first.text).toBe(201);
    expect(first.body.fulfilment.secret).toMatch(/^svcsec_[0-9a-f]{32}$/);
    await ownerDied(`supplier:${supplier.id}`, 'offer-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await supplier.api.post('/offers', body, withKey('offer-died'));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toEqual(first.body);
    // another key is another create: the slot is taken
    const other = await supplier.api.post('/offers', body, withKey('offer-other'));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('offer_exists');
  });

  it('a token issued by a request that died: the retry answers with a working token, the unseen one revoked, one live token more', async () => {
    const owner = await svc.newSupplier('Token Died');
    const issue = () => svc.operator.post(`/suppliers/${owner.id}/tokens`, undefined, withKey('token-died'));
    const tokens = () =>
      withDb(
        svc,
        async (db) =>
          (
            await db.query(
              `select count(*)::int as n from es_events where stream_id = $1 and type = 'SupplierTokenIssued'`,
              [`supplier-${owner.id}`],
            )
          ).rows[0].n as number,
      );
    const before = await tokens();
    const first = await issue();
    expect(first.status, first.text).toBe(201);
    await ownerDied('operator', 'token-died');
    await svc.advance(LEASE_MS / 1000);
    const retried = await issue();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.token_id).not.toBe(first.body.token_id);
    expect(await tokens()).toBe(before + 2);
    const whoami = (token: string) => request(svc.baseUrl, 'GET', '/whoami', { token });
    expect((await whoami(retried.body.token)).status).toBe(200);
    expect((await whoami(first.body.token)).status).toBe(401);
    // a second crash of the same operation: again one live token from it
    await ownerDied('operator', 'token-died');
    await svc.advance(LEASE_MS / 1000);
    const third = await issue();
    expect(third.status, third.text).toBe(201);
    expect((await whoami(retried.body.token)).status).toBe(401);
    expect((await whoami(third.body.token)).status).toBe(200);
  });

  it('the stored request hash is an HMAC under the service key, not a plain digest of the request', async () => {
    const body = { name: 'Hashed' };
    expect((await svc.operator.post('/suppliers', body, withKey('hashed'))).status).toBe(201);
    const text = `POST /operator/v1/suppliers\n${JSON.stringify(body)}`;
    const stored = await withDb(
      svc,
      async (db) =>
        (await db.query(`select request_hash from idempotency_keys where key = 'hashed'`)).rows[0].request_hash,
    );
    expect(stored).toBe(createHmac('sha256', svc.services.commands.secretKey).update(text).digest('hex'));
    expect(stored).not.toBe(createHash('sha256').update(text).digest('hex'));
  });
});
