import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routingExplain } from '../../src/cli/routing.js';
import { recordOutcome } from '../../src/commands/declared.js';
import { replayLine, type RoutingReceipt } from '../../src/domain/routing-receipt.js';
import { startTestService, type TestService } from '../support/harness.js';
import { checkout, eur, keys, type Supplier, troubles, uploadedOffer, withDb } from './fixtures.js';

/**
 * Routing receipts: each order's routing recorded with its inputs, and each candidate's
 * supplier told where its offer stood (GET /offers/{id}/routing), never who beat it.
 */
describe('routing receipts', () => {
  let svc: TestService;
  const suppliers: Record<string, Supplier> = {};
  const offers: Record<string, string> = {};
  let productId: string;
  const orderIds: string[] = [];

  const lower = async (offerId: string, reason: 'call_failure' | 'missed_window', times: number) => {
    for (let i = 0; i < times; i++)
      await recordOutcome(svc.services.commands, offerId, reason, `test-${offerId}-${i}`, {});
  };

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    for (const name of ['Alpha Keys', 'Beta Keys', 'Gamma Keys', 'Delta Keys', 'Epsilon Keys'])
      suppliers[name] = await svc.newSupplier(name);
    productId = (await svc.newProduct({ name: 'Routing receipts' })).id;
    // the cheapest (9.00) has no keys; 9.50 is in a cooldown; 10.00 wins; 10.30 is second;
    // 11.00 has health 65 (seven failed calls), under the routing minimum of 70
    const offer = async (name: string, price: number, n: number) =>
      (await uploadedOffer(suppliers[name]!, productId, { price, values: keys(name.slice(0, 2), n) })).offerId;
    offers.empty = await offer('Delta Keys', 900, 0);
    offers.cooling = await offer('Epsilon Keys', 950, 5);
    offers.winner = await offer('Alpha Keys', 1000, 5);
    offers.second = await offer('Beta Keys', 1030, 5);
    offers.unhealthy = await offer('Gamma Keys', 1100, 5);
    await lower(offers.unhealthy, 'call_failure', 7);
    await lower(offers.cooling, 'missed_window', 1);
    await svc.drain();
    for (let i = 0; i < 3; i++) {
      orderIds.push((await checkout(svc, [{ product_id: productId, quantity: 1 }])).id);
      await svc.advance(60);
    }
    await svc.drain();
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });

  const routingOf = async (name: string, offerId: string, query = '') => {
    const res = await suppliers[name]!.api.get(`/offers/${offerId}/routing${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('tells each candidate whether it won and, if not, why, with its rank and gap', async () => {
    const at = (n: number) => ({ order_id: orderIds[n], routed_at: expect.any(String) });
    const entry = (fields: Record<string, unknown>) => orderIds.map((_, n) => ({ ...at(n), quantity: 1, ...fields }));
    expect((await routingOf('Alpha Keys', offers.winner!)).data).toEqual(
      entry({
        won: true,
        quantity_won: 1,
        reason: 'won',
        explanation: 'won: 1st of 2',
        rank: 1,
        ranked: 2,
        above_winner: eur(0),
        your_price: eur(1000),
      }),
    );
    expect((await routingOf('Beta Keys', offers.second!)).data).toEqual(
      entry({
        won: false,
        quantity_won: 0,
        reason: 'lower_price',
        explanation: 'a lower price: you were 2nd of 2, 0.30 € above',
        rank: 2,
        ranked: 2,
        above_winner: eur(30),
        your_price: eur(1030),
      }),
    );
    const excluded = (reason: string, explanation: string, price: number) =>
      entry({
        won: false,
        quantity_won: 0,
        reason,
        explanation,
        rank: null,
        ranked: 2,
        above_winner: null,
        your_price: eur(price),
      });
    expect((await routingOf('Gamma Keys', offers.unhealthy!)).data).toEqual(
      excluded('health_below_minimum', 'health under 70', 1100),
    );
    expect((await routingOf('Epsilon Keys', offers.cooling!)).data).toEqual(
      excluded('in_cooldown', 'in cooldown', 950),
    );
    expect((await routingOf('Delta Keys', offers.empty!)).data).toEqual(excluded('no_keys', 'no keys in stock', 900));
  });

  it("never shows a rival's offer, supplier or name", async () => {
    for (const [name, supplier] of Object.entries(suppliers)) {
      const mine = Object.values(offers);
      for (const offerId of mine) {
        const res = await supplier.api.get(`/offers/${offerId}/routing`);
        if (res.status === 404) continue;
        const text = res.text;
        for (const [other, s] of Object.entries(suppliers)) if (other !== name) expect(text).not.toContain(s.id);
        for (const other of mine) if (other !== offerId) expect(text).not.toContain(other);
        for (const other of Object.keys(suppliers)) if (other !== name) expect(text).not.toContain(other);
      }
    }
  });

  it("answers 404 for another supplier's offer and 422 for a period or cursor it cannot read, as problem+json", async () => {
    const other = await suppliers['Beta Keys']!.api.get(`/offers/${offers.winner}/routing`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const api = suppliers['Alpha Keys']!.api;
    const backwards = await api.get(
      `/offers/${offers.winner}/routing?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
    );
    expect(backwards.status).toBe(422);
    expect(backwards.body.code).toBe('validation_failed');
    const tooLong = await api.get(`/offers/${offers.winner}/routing?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    expect(tooLong.status).toBe(422);
    const cursor = await api.get(`/offers/${offers.winner}/routing?cursor=nonsense`);
    expect(cursor.status).toBe(422);
    expect(cursor.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('pages with the one cursor, oldest first', async () => {
    const first = await routingOf('Beta Keys', offers.second!, '?limit=2');
    expect(first.data.map((e: { order_id: string }) => e.order_id)).toEqual(orderIds.slice(0, 2));
    const next = await routingOf('Beta Keys', offers.second!, `?limit=2&cursor=${first.next_cursor}`);
    expect(next).toEqual({ data: [expect.objectContaining({ order_id: orderIds[2] })], next_cursor: null });
  });

  it('exports the period as CSV: decimal amounts and a currency column', async () => {
    const res = await suppliers['Beta Keys']!.api.get(`/offers/${offers.second}/routing`, {
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const body = (await routingOf('Beta Keys', offers.second!)).data as { order_id: string; routed_at: string }[];
    expect(res.text).toBe(
      [
        'order_id,routed_at,quantity,won,quantity_won,reason,explanation,rank,ranked,above_winner,your_price,currency',
        ...body.map(
          (e) =>
            `${e.order_id},${e.routed_at},1,false,0,lower_price,"a lower price: you were 2nd of 2, 0.30 € above",2,2,0.30,10.30,EUR`,
        ),
        '',
      ].join('\r\n'),
    );
  });

  it('records each decision with its inputs, and replaying them reaches the same winner', async () => {
    for (const orderId of orderIds) {
      const [event] = await svc.services.commands.store.readStream(`routing-${orderId}`);
      const receipt = event!.data as RoutingReceipt;
      expect(receipt.lines[0]!.served).toEqual([{ offerId: offers.winner, quantity: 1 }]);
      expect(receipt.lines[0]!.candidates.map((c) => c.offerId).sort()).toEqual(Object.values(offers).sort());
      expect(replayLine(receipt.lines[0]!)).toEqual({
        winner: offers.winner,
        recordedWinner: offers.winner,
        agrees: true,
      });
    }
  });

  describe('npm run cli -- routing explain ORDER_ID', () => {
    afterEach(() => vi.restoreAllMocks());
    const explain = async (orderId: string | undefined) => {
      const out: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
      vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
      vi.spyOn(console, 'table').mockImplementation((rows: unknown) => void out.push(JSON.stringify(rows)));
      const code = await routingExplain({ ...svc.services.config, databaseUrl: svc.databaseUrl }, orderId);
      vi.restoreAllMocks();
      return { code, out };
    };

    it('shows the recorded inputs and reaches the same winner from them', async () => {
      const { code, out } = await explain(orderIds[0]);
      expect(code).toBe(0);
      expect(out[1]).toMatch(new RegExp(`^line 1: product ${productId}, quantity 1, rule lowest_price, ranked at `));
      const rows = JSON.parse(out[2]!) as { offer: string; eligible: string; rank: number | string }[];
      expect(rows.map((r) => [r.offer, r.eligible, r.rank]).sort()).toEqual(
        [
          [offers.empty, 'no', '-'],
          [offers.cooling, 'no', '-'],
          [offers.winner, 'yes', 1],
          [offers.second, 'yes', 2],
          [offers.unhealthy, 'no', '-'],
        ].sort(),
      );
      expect(out[3]).toBe(`recorded winner ${offers.winner}; replayed from the inputs: ${offers.winner}: the same`);
    });

    it('exits 1 for an order without a receipt, 2 without an order id', async () => {
      expect((await explain('no-such-order')).code).toBe(1);
      expect((await explain(undefined)).code).toBe(2);
    });

    it('exits 1 naming both winners when the recorded winner is not what its inputs give', async () => {
      // an auditor's check: a receipt whose winner was altered no longer replays to it
      await withDb(svc, (db) =>
        db.query(
          `update es_events set data = jsonb_set(data, '{lines,0,served,0,offerId}', to_jsonb($2::text))
            where stream_id = $1`,
          [`routing-${orderIds[2]}`, offers.second],
        ),
      );
      const { code, out } = await explain(orderIds[2]);
      expect(code).toBe(1);
      expect(out[3]).toBe(`recorded winner ${offers.second}; replayed from the inputs: ${offers.winner}: DIFFERENT`);
    });
  });
});
