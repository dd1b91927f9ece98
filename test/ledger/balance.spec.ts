import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { allPages, buy, eur, keys, type Supplier, uploadedOffer, withDb, troubles } from '../orders/fixtures.js';

/**
 * The SupplierBalance ledger: balanced posting sets over supplier_pending, supplier_available,
 * platform_commission and buyer_funds; GET /balance and GET /balance/entries over the
 * supplier's legs.
 */
describe('the ledger', () => {
  let svc: TestService;
  let alpha: Supplier;
  let beta: Supplier;
  const at: string[] = [];
  const items: Record<string, string> = {};

  beforeAll(async () => {
    svc = await startTestService();
    alpha = await svc.newSupplier('Alpha Ledger');
    beta = await svc.newSupplier('Beta Ledger');
    const pa = (await svc.newProduct({ name: 'Ledger A' })).id;
    const pb = (await svc.newProduct({ name: 'Ledger B' })).id;
    await uploadedOffer(alpha, pa, { price: 2000, values: keys('LA', 10) }); // 2000: 170, 1830
    await uploadedOffer(beta, pb, { price: 999, values: keys('LB', 10) }); // 999: 85, 914

    at.push(svc.clock.now().toISOString()); // T0: two sales, one order with items of both suppliers
    const first = await buy(svc, [
      { product_id: pa, quantity: 1 },
      { product_id: pb, quantity: 1 },
    ]);
    items.a1 = first.items[0].id;
    items.b1 = first.items[1].id;
    await svc.advance(120);
    at.push(svc.clock.now().toISOString()); // T0+2m: another sale of alpha, refunded before settlement
    const second = await buy(svc, [{ product_id: pa, quantity: 2 }]); // 4000: 340, 3660
    items.a2 = second.items[0].id;
    expect((await svc.operator.post(`/orders/${second.id}/refund`, {})).status).toBe(200);
    await svc.advance(480);
    at.push(svc.clock.now().toISOString()); // T0+10m: the first sales settle
    await svc.advance(60);
    at.push(svc.clock.now().toISOString()); // T0+11m: beta's settled sale is refunded from available
    expect((await svc.operator.post(`/orders/${first.id}/refund`, { item_ids: [items.b1] })).status).toBe(200);
    await svc.advance(60);
    at.push(svc.clock.now().toISOString()); // T0+12m: a third alpha sale, still pending
    items.a3 = (await buy(svc, [{ product_id: pa, quantity: 1 }])).items[0].id;
    await svc.drain();
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  it('posts a balanced set for every balance event: the sum over all accounts is zero', async () => {
    const events = await withDb(
      svc,
      async (db) =>
        (
          await db.query(
            `select type, data from es_events where type in ('SaleCredited', 'SaleSettled', 'RefundDebited') order by transaction_id, position`,
          )
        ).rows,
    );
    // the two settlements fall due together and run side by side: their order is free
    const byKey = (rows: string[][]) => [...rows].sort((x, y) => x.join().localeCompare(y.join()));
    expect(byKey(events.map((e) => [e.type, e.data.orderItemId]))).toEqual(
      byKey([
        ['SaleCredited', items.a1!],
        ['SaleCredited', items.b1!],
        ['SaleCredited', items.a2!],
        ['RefundDebited', items.a2!],
        ['SaleSettled', items.a1!],
        ['SaleSettled', items.b1!],
        ['RefundDebited', items.b1!],
        ['SaleCredited', items.a3!],
      ]),
    );
    const totals: Record<string, number> = {};
    for (const e of events) {
      expect(e.data.postings.reduce((s: number, p: { amount: number }) => s + p.amount, 0)).toBe(0);
      for (const p of e.data.postings) totals[p.account] = (totals[p.account] ?? 0) + p.amount;
    }
    // what remains: a1 (available) and a3 (pending) sold; a2 and b1 refunded in full
    expect(totals).toEqual({
      buyer_funds: -4000,
      supplier_pending: 1830,
      supplier_available: 1830,
      platform_commission: 340,
    });
  });

  it('GET /balance: pending and available of the supplier, updated at its last posting', async () => {
    expect((await alpha.api.get('/balance')).body).toEqual({
      currency: 'EUR',
      available: eur(1830),
      pending: eur(1830),
      updated_at: at[4],
    });
    expect((await beta.api.get('/balance')).body).toEqual({
      currency: 'EUR',
      available: eur(0),
      pending: eur(0),
      updated_at: at[3],
    });
    const fresh = await svc.newSupplier('No sales yet');
    expect((await fresh.api.get('/balance')).body).toEqual({
      currency: 'EUR',
      available: eur(0),
      pending: eur(0),
      updated_at: null,
    });
    expect((await fresh.api.get('/balance/entries')).body).toEqual({ data: [], next_cursor: null });
  });

  it('GET /balance/entries: the supplier legs, in posting order, every page once', async () => {
    const availableAt = (t: string) => new Date(new Date(t).getTime() + 600_000).toISOString();
    const entry = (
      id: string,
      type: string,
      account: string,
      amount: number,
      itemKey: string,
      created: string,
      available: string | null = null,
    ) => ({
      id,
      type,
      amount: eur(amount),
      account,
      order_id: expect.any(String),
      order_item_id: items[itemKey],
      payout_id: null,
      created_at: created,
      available_at: available,
    });
    const { a1, a2, a3, b1 } = items;
    const alphaEntries = [
      entry(`sale-${a1}:pending`, 'sale', 'pending', 1830, 'a1', at[0]!, availableAt(at[0]!)),
      entry(`sale-${a2}:pending`, 'sale', 'pending', 3660, 'a2', at[1]!, availableAt(at[1]!)),
      entry(`refund-${a2}:pending`, 'refund', 'pending', -3660, 'a2', at[1]!),
      entry(`settlement-${a1}:pending`, 'settlement', 'pending', -1830, 'a1', at[2]!),
      entry(`settlement-${a1}:available`, 'settlement', 'available', 1830, 'a1', at[2]!),
      entry(`sale-${a3}:pending`, 'sale', 'pending', 1830, 'a3', at[4]!, availableAt(at[4]!)),
    ];
    const { items: all, pages } = await allPages(alpha.api, '/balance/entries?limit=2');
    expect(pages).toBe(3);
    expect(all).toEqual(alphaEntries);
    expect(new Set(all.map((e) => e.order_id)).size).toBe(3);
    expect((await allPages(beta.api, '/balance/entries')).items).toEqual([
      entry(`sale-${b1}:pending`, 'sale', 'pending', 914, 'b1', at[0]!, availableAt(at[0]!)),
      entry(`settlement-${b1}:pending`, 'settlement', 'pending', -914, 'b1', at[2]!),
      entry(`settlement-${b1}:available`, 'settlement', 'available', 914, 'b1', at[2]!),
      entry(`refund-${b1}:available`, 'refund', 'available', -914, 'b1', at[3]!),
    ]);
    const bad = await alpha.api.get('/balance/entries?cursor=abc');
    expect(bad.status).toBe(422);
  });

  it('filters entries by type, from (inclusive) and to (exclusive)', async () => {
    const ids = async (query: string) =>
      (await allPages(alpha.api, `/balance/entries?${query}`)).items.map((e) => e.id);
    const { a1, a2, a3 } = items;
    expect(await ids('type=sale')).toEqual([`sale-${a1}:pending`, `sale-${a2}:pending`, `sale-${a3}:pending`]);
    expect(await ids('type=refund')).toEqual([`refund-${a2}:pending`]);
    expect(await ids('type=settlement&limit=1')).toEqual([`settlement-${a1}:pending`, `settlement-${a1}:available`]);
    const q = (t: string) => encodeURIComponent(t);
    expect(await ids(`from=${q(at[1]!)}&to=${q(at[4]!)}`)).toEqual([
      `sale-${a2}:pending`,
      `refund-${a2}:pending`,
      `settlement-${a1}:pending`,
      `settlement-${a1}:available`,
    ]);
    expect(await ids(`from=${q(at[2]!)}`)).toEqual([
      `settlement-${a1}:pending`,
      `settlement-${a1}:available`,
      `sale-${a3}:pending`,
    ]);
    expect(await ids(`to=${q(at[1]!)}`)).toEqual([`sale-${a1}:pending`]);
    expect(await ids(`type=sale&from=${q(at[1]!)}&to=${q(at[2]!)}`)).toEqual([`sale-${a2}:pending`]);
    expect((await alpha.api.get('/balance/entries?type=withdrawal')).status).toBe(422);
    expect((await alpha.api.get('/balance/entries?from=monday')).status).toBe(422);
  });
});
