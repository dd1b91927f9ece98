import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { buy, eur, keys, type Supplier, troubles, uploadedOffer } from '../orders/fixtures.js';

/**
 * Payout destinations and the sandbox's bank: an IBAN (check digits verified) or a PayPal
 * address, the first the default, shown masked; a payout to a destination is in transit 30 s
 * after it was asked for and paid 30 s later (payout.paid), or fails at the test IBAN with its
 * amount back in available (payout.failed); a pending payout can be cancelled.
 */
describe('payout destinations and the sandbox bank', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const GOOD = 'DE89 3704 0044 0532 0130 00';
  const FAILING = 'DE62370400440532013001';

  const balance = async (s: Supplier) => {
    const b = (await s.api.get('/balance')).body;
    return { available: b.available.amount, pending: b.pending.amount };
  };
  const clean = async () => expect((await auditLedger(svc.services.store, svc.services.db)).differences).toEqual([]);
  const payoutEvents = () =>
    receiver.received
      .filter((r) => String(r.body.type).startsWith('payout.'))
      .map((r) => [r.body.type, r.body.data.payout.id, r.body.data.payout.status]);

  beforeAll(async () => {
    svc = await startTestService();
    receiver = await startReceiver();
    alpha = await svc.newSupplier('Dest Alpha');
    beta = await svc.newSupplier('Dest Beta');
    const hook = await alpha.api.post('/webhooks', {
      url: receiver.url,
      events: ['payout.created', 'payout.paid', 'payout.failed'],
    });
    expect(hook.status, hook.text).toBe(201);
    const product = (await svc.newProduct({ name: 'Dest A' })).id;
    await uploadedOffer(alpha, product, { price: 5000, values: keys('DA', 10) }); // 5000: 425, 4575
    await buy(svc, [{ product_id: product, quantity: 2 }]); // net 9150
    await svc.advance(600);
    expect(await balance(alpha)).toEqual({ available: 9150, pending: 0 });
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
    await receiver.close();
  });

  it('refuses an IBAN whose check digits fail, a bad email, unknown fields and an unknown method, and changes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ method: 'sepa_bank_transfer', iban: 'DE89370400440532013001', holder_name: 'A' }, 'body.iban'],
      [{ method: 'sepa_bank_transfer', iban: 'XX00', holder_name: 'A' }, 'body.iban'],
      [{ method: 'sepa_bank_transfer', iban: GOOD, holder_name: '  ' }, 'body.holder_name'],
      [{ method: 'paypal', email: 'not-an-email' }, 'body.email'],
      [{ method: 'paypal', email: 'a@b.de', iban: GOOD }, 'body'],
      [{ method: 'cash' }, 'body.method'],
    ];
    for (const [body, field] of cases) {
      const res = await alpha.api.post('/payout-destinations', body);
      expect([res.status, res.body.code, res.body.errors?.[0]?.field], JSON.stringify(body)).toEqual([
        422,
        'validation_failed',
        field,
      ]);
    }
    expect((await alpha.api.get('/payout-destinations')).body).toEqual({ data: [] });
  });

  let bank: string;
  let paypal: string;
  let failing: string;
  it('adds destinations masked, the first as the default; the same account twice is refused; the default moves', async () => {
    const t0 = svc.clock.now().toISOString();
    const first = await alpha.api.post('/payout-destinations', {
      method: 'sepa_bank_transfer',
      iban: GOOD,
      holder_name: 'Dest Alpha GmbH',
    });
    expect(first.status, first.text).toBe(201);
    bank = first.body.id;
    expect(first.body).toEqual({
      id: expect.stringMatching(/^pd_/),
      method: 'sepa_bank_transfer',
      account: 'DE •••• 3000',
      holder_name: 'Dest Alpha GmbH',
      default: true,
      created_at: t0,
    });
    expect(JSON.stringify(first.body)).not.toContain('0532');
    const twice = await alpha.api.post('/payout-destinations', {
      method: 'sepa_bank_transfer',
      iban: 'de89370400440532013000',
      holder_name: 'Other',
    });
    expect([twice.status, twice.body.code, twice.body.destination_id]).toEqual([409, 'invalid_state', bank]);
    const pp = await alpha.api.post('/payout-destinations', { method: 'paypal', email: 'Payouts@Alpha.example' });
    expect([pp.status, pp.body.account, pp.body.default, pp.body.holder_name]).toEqual([
      201,
      'p•••@alpha.example',
      false,
      null,
    ]);
    paypal = pp.body.id;
    failing = (
      await alpha.api.post('/payout-destinations', {
        method: 'sepa_bank_transfer',
        iban: FAILING,
        holder_name: 'Closed',
      })
    ).body.id;
    const removeDefault = await alpha.api.delete(`/payout-destinations/${bank}`);
    expect([removeDefault.status, removeDefault.body.code]).toEqual([409, 'invalid_state']);
    const moved = await alpha.api.patch(`/payout-destinations/${paypal}`, { default: true });
    expect([moved.status, moved.body.default]).toEqual([200, true]);
    const listed = (await alpha.api.get('/payout-destinations')).body.data;
    expect(listed.map((d: any) => [d.id, d.account, d.default])).toEqual([
      [bank, 'DE •••• 3000', false],
      [paypal, 'p•••@alpha.example', true],
      [failing, 'DE •••• 3001', false],
    ]);
    // another supplier sees none of them and cannot touch them
    expect((await beta.api.get('/payout-destinations')).body).toEqual({ data: [] });
    expect((await beta.api.patch(`/payout-destinations/${bank}`, { default: true })).status).toBe(404);
    expect((await beta.api.delete(`/payout-destinations/${bank}`)).status).toBe(404);
    expect((await alpha.api.patch(`/payout-destinations/${bank}`, { default: true })).status).toBe(200);
  });

  it('shows the hold, the minimum and the next payout date before any payout', async () => {
    const manual = (await alpha.api.get('/payouts/schedule')).body;
    expect([manual.next_payout_at, manual.payout_minimum, manual.holding_period_seconds]).toEqual([
      null,
      eur(2000),
      600,
    ]);
    const weekly = await beta.api.put('/payouts/schedule', { interval: 'weekly' });
    expect(weekly.status, weekly.text).toBe(200);
    // 2026-01-05 is a Monday: the next run is the Monday after, at 00:00 UTC
    expect(weekly.body.next_payout_at).toBe('2026-01-12T00:00:00.000Z');
  });

  it('pays a payout to the default destination by itself: in transit after 30 s, paid 30 s later, balanced', async () => {
    const created = await alpha.api.post('/payouts', { amount: eur(3000) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect([created.body.status, created.body.method, created.body.destination]).toEqual([
      'pending',
      'sepa_bank_transfer',
      { id: bank, account: 'DE •••• 3000' },
    ]);
    await svc.advance(29);
    expect((await alpha.api.get(`/payouts/${id}`)).body.status).toBe('pending');
    await svc.advance(1);
    expect((await alpha.api.get(`/payouts/${id}`)).body.status).toBe('in_transit');
    await svc.advance(30);
    const paid = (await alpha.api.get(`/payouts/${id}`)).body;
    expect([paid.status, paid.balance_entries.map((e: any) => [e.type, e.account, e.amount.amount])]).toEqual([
      'paid',
      [['payout', 'available', -3000]],
    ]);
    expect(await balance(alpha)).toEqual({ available: 6150, pending: 0 });
    expect(payoutEvents()).toEqual([
      ['payout.created', id, 'pending'],
      ['payout.paid', id, 'paid'],
    ]);
    await clean();
  });

  it('fails a payout to the test IBAN with account_closed and gives its amount back', async () => {
    receiver.received.length = 0;
    const created = await alpha.api.post('/payouts', { amount: eur(2500), destination_id: failing });
    expect([created.status, created.body.destination]).toEqual([201, { id: failing, account: 'DE •••• 3001' }]);
    expect(await balance(alpha)).toEqual({ available: 3650, pending: 0 });
    await svc.advance(30);
    const failed = (await alpha.api.get(`/payouts/${created.body.id}`)).body;
    expect([failed.status, failed.failure_code]).toEqual(['failed', 'account_closed']);
    expect(failed.balance_entries.map((e: any) => [e.type, e.account, e.amount.amount])).toEqual([
      ['payout', 'available', -2500],
      ['payout_reversal', 'available', 2500],
    ]);
    expect(await balance(alpha)).toEqual({ available: 6150, pending: 0 });
    expect(payoutEvents()).toEqual([
      ['payout.created', created.body.id, 'pending'],
      ['payout.failed', created.body.id, 'failed'],
    ]);
    await clean();
  });

  it('cancels a pending payout (money back), then refuses to cancel one in transit, and another supplier cannot', async () => {
    const created = await alpha.api.post('/payouts', { amount: eur(2000), method: 'paypal' });
    expect([created.status, created.body.destination]).toEqual([201, { id: paypal, account: 'p•••@alpha.example' }]);
    const id = created.body.id;
    expect((await beta.api.post(`/payouts/${id}/cancel`)).status).toBe(404);
    const cancelled = await alpha.api.post(`/payouts/${id}/cancel`);
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect((await alpha.api.post(`/payouts/${id}/cancel`)).status).toBe(200);
    expect(await balance(alpha)).toEqual({ available: 6150, pending: 0 });
    await svc.advance(60); // the bank finds it cancelled and leaves it
    expect((await alpha.api.get(`/payouts/${id}`)).body.status).toBe('cancelled');

    const moving = (await alpha.api.post('/payouts', { amount: eur(2000) })).body.id;
    await svc.advance(30);
    const late = await alpha.api.post(`/payouts/${moving}/cancel`);
    expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
    await svc.advance(30);
    expect((await alpha.api.get(`/payouts/${moving}`)).body.status).toBe('paid');
    expect(await balance(alpha)).toEqual({ available: 4150, pending: 0 });
    await clean();
  });

  it('refuses a payout to an unknown or removed destination, or by a method its destination has not', async () => {
    const unknown = await alpha.api.post('/payouts', { amount: eur(2000), destination_id: 'pd_nope' });
    expect([unknown.status, unknown.body.errors?.[0]?.field]).toEqual([422, 'body.destination_id']);
    const wrong = await alpha.api.post('/payouts', { amount: eur(2000), destination_id: bank, method: 'paypal' });
    expect([wrong.status, wrong.body.errors?.[0]?.field]).toEqual([422, 'body.method']);
    expect((await alpha.api.delete(`/payout-destinations/${failing}`)).status).toBe(204);
    const removed = await alpha.api.post('/payouts', { amount: eur(2000), destination_id: failing });
    expect(removed.status).toBe(422);
    expect(await balance(alpha)).toEqual({ available: 4150, pending: 0 });
  });
});
