import { describe, expect, it } from 'vitest';
import type { BalanceEvent } from '../../src/domain/balance.js';
import type { InventoryEvent } from '../../src/domain/inventory.js';
import type { OfferEvent } from '../../src/domain/offer.js';
import type { OrderEvent, OrderItem } from '../../src/domain/order.js';
import type { PayoutScheduleEvent } from '../../src/domain/payout-schedule.js';
import type { PricingRuleEvent } from '../../src/domain/pricing-rule.js';
import { processProjectors } from '../../src/processes/index.js';
import { fulfilmentProcess } from '../../src/processes/fulfilment.js';
import { orderProcess } from '../../src/processes/orders.js';
import { payoutProcess } from '../../src/processes/payouts.js';
import { pricingProcess } from '../../src/processes/pricing.js';
import { webhookProcess } from '../../src/processes/webhooks.js';
import { WebhookListeners } from '../../src/processes/webhook-listeners.js';
import { webhooksProjection } from '../../src/projections/webhooks.js';
import type { WebhookEndpointEvent } from '../../src/domain/webhook-endpoint.js';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { on, recorded, rowsAfter, writtenAt } from './given-rows.js';

/** Moments of the scenarios: minute m of 2026-03-04 (a Wednesday) 15:00 UTC. */
const t = (m: number) => new Date(Date.UTC(2026, 2, 4, 15, m)).toISOString();
/** `t(m)` plus `s` seconds. */
const ts = (m: number, s: number) => new Date(Date.parse(t(m)) + s * 1000).toISOString();

const offer = (e: OfferEvent) => on<OfferEvent>(`offer-${e.data.offerId}`, e);
const inventory = (e: InventoryEvent) => on<InventoryEvent>(`inventory-${e.data.offerId}`, e);
const order = (e: OrderEvent) => on<OrderEvent>(`order-${e.data.orderId}`, e);
const balance = (e: BalanceEvent) => on<BalanceEvent>(`balance-${e.data.supplierId}`, e);
const schedule = (e: PayoutScheduleEvent) => on<PayoutScheduleEvent>(`payout-schedule-${e.data.supplierId}`, e);
const rule = (e: PricingRuleEvent) => on<PricingRuleEvent>(`pricing-rule-${e.data.offerId}`, e);

/** A timer row as the process writes it: not claimed, never attempted, no trace context (tracing off). */
const timer = (kind: string, key: string, due: string, payload: unknown, createdAt = due) => ({
  kind,
  key,
  due_at: due,
  payload,
  attempts: 0,
  claimed_by: null,
  claimed_until: null,
  last_error: null,
  created_at: createdAt,
  traceparent: null,
});
// byte order: the server's collation would otherwise decide how '.' and '-' sort
const TIMERS = { timers: 'kind collate "C", key collate "C"' };

const item = (orderItemId: string, supplierId: string): OrderItem => ({
  orderItemId,
  productId: 'prod-1',
  offerId: 'off-1',
  supplierId,
  externalRef: 'KF-1',
  quantity: 1,
  unitPrice: 1500,
  gross: 1500,
  commission: 150,
  net: 1350,
  source: 'uploaded',
  reservationId: null,
  inventoryItemIds: [],
  status: 'reserved',
  deliveredAt: null,
});

/** Order ord-1 placed at minute 0 with one item of sup-a, expiring at minute 15. */
const placedOne = {
  orderId: 'ord-1',
  buyerCountry: 'DE',
  items: [item('oi-1', 'sup-a')],
  supplierIds: ['sup-a'],
  expiresAt: t(15),
  at: t(0),
};

const sale = (orderItemId: string, m: number) =>
  balance({
    type: 'SaleCredited',
    data: {
      supplierId: 'sup-a',
      orderId: 'ord-1',
      orderItemId,
      entryId: `sale-${orderItemId}`,
      gross: 1500,
      commission: 150,
      net: 1350,
      availableAt: t(m + 60),
      postings: [
        { account: 'buyer_funds', amount: -1500 },
        { account: 'supplier_pending', amount: 1350 },
        { account: 'platform_commission', amount: 150 },
      ],
      at: t(m),
    },
  });

