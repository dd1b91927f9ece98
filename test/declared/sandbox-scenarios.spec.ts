import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, startWorld, type Seller, type World } from './support.js';

/**
 * POST /sandbox/orders `refunded` and `disputed` on declared-stock and top-up offers: the
 * order is paid only once the supplier delivered (or the top-up ran), so the scenario
 * applies then, by itself, once; uploaded stock keeps answering with the final order.
 */
describe('sandbox refunded and disputed scenarios on declared stock and top-ups', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ validateMs: 300, executeMs: 300, statusMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const sandbox = (s: Seller, scenario: string, formFields?: Record<string, string>) =>
    s.api.post('/sandbox/orders', {
      offer_id: s.offerId,
      quantity: 1,
      buyer_country: 'DE',
      scenario,
      ...(formFields && { form_fields: formFields }),
    });
  const types = async (orderId: string) => (await w.events(`order-${orderId}`)).map((e) => e.type);
  const entries = async (s: Seller) =>
    (await s.api.get('/balance/entries')).body.data.map((e: any) => [e.type, e.account, e.amount.amount]).sort();

  it('refunded on a declared offer: accepted at once, refunded once the keys arrived, with the reversing entry', async () => {
    const s = await w.seller(await w.gameKey(), 1000);
    const res = await sandbox(s, 'refunded');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('placed'); // authorized; the supplier is still delivering
    await w.svc.drain();
    await w.svc.advance(30); // the scenario looks again every 30 s until the order is paid
    const order = await w.order(res.body.id);
    expect([order.status, order.items.map((i: any) => i.status)]).toEqual(['refunded', ['refunded']]);
    expect(await types(res.body.id)).toEqual([
      'OrderPlaced',
      'OrderPaymentAuthorized',
      'OrderItemSupplierOrdered',
      'OrderItemDelivered',
      'OrderPaid',
      'OrderRefunded',
    ]);
    // 1000: commission 85, net 915, posted and reversed
    expect(await entries(s)).toEqual([
      ['refund', 'pending', -915],
      ['sale', 'pending', 915],
    ]);
    expect((await s.api.get('/balance')).body).toMatchObject({ pending: eur(0), available: eur(0) });
    // nothing more happens later
    await w.svc.advance(3600);
    expect(await types(res.body.id)).toHaveLength(6);
  });

  it('disputed on a declared offer: disputed once, after payment', async () => {
    const s = await w.seller(await w.gameKey(), 1000);
    const res = await sandbox(s, 'disputed');
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    await w.svc.advance(3600);
    expect((await types(res.body.id)).filter((t) => t === 'OrderDisputed')).toEqual(['OrderDisputed']);
    const disputed = (await w.events(`order-${res.body.id}`, 'OrderDisputed'))[0]!.data;
    expect(disputed).toMatchObject({ orderId: res.body.id, reason: 'sandbox scenario' });
    expect((await w.order(res.body.id)).status).toBe('completed');
  });

  it('refunded on a top-up offer: refunded once the top-up ran', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await sandbox(s, 'refunded', { user_id: '100001' });
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    await w.svc.advance(30);
    const order = await w.order(res.body.id);
    expect([order.status, order.items.map((i: any) => i.status)]).toEqual(['refunded', ['refunded']]);
    expect((await types(res.body.id)).filter((t) => t === 'OrderRefunded')).toEqual(['OrderRefunded']);
    const kinds = (await entries(s)).map((e: any[]) => e[0]);
    expect(kinds).toEqual(['refund', 'sale']);
  });

  it('a failed top-up, refunded, earns no sale entry, also once the ledger watchdog ran (found by the simulation, seed 502)', async () => {
    const s = await w.seller(await w.topupProduct(), 500);
    const res = await s.api.post('/sandbox/orders', {
      offer_id: s.offerId,
      quantity: 1,
      buyer_country: 'DE',
      form_fields: { user_id: '888888' },
    });
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    await w.svc.advance(3600); // the sale watchdog after OrderPaid, the refund watchdog
    const order = await w.order(res.body.id);
    expect([order.status, order.items.map((i: any) => i.status)]).toEqual(['refunded', ['refunded']]);
    expect(await w.events(`balance-${s.supplierId}`)).toEqual([]);
    expect(await entries(s)).toEqual([]);
  });

  it('a declared order that ends unpaid (the supplier never delivers) refunds nothing', async () => {
    const s = await w.seller(await w.gameKey(), 1000, { manualAllocation: true });
    const res = await sandbox(s, 'refunded');
    expect(res.status, res.text).toBe(201);
    await w.svc.drain();
    await w.svc.advance(11 * 60); // the allocation window closes
    await w.svc.advance(3600);
    const order = await w.order(res.body.id);
    expect(order.status).toBe('cancelled');
    expect((await types(res.body.id)).filter((t) => t === 'OrderRefunded')).toEqual([]);
    expect(await entries(s)).toEqual([]);
  });
});
