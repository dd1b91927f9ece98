import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });
type Api = Awaited<ReturnType<TestService['newSupplier']>>['api'];
const formFields = [{ key: 'user_id', label: 'Player ID', type: 'text', required: true, pattern: '^[0-9]{6}$', max_length: 6 }];

describe('top-ups against the reference supplier kit', () => {
  let svc: TestService;
  const kits: SupplierKit[] = [];
  beforeAll(async () => {
    svc = await startTestService({ supplierTimeouts: { validateMs: 300, executeMs: 300, statusMs: 300 }, limits: { test: 1000 } });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all(kits.map((k) => k.close()));
  });

  const topupSeller = async (name: string, productId: string, price = 500) => {
    const kit = await startSupplierKit({ secrets: ['svcsec_placeholder'], now: () => svc.clock.now().getTime(), topupAccounts: { '123456': { label: 'Ada' } } });
    kits.push(kit);
    const seller = await svc.newSupplier(name);
    const offer = await seller.api.post('/offers', { product_id: productId, stock_mode: 'declared', price: eur(price), external_ref: `${name}-T`, fulfilment: { base_url: kit.url }, declared_stock: 100 });
    kit.setSecrets([offer.body.fulfilment.secret]);
    expect((await seller.api.post(`/offers/${offer.body.id}/activate`)).status).toBe(200);
    return { kit, api: seller.api as Api, offerId: offer.body.id as string };
  };
  const buy = async (productId: string, userId = '123456') =>
    svc.operator.post('/orders', { items: [{ product_id: productId, quantity: 1 }], buyer_country: 'DE', form_fields: { user_id: userId } });
  const executions = (kit: SupplierKit) => Object.values(kit.state.operations).map((o) => [o.status, (o as any).executions]);

  it('validate then, after capture, execute once; the account label and receipt show on the order', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Clean', product);
    const placed = await buy(product);
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body.items[0].fulfilment).toMatchObject({ source: 'topup', account_label: 'Ada' });
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    const order = (await s.api.get(`/orders/${placed.body.id}`)).body;
    expect(order.status).toBe('completed');
    expect(order.items[0].fulfilment.receipt_ref).toEqual(expect.any(String));
    expect(executions(s.kit)).toEqual([['completed', 1]]);
    expect(s.kit.received.map((r) => r.route)).toEqual(['GET /healthcheck', 'POST /topup/validate', 'POST /topup/execute']);
    await svc.drain();
    expect((await s.api.get('/balance')).body.pending).toEqual(eur(500 - 43));
  });

  it('invalid answers refuse checkout with the supplier code; a validate timeout costs 2 points and moves on', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const first = await topupSeller('Timeout', product, 400);
    const second = await topupSeller('Second', product, 450);
    first.kit.faults.set('POST /topup/validate', { kind: 'hang', times: 1 });
    const moved = await buy(product);
    expect(moved.body.items[0].offer_id).toBe(second.offerId);
    expect((await first.api.get(`/offers/${first.offerId}`)).body.health.score).toBe(98);
    for (const code of ['invalid_user_id', 'invalid_server', 'account_ineligible', 'limit_exceeded', 'other'] as const) {
      first.kit.faults.set('POST /topup/validate', { kind: 'validate_invalid', code, message: `no: ${code}`, times: 1 });
      const refused = await buy(product);
      expect([code, refused.status, refused.body.code, refused.body.supplier_code]).toEqual([code, 422, 'topup_invalid', code]);
    }
  });

  it('202 processing: status polled every 10 s for a minute, then every 30 s; a failure refunds the buyer, -25 and a cooldown', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Async', product);
    s.kit.faults.set('POST /topup/execute', { kind: 'topup_processing', times: 1 });
    const placed = await buy(product);
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    const executedAt = s.kit.received.find((r) => r.route === 'POST /topup/execute')!.at;
    for (let i = 0; i < 8; i++) await svc.advance(i < 6 ? 10 : 30);
    const polls = s.kit.received.filter((r) => r.route === 'GET /topup/operations/:id').map((r) => (r.at - executedAt) / 1000);
    expect(polls).toEqual([10, 20, 30, 40, 50, 60, 90, 120]);
    const op = Object.keys(s.kit.state.operations)[0]!;
    s.kit.settleOperation(op, { code: 'account_banned', message: 'banned' });
    await svc.advance(30);
    const order = (await s.api.get(`/orders/${placed.body.id}`)).body;
    expect(order.status).toBe('refunded');
    const offer = (await s.api.get(`/offers/${s.offerId}`)).body;
    expect(offer.health.score).toBe(75);
    expect(offer.health.cooldown_until).not.toBeNull();
  });

  it('unresolved at 15 minutes counts as failed', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Stuck', product);
    s.kit.faults.set('POST /topup/execute', { kind: 'status', status: 503 });
    s.kit.faults.set('GET /topup/operations/:id', { kind: 'status', status: 503 });
    const placed = await buy(product);
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    await svc.advance(10);
    await svc.advance(10);
    expect(s.kit.received.filter((r) => r.route === 'POST /topup/execute')).toHaveLength(3);
    for (let t = 0; t < 15 * 60; t += 30) await svc.advance(30);
    expect((await s.api.get(`/orders/${placed.body.id}`)).body.status).toBe('refunded');
  });

  it('a validation older than 15 minutes is redone with a fresh operation_id; only the latest is executed', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Stale', product);
    const placed = await buy(product);
    const firstOp = placed.body.items[0].fulfilment.operation_id;
    svc.clock.advance(14 * 60);
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    svc.clock.advance(2 * 60);
    await svc.drain();
    const validates = s.kit.received.filter((r) => r.route === 'POST /topup/validate').map((r) => (r.body as { operation_id: string }).operation_id);
    expect(validates).toHaveLength(2);
    expect(validates[0]).toBe(firstOp);
    const executed = s.kit.received.filter((r) => r.route === 'POST /topup/execute').map((r) => (r.body as { operation_id: string }).operation_id);
    expect(executed).toEqual([validates[1]]);
  });

  it('an answer lost after the top-up happened: the retry is a replay, the top-up happens once (777777 and a crash alike)', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Lost', product);
    s.kit.faults.set('POST /topup/execute', { kind: 'hang', process: true, times: 1 });
    const placed = await buy(product);
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    await svc.advance(10);
    expect((await s.api.get(`/orders/${placed.body.id}`)).body.status).toBe('completed');
    expect(executions(s.kit)).toEqual([['completed', 1]]);
    expect(s.kit.state.topups_performed).toBe(1);
    const sandbox = await s.api.post('/sandbox/orders', { offer_id: s.offerId, quantity: 1, buyer_country: 'DE', form_fields: { user_id: '777777' } });
    expect(sandbox.status, sandbox.text).toBe(201);
    await svc.drain();
    await svc.advance(10);
    expect((await s.api.get(`/orders/${sandbox.body.id}`)).body.status).toBe('completed');
    expect(s.kit.state.topups_performed).toBe(2);
    const ops = s.kit.received.filter((r) => r.route === 'POST /topup/execute').map((r) => (r.body as { operation_id: string }).operation_id);
    expect(ops.filter((o) => o === sandbox.body.items[0].fulfilment.operation_id)).toHaveLength(2);
  });

  it('a definitive failure answered by execute: refunded, -25 and a cooldown', async () => {
    const product = (await svc.newProduct({ type: 'topup', form_fields: formFields })).id;
    const s = await topupSeller('Fails', product);
    s.kit.faults.set('POST /topup/execute', { kind: 'topup_failed', code: 'account_banned', message: 'banned', status: 200, times: 1 });
    const placed = await buy(product);
    await svc.operator.post(`/orders/${placed.body.id}/pay`);
    await svc.drain();
    expect((await s.api.get(`/orders/${placed.body.id}`)).body.status).toBe('refunded');
    expect((await s.api.get(`/offers/${s.offerId}`)).body.health).toMatchObject({ score: 75, routing_eligible: false });
    expect(s.kit.state.topups_performed).toBe(0);
  });
});