const refunded = order({
  type: 'OrderRefunded',
  data: {
    orderId: 'ord-1',
    refundId: 'ref-1',
    items: [
      { orderItemId: 'oi-1', supplierId: 'sup-a', gross: 1500, commission: 150, net: 1350, delivered: true },
      // a failed top-up had no sale to reverse
      { orderItemId: 'oi-2', supplierId: 'sup-b', gross: 1500, commission: 150, net: 1350, delivered: false },
    ],
    supplierIds: ['sup-a', 'sup-b'],
    at: t(9),
  },
});

describe('process managers: given events, then timers', () => {
  it('order process: expiry, orphan reservation, provisioning, sales, refunds and settlement timers', async () => {
    const reserved = { offerId: 'off-1', orderId: 'ord-1', orderItemId: 'oi-1', itemIds: ['itm-1'] };
    const events = recorded([
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-1',
          buyerCountry: 'DE',
          items: [item('oi-1', 'sup-a'), item('oi-2', 'sup-b')],
          supplierIds: ['sup-a', 'sup-b'],
          expiresAt: t(15),
          at: t(0),
        },
      }),
      inventory({ type: 'InventoryReserved', data: { ...reserved, expiresAt: t(15), at: t(0) } }),
      // a renewed reservation of the same item: the orphan watchdog already scheduled stays
      inventory({ type: 'InventoryReserved', data: { ...reserved, expiresAt: t(30), at: t(5) } }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-1', supplierIds: ['sup-a', 'sup-b'], at: t(6) } }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a', 'sup-b'], at: t(7) } }),
      sale('oi-1', 8),
      refunded,
      // no reaction of this process
      order({ type: 'OrderExpired', data: { orderId: 'ord-2', supplierIds: [], at: t(10) } }),
    ]);
    // paid in a later batch: the watchdogs of placement and authorization stay (see below)
    expect(await rowsAfter(orderProcess, [events.slice(0, 4), events.slice(4)], TIMERS)).toEqual({
      timers: [
        timer(
          'inventory.reservation-expiry',
          'off-1:oi-1',
          ts(16, 0), // the reservation's TTL and a minute of grace
          { offerId: 'off-1', orderId: 'ord-1', orderItemId: 'oi-1' },
        ),
        timer('ledger.post-refunds', 'ref-1', ts(9, 5), {
          orderId: 'ord-1',
          items: [{ supplierId: 'sup-a', orderItemId: 'oi-1' }],
        }),
        timer('ledger.post-sales', 'ord-1', ts(7, 5), {}),
        timer('ledger.settle', 'oi-1', t(68), { supplierId: 'sup-a' }),
        timer('order.expire', 'ord-1', t(15), {}),
        timer('order.provision', 'ord-1', ts(6, 5), {}),
      ],
    });
  });

  describe('order process: watchdogs the same batch shows moot are never written', () => {
    const reserved = {
      offerId: 'off-1',
      orderId: 'ord-1',
      orderItemId: 'oi-1',
      itemIds: ['itm-1'],
      expiresAt: t(15),
    };
    /** A sandbox order from uploaded stock, as its one write records it. */
    const oneWrite = recorded([
      inventory({ type: 'InventoryReserved', data: { ...reserved, at: t(0) } }),
      inventory({ type: 'InventoryDelivered', data: { ...reserved, at: t(0) } }),
      order({ type: 'OrderPlaced', data: placedOne }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(0) } }),
      order({
        type: 'OrderItemDelivered',
        data: { orderId: 'ord-1', orderItemId: 'oi-1', inventoryItemIds: ['itm-1'], at: t(0) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(0) } }),
      sale('oi-1', 0),
    ]);
    /** Events `from` on committed in one transaction with the one before `from`. */
    const oneTransaction = (events: RecordedEvent[], from = 1) =>
      events.map((e, i) =>
        i < from ? e : { ...e, position: { ...e.position, commit: events[from - 1]!.position.commit } },
      );
    const settle = timer('ledger.settle', 'oi-1', t(60), { supplierId: 'sup-a' });

    it('paid, handed over and its sales posted in one transaction: only the settlement timer', async () => {
      expect(await rowsAfter(orderProcess, [oneTransaction(oneWrite)], TIMERS)).toEqual({ timers: [settle] });
    });

    it('its sales posted in a transaction after the payment: the post-sales watchdog stays', async () => {
      const sales = oneTransaction(oneWrite.slice(0, 6)).concat(oneWrite.slice(6));
      expect(await rowsAfter(orderProcess, [sales], TIMERS)).toEqual({
        timers: [timer('ledger.post-sales', 'ord-1', ts(0, 5), {}), settle],
      });
    });

    it('the marks in a later batch: every watchdog stays, to find its work done when it runs', async () => {
      const events = oneTransaction(oneWrite);
      expect(
        await rowsAfter(orderProcess, [[events[0]!, events[2]!, events[3]!], events.slice(4), [events[1]!]], TIMERS),
      ).toEqual({
        timers: [
          timer('inventory.reservation-expiry', 'off-1:oi-1', t(16), {
            offerId: 'off-1',
            orderId: 'ord-1',
            orderItemId: 'oi-1',
          }),
          settle,
          timer('order.expire', 'ord-1', t(15), {}),
          timer('order.provision', 'ord-1', ts(0, 5), {}),
        ],
      });
    });
  });

  it('fulfilment process: declared stock, top-up and healthcheck timers', async () => {
    const events = recorded([
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(0) } }),
      order({
        type: 'OrderItemCancelled',
        data: {
          orderId: 'ord-1',
          orderItemId: 'oi-1',
          offerId: 'off-1',
          supplierId: 'sup-a',
          reason: 'allocation_window_missed',
          at: t(1),
        },
      }),
      order({
        type: 'OrderItemRerouted',
        data: { orderId: 'ord-1', replacesItemId: 'oi-1', item: item('oi-3', 'sup-b'), at: t(2) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-b'], at: t(3) } }),
      order({
        type: 'OrderItemTopupCompleted',
        data: { orderId: 'ord-1', orderItemId: 'oi-4', operationId: 'op-1', receiptRef: 'rcpt-1', at: t(4) },
      }),
      order({
        type: 'OrderItemTopupFailed',
        data: {
          orderId: 'ord-1',
          orderItemId: 'oi-5',
          operationId: 'op-2',
          code: 'account_not_found',
          message: 'no such player',
          at: t(5),
        },
      }),
      order({
        type: 'OrderItemTopupFailed',
        data: {
          orderId: 'ord-1',
          orderItemId: 'oi-6',
          operationId: 'op-3',
          code: 'account_invalid',
          message: 'account closed',
          stage: 'revalidation',
          at: t(6),
        },
      }),
      refunded,
      offer({ type: 'OfferActivated', data: { offerId: 'off-1', health: 100, at: t(10) } }),
    ]);
    expect(await rowsAfter(fulfilmentProcess, [events], TIMERS)).toEqual({
      timers: [
        timer('declared.cancelled', 'oi-1', t(1), { orderId: 'ord-1', reason: 'allocation_window_missed' }),
        timer('declared.refunded', 'ref-1', t(9), { orderId: 'ord-1', orderItemIds: ['oi-1', 'oi-2'] }),
        timer('declared.rerouted', 'oi-3', t(2), { orderId: 'ord-1' }),
        timer('declared.start', 'ord-1', t(0), {}),
        timer('offer.healthcheck', 'off-1', t(15), {}), // every five minutes
        timer('topup.failed', 'oi-5', t(5), { orderId: 'ord-1', executeFailed: true }),
        timer('topup.failed', 'oi-6', t(6), { orderId: 'ord-1', executeFailed: false }),
        timer('topup.post-sale', 'oi-4', t(4), { orderId: 'ord-1' }),
        timer('topup.start', 'ord-1', t(3), {}),
      ],
    });
  });

  it("fulfilment process: an order that names its items' sources starts only the processes of those sources", async () => {
    const events = recorded([
      // uploaded keys only: neither the declared-stock nor the top-up process has anything to do
      order({
        type: 'OrderPaymentAuthorized',
        data: { orderId: 'ord-1', supplierIds: ['sup-a'], sources: ['uploaded'], at: t(0) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a'], sources: ['uploaded'], at: t(1) } }),
      // declared stock beside a top-up: both start
      order({
        type: 'OrderPaymentAuthorized',
        data: { orderId: 'ord-2', supplierIds: ['sup-a'], sources: ['declared', 'topup'], at: t(2) },
      }),
      order({
        type: 'OrderPaid',
        data: { orderId: 'ord-2', supplierIds: ['sup-a'], sources: ['declared', 'topup'], at: t(3) },
      }),
      // a top-up alone: authorization starts no declared-stock process
      order({
        type: 'OrderPaymentAuthorized',
        data: { orderId: 'ord-3', supplierIds: ['sup-a'], sources: ['topup'], at: t(4) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-3', supplierIds: ['sup-a'], sources: ['topup'], at: t(5) } }),
    ]);
    expect(await rowsAfter(fulfilmentProcess, [events], TIMERS)).toEqual({
      timers: [
        timer('declared.start', 'ord-2', t(2), {}),
        timer('topup.start', 'ord-2', t(3), {}),
        timer('topup.start', 'ord-3', t(5), {}),
      ],
    });
  });

  it('webhook process: one fan-out per event a webhook comes from, at the moment it was written', async () => {
    const events = recorded([
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(0) } }),
      offer({ type: 'OfferActivated', data: { offerId: 'off-1', health: 100, at: t(1) } }),
      offer({ type: 'OfferDeactivated', data: { offerId: 'off-1', reason: 'supplier_request', at: t(2) } }),
      inventory({
        type: 'InventoryItemInvalidated',
        data: {
          offerId: 'off-1',
          supplierId: 'sup-a',
          itemId: 'itm-1',
          previousStatus: 'available',
          reason: 'key already redeemed',
          at: t(3),
        },
      }),
    ]);
    expect(await rowsAfter(webhookProcess(), [events], TIMERS)).toEqual({
      timers: [
        timer('webhook.fanout', 'evt-0001', writtenAt(1).toISOString(), { position: '1001/1' }),
        timer('webhook.fanout', 'evt-0003', writtenAt(3).toISOString(), { position: '1003/3' }),
        timer('webhook.fanout', 'evt-0004', writtenAt(4).toISOString(), { position: '1004/4' }),
      ],
    });
  });

  it('webhook process with its listeners: no fan-out for events naming only suppliers that never had an endpoint', async () => {
    const events = recorded(
      [
        order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(0) } }),
        on<WebhookEndpointEvent>('webhook-we-1', {
          type: 'WebhookEndpointCreated',
          data: {
            endpointId: 'we-1',
            supplierId: 'sup-b',
            url: 'https://hooks.keyforge.example/b',
            events: ['order.paid'],
            description: '',
            secretSealed: 'sealed-w1',
            at: t(1),
          },
        }),
        order({ type: 'OrderPaid', data: { orderId: 'ord-2', supplierIds: ['sup-a'], at: t(2) } }),
        order({ type: 'OrderPaid', data: { orderId: 'ord-3', supplierIds: ['sup-a', 'sup-b'], at: t(3) } }),
        // names no supplier: only the fan-out's own read can tell, so it is fanned out
        offer({ type: 'OfferDeactivated', data: { offerId: 'off-1', reason: 'supplier_request', at: t(4) } }),
      ],
      10,
    );
    // an endpoint of sup-c exists before: read from the table on first use
    const before = recorded(
      [
        on<WebhookEndpointEvent>('webhook-we-0', {
          type: 'WebhookEndpointCreated',
          data: {
            endpointId: 'we-0',
            supplierId: 'sup-c',
            url: 'https://hooks.keyforge.example/c',
            events: ['*'],
            description: '',
            secretSealed: 'sealed-w0',
            at: t(0),
          },
        }),
      ],
      1,
    );
    const later = recorded(
      [order({ type: 'OrderPaid', data: { orderId: 'ord-4', supplierIds: ['sup-c'], at: t(5) } })],
      20,
    );
    // as the runner does: every batch goes to the observers before any projector
    const listeners = new WebhookListeners();
    listeners.observe(events);
    const rows = await rowsAfter([webhooksProjection, webhookProcess(listeners)], [before, events, later], TIMERS);
    expect(rows).toEqual({
      timers: [
        timer('webhook.fanout', 'evt-0013', writtenAt(13).toISOString(), { position: '1013/13' }),
        timer('webhook.fanout', 'evt-0014', writtenAt(14).toISOString(), { position: '1014/14' }),
        timer('webhook.fanout', 'evt-0020', writtenAt(20).toISOString(), { position: '1020/20' }),
      ],
    });
  });
  it('pricing process: a market change per offer event and rule set; an update without a price is none', async () => {
    const events = recorded([
      offer({
        type: 'OfferCreated',
        data: {
          offerId: 'off-1',
          supplierId: 'sup-a',
          productId: 'prod-1',
          price: 1500,
          externalRef: 'KF-1',
          lowStockThreshold: 2,
          deliverySlaMinutes: 5,
          deliveryTime: 'instant',
          stockMode: 'uploaded',
          declaredStock: null,
          fulfilment: null,
          at: t(0),
        },
      }),
      offer({ type: 'OfferUpdated', data: { offerId: 'off-1', changes: { externalRef: 'KF-1b' }, at: t(1) } }),
      offer({ type: 'OfferUpdated', data: { offerId: 'off-1', changes: { price: 1400 }, at: t(2) } }),
      rule({
        type: 'PricingRuleSet',
        data: {
          offerId: 'off-1',
          supplierId: 'sup-a',
          rule: {
            beatBy: { kind: 'amount', amount: 1 },
            floor: 1000,
            ceiling: 2000,
            maxChangesPerHour: 4,
            whenAlone: 'keep',
          },
          at: t(3),
        },
      }),
      offer({
        type: 'OfferHealthChanged',
        data: { offerId: 'off-1', health: 90, delta: -10, reason: 'delivery_slow', at: t(4) },
      }),
      offer({
        type: 'OfferCooldownStarted',
        data: { offerId: 'off-1', until: t(35), since: t(5), reason: 'delivery_timeout', at: t(5) },
      }),
      rule({ type: 'PricingRuleRemoved', data: { offerId: 'off-1', supplierId: 'sup-a', at: t(6) } }),
    ]);
    const market = (n: number) =>
      timer('pricing.market-changed', `evt-000${n}`, writtenAt(n).toISOString(), {
        offerId: 'off-1',
        position: `${1000 + n}/${n}`,
      });
    expect(await rowsAfter(pricingProcess, [events], TIMERS)).toEqual({
      timers: [market(1), market(3), market(4), market(6)],
    });
  });

  it('payout process: a schedule is one timer per supplier, moved when it changes and removed when manual', async () => {
    const set = (supplierId: string, interval: 'manual' | 'daily' | 'weekly', m: number) =>
      schedule({
        type: 'PayoutScheduleSet',
        data: { supplierId, interval, minimumAmount: 2000, method: 'sepa_bank_transfer', at: t(m) },
      });
    const events = recorded([
      set('sup-a', 'daily', 0),
      set('sup-b', 'daily', 1),
      set('sup-c', 'weekly', 2),
      // Wednesday: the next weekly run is Monday 00:00 UTC; the row keeps its first creation time
      set('sup-a', 'weekly', 3),
      set('sup-b', 'manual', 4),
    ]);
    expect(await rowsAfter(payoutProcess, [events], TIMERS)).toEqual({
      timers: [
        timer('payout.schedule', 'sup-a', '2026-03-09T00:00:00.000Z', {}, t(0)),
        timer('payout.schedule', 'sup-c', '2026-03-09T00:00:00.000Z', {}, t(2)),
      ],
    });
    const daily = recorded([set('sup-a', 'daily', 0)]);
    expect(await rowsAfter(payoutProcess, [daily], TIMERS)).toEqual({
      timers: [timer('payout.schedule', 'sup-a', '2026-03-05T00:00:00.000Z', {}, t(0))],
    });
  });

  describe('every process manager on one batch', () => {
    const reserved = { offerId: 'off-1', orderId: 'ord-1', orderItemId: 'oi-1', itemIds: ['itm-1'] };
    const events = recorded([
      order({ type: 'OrderPlaced', data: placedOne }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(1) } }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a'], at: t(2) } }),
      sale('oi-1', 3),
      inventory({ type: 'InventoryReserved', data: { ...reserved, expiresAt: t(15), at: t(0) } }),
      // renewed in the same batch: the first reservation's watchdog is kept
      inventory({ type: 'InventoryReserved', data: { ...reserved, expiresAt: t(30), at: t(4) } }),
      offer({
        type: 'OfferPriceChanged',
        data: { offerId: 'off-1', price: 1450, previousPrice: 1500, reason: 'pricing_rule', at: t(5) },
      }),
      schedule({
        type: 'PayoutScheduleSet',
        data: { supplierId: 'sup-a', interval: 'daily', minimumAmount: 2000, method: 'paypal', at: t(6) },
      }),
    ]);
    const expected = {
      timers: [
        timer('declared.start', 'ord-1', t(1), {}),
        timer('inventory.reservation-expiry', 'off-1:oi-1', t(16), {
          offerId: 'off-1',
          orderId: 'ord-1',
          orderItemId: 'oi-1',
        }),
        timer('ledger.post-sales', 'ord-1', ts(2, 5), {}),
        timer('ledger.settle', 'oi-1', t(63), { supplierId: 'sup-a' }),
        timer('order.expire', 'ord-1', t(15), {}),
        timer('order.provision', 'ord-1', ts(1, 5), {}),
        timer('payout.schedule', 'sup-a', '2026-03-05T00:00:00.000Z', {}, t(6)),
        timer('pricing.market-changed', 'evt-0007', writtenAt(7).toISOString(), {
          offerId: 'off-1',
          position: '1007/7',
        }),
        timer('topup.start', 'ord-1', t(2), {}),
        timer('webhook.fanout', 'evt-0001', writtenAt(1).toISOString(), { position: '1001/1' }),
        timer('webhook.fanout', 'evt-0003', writtenAt(3).toISOString(), { position: '1003/3' }),
        timer('webhook.fanout', 'evt-0007', writtenAt(7).toISOString(), { position: '1007/7' }),
      ],
    };

    it('the timers of several managers are gathered into the batch; a repeated (kind, key) keeps the first', async () => {
      // the payment in the same batch settles the order's expiry and provisioning watchdogs
      const settled = ['order.expire', 'order.provision'];
      expect(await rowsAfter(processProjectors(), [events], TIMERS)).toEqual({
        timers: expected.timers.filter((row) => !settled.includes(row.kind)),
      });
    });

    it('one event per batch leaves every timer: a watchdog is settled only by a mark in its own batch', async () => {
      expect(
        await rowsAfter(
          processProjectors(),
          events.map((e) => [e]),
          TIMERS,
        ),
      ).toEqual(expected);
    });
  });
});
