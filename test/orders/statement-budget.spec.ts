import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/harness.js';
import { keys, type Supplier, uploadedOffer, withDb } from './fixtures.js';

/**
 * How many SQL statements one uploaded-stock sandbox order costs the database, counted at
 * the driver: the request, the process managers and timers it sets off, the read models
 * that apply its events, until everything is quiet again. A budget that fails when it grows;
 * docs/performance.md says where the statements go and what the next cuts are.
 */
// 3.4 on a quiet machine (one append; the feed's head read and its batch in two round
// trips, shared by about two orders; a NOTIFY); a loaded one splits an order's events over
// more batches and polls the head more often
const BUDGET = 6;
const ORDERS = 40;

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/** Counts every statement any pg client in this process sends while `counting` is on. */
const statementCounter = () => {
  const original = pg.Client.prototype.query as Query;
  const seen = new Map<string, number>();
  let counting = false;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (counting) {
      const first = args[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '?');
      const shape = text
        .replace(/\s+/g, ' ')
        .trim()
        .replace(
          /^select transaction_id::text as commit, position, stream_id, stream_revision, event_id, type, data, metadata, schema_version, created_at/,
          'select <event>',
        )
        // a batch's text carries its values as literals: one line per shape, not per batch
        .replace(/E?'(?:[^']|'')*'/g, "'…'")
        .slice(0, 110);
      seen.set(shape, (seen.get(shape) ?? 0) + 1);
    }
    return original.apply(this, args);
  } as typeof pg.Client.prototype.query;
  return {
    start: () => {
      seen.clear();
      counting = true;
    },
    stop: () => {
      counting = false;
      return seen;
    },
    restore: () => {
      pg.Client.prototype.query = original as typeof pg.Client.prototype.query;
    },
  };
};

describe('statements per sandbox order', () => {
  let svc: TestService;
  let supplier: Supplier;
  let offerId: string;
  const counter = statementCounter();

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 10_000 } });
    supplier = await svc.newSupplier();
    const product = await svc.newProduct();
    ({ offerId } = await uploadedOffer(supplier, product.id, { price: 1999, values: keys('BUDGET', ORDERS + 5) }));
    // one order first: caches (aggregate states, prepared plans) are warm, as in a running service
    const first = await supplier.api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE' });
    expect(first.status, first.text).toBe(201);
    await svc.drain();
  });
  afterAll(async () => {
    counter.restore();
    await svc?.stop();
  });

  it('writes a sandbox order from uploaded stock in one append: the reservation and hand-over, the order placed to paid, the sale entry', async () => {
    const res = await supplier.api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE' });
    expect(res.status, res.text).toBe(201);
    const written = await withDb(svc, async (db) =>
      (
        await db.query(
          `select split_part(stream_id, '-', 1) as kind, type from es_events
            where transaction_id = (select transaction_id from es_events where stream_id = $1 and type = 'OrderPlaced')
            order by position`,
          [`order-${res.body.id}`],
        )
      ).rows.map((r) => [r.kind, r.type]),
    );
    expect(written).toEqual([
      ['inventory', 'InventoryReserved'],
      ['inventory', 'InventoryDelivered'],
      ['order', 'OrderPlaced'],
      ['order', 'OrderPaymentAuthorized'],
      ['order', 'OrderItemDelivered'],
      ['order', 'OrderPaid'],
      ['routing', 'OrderRouted'],
      ['balance', 'SaleCredited'],
    ]);
    await svc.drain();
  });

  it(`stays within ${BUDGET} statements per uploaded-stock order, its processes and read models included`, async () => {
    counter.start();
    for (let i = 0; i < ORDERS; i++) {
      const res = await supplier.api.post('/sandbox/orders', { offer_id: offerId, quantity: 1, buyer_country: 'DE' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe('completed');
    }
    await svc.drain();
    const seen = counter.stop();
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    const perOrder = total / ORDERS;
    const breakdown = [...seen.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([text, n]) => `${(n / ORDERS).toFixed(2).padStart(6)}  ${text}`)
      .join('\n');
    expect(perOrder, `statements per order:\n${breakdown}`).toBeLessThanOrEqual(BUDGET);
  }, 240_000);
});
