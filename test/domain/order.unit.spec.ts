import { describe, expect, it } from 'vitest';
import { type OrderEvent, orderDecider, type OrderItem, type PlacedItem } from '../../src/domain/order.js';
import { givenFor } from '../support/given.js';

const given = givenFor(orderDecider);

const t0 = '2026-01-05T10:00:00.000Z';
const expiresAt = '2026-01-05T10:15:00.000Z';
const t1 = '2026-01-05T10:01:00.000Z';
const t2 = '2026-01-05T10:02:00.000Z';

const line = (id: string, supplierId: string, unitPrice: number, quantity: number): PlacedItem => ({
  orderItemId: id,
  productId: 'p1',
  offerId: `offer-${supplierId}`,
  supplierId,
  externalRef: `SKU-${supplierId}`,
  quantity,
  unitPrice,
  source: 'uploaded',
  reservationId: null,
  inventoryItemIds: [`key-${id}-1`],
});

// 1999 x 2 = 3998: 339.83 rounds to 340. 50 x 1 = 50: 4.25 rounds to 4, the minimum fee makes it 5.
const a: OrderItem = {
  ...line('i1', 's2', 1999, 2),
  gross: 3998,
  commission: 340,
  net: 3658,
  status: 'reserved',
  deliveredAt: null,
};
const b: OrderItem = {
  ...line('i2', 's1', 50, 1),
  gross: 50,
  commission: 5,
  net: 45,
  status: 'reserved',
  deliveredAt: null,
};

const placed: OrderEvent = {
  type: 'OrderPlaced',
  data: { orderId: 'o1', buyerCountry: 'DE', items: [a, b], supplierIds: ['s1', 's2'], expiresAt, at: t0 },
};
const authorized: OrderEvent = {
  type: 'OrderPaymentAuthorized',
  data: { orderId: 'o1', supplierIds: ['s1', 's2'], sources: ['uploaded'], at: t1 },
};
const deliveredA: OrderEvent = {
  type: 'OrderItemDelivered',
  data: { orderId: 'o1', orderItemId: 'i1', inventoryItemIds: ['k1', 'k2'], at: t1 },
};
const deliveredB: OrderEvent = {
  type: 'OrderItemDelivered',
  data: { orderId: 'o1', orderItemId: 'i2', inventoryItemIds: ['k3'], at: t1 },
};
const paid: OrderEvent = {
  type: 'OrderPaid',
  data: { orderId: 'o1', supplierIds: ['s1', 's2'], sources: ['uploaded'], at: t1 },
};
const completed = [placed, authorized, deliveredA, deliveredB, paid];

describe('Order', () => {
  it('prices every item by the commission rule when placed, and names its suppliers once, sorted', () => {
    given()
      .when({
        type: 'PlaceOrder',
        data: {
          orderId: 'o1',
          buyerCountry: 'DE',
          items: [line('i1', 's2', 1999, 2), line('i2', 's1', 50, 1)],
          expiresAt,
          now: t0,
        },
      })
      .then([placed]);
    given(placed)
      .when({
        type: 'PlaceOrder',
        data: { orderId: 'o1', buyerCountry: 'DE', items: [line('i1', 's2', 1999, 2)], expiresAt, now: t1 },
      })
      .then([]);
    given()
      .when({ type: 'PlaceOrder', data: { orderId: 'o1', buyerCountry: 'DE', items: [], expiresAt, now: t0 } })
      .thenThrows('validation_failed');
    expect(given(placed).state()).toMatchObject({
      status: 'placed',
      expiresAt,
      createdAt: t0,
      authorizedAt: null,
      paidAt: null,
    });
  });

  it('authorizes payment only before the reservation expires, once', () => {
    given(placed)
      .when({ type: 'AuthorizePayment', data: { now: t1 } })
      .then([authorized]);
    given(placed, authorized)
      .when({ type: 'AuthorizePayment', data: { now: t2 } })
      .then([]);
    given(placed)
      .when({ type: 'AuthorizePayment', data: { now: '2026-01-05T10:14:59.999Z' } })
      .then([{ ...authorized, data: { ...authorized.data, at: '2026-01-05T10:14:59.999Z' } }]);
    given(placed)
      .when({ type: 'AuthorizePayment', data: { now: expiresAt } })
      .thenThrows('invalid_state');
    given()
      .when({ type: 'AuthorizePayment', data: { now: t1 } })
      .thenThrows('not_found');
  });

  it('records a delivery only after authorization, once per item', () => {
    given(placed)
      .when({ type: 'RecordDelivery', data: { orderItemId: 'i1', inventoryItemIds: ['k1', 'k2'], now: t1 } })
      .thenThrows('invalid_state');
    given(placed, authorized)
      .when({ type: 'RecordDelivery', data: { orderItemId: 'i1', inventoryItemIds: ['k1', 'k2'], now: t1 } })
      .then([deliveredA]);
    given(placed, authorized, deliveredA)
      .when({ type: 'RecordDelivery', data: { orderItemId: 'i1', inventoryItemIds: ['k9'], now: t2 } })
      .then([]);
    given(placed, authorized)
      .when({ type: 'RecordDelivery', data: { orderItemId: 'nope', inventoryItemIds: [], now: t1 } })
      .thenThrows('not_found');
  });

  it('captures once every item is delivered, and is then completed', () => {
    given(placed)
      .when({ type: 'CapturePayment', data: { now: t1 } })
      .thenThrows('invalid_state');
    given(placed, authorized, deliveredA)
      .when({ type: 'CapturePayment', data: { now: t1 } })
      .thenThrows('invalid_state');
    given(placed, authorized, deliveredA, deliveredB)
      .when({ type: 'CapturePayment', data: { now: t1 } })
      .then([paid]);
    given(...completed)
      .when({ type: 'CapturePayment', data: { now: t2 } })
      .then([]);
    const state = given(...completed).state()!;
    expect(state).toMatchObject({ status: 'completed', authorizedAt: t1, paidAt: t1, completedAt: t1 });
    expect(state.items.map((i) => [i.orderItemId, i.status, i.inventoryItemIds, i.deliveredAt])).toEqual([
      ['i1', 'delivered', ['k1', 'k2'], t1],
      ['i2', 'delivered', ['k3'], t1],
    ]);
  });

  it('expires at the reservation TTL when unpaid, and never once payment is authorized', () => {
    given(placed)
      .when({ type: 'ExpireOrder', data: { now: '2026-01-05T10:14:59.999Z' } })
      .then([]);
    const expired: OrderEvent = {
      type: 'OrderExpired',
      data: { orderId: 'o1', supplierIds: ['s1', 's2'], at: expiresAt },
    };
    given(placed)
      .when({ type: 'ExpireOrder', data: { now: expiresAt } })
      .then([expired]);
    given(placed, expired)
      .when({ type: 'ExpireOrder', data: { now: t2 } })
      .then([]);
    given(placed, authorized)
      .when({ type: 'ExpireOrder', data: { now: '2026-01-05T11:00:00.000Z' } })
      .then([]);
    const state = given(placed, expired).state()!;
    expect(state.status).toBe('expired');
    expect(state.items.map((i) => i.status)).toEqual(['released', 'released']);
    given(placed, expired)
      .when({ type: 'AuthorizePayment', data: { now: t1 } })
      .thenThrows('invalid_state');
  });

  it('refunds delivered items, all or some, each once', () => {
    const refundAll: OrderEvent = {
      type: 'OrderRefunded',
      data: {
        orderId: 'o1',
        refundId: 'r1',
        items: [
          { orderItemId: 'i1', supplierId: 's2', gross: 3998, commission: 340, net: 3658, delivered: true },
          { orderItemId: 'i2', supplierId: 's1', gross: 50, commission: 5, net: 45, delivered: true },
        ],
        supplierIds: ['s1', 's2'],
        at: t2,
      },
    };
    given(placed)
      .when({ type: 'RefundOrder', data: { refundId: 'r1', now: t2 } })
      .thenThrows('invalid_state');
    given(...completed)
      .when({ type: 'RefundOrder', data: { refundId: 'r1', now: t2 } })
      .then([refundAll]);
    expect(given(...completed, refundAll).state()!.status).toBe('refunded');

    const refundB: OrderEvent = {
      type: 'OrderRefunded',
      data: {
        orderId: 'o1',
        refundId: 'r2',
        items: [{ orderItemId: 'i2', supplierId: 's1', gross: 50, commission: 5, net: 45, delivered: true }],
        supplierIds: ['s1'],
        at: t2,
      },
    };
    given(...completed)
      .when({ type: 'RefundOrder', data: { refundId: 'r2', orderItemIds: ['i2'], now: t2 } })
      .then([refundB]);
    const partial = given(...completed, refundB).state()!;
    expect(partial.status).toBe('partially_refunded');
    expect(partial.items.map((i) => i.status)).toEqual(['delivered', 'refunded']);
    // the refunded item is not refunded twice; the rest completes the refund
    given(...completed, refundB)
      .when({ type: 'RefundOrder', data: { refundId: 'r3', orderItemIds: ['i2'], now: t2 } })
      .then([]);
    given(...completed, refundB)
      .when({ type: 'RefundOrder', data: { refundId: 'r3', now: t2 } })
      .then([
        {
          type: 'OrderRefunded',
          data: { orderId: 'o1', refundId: 'r3', items: [refundAll.data.items[0]!], supplierIds: ['s2'], at: t2 },
        },
      ]);
    given(...completed)
      .when({ type: 'RefundOrder', data: { refundId: 'r4', orderItemIds: ['i2', 'zz'], now: t2 } })
      .thenRefuses([{ input: 'item_ids', message: 'no item zz in this order' }]);
  });

  it('records a dispute without changing the order, its status or its money: the item keeps the date of its first dispute', () => {
    given(placed)
      .when({ type: 'DisputeOrder', data: { reason: null, now: t2 } })
      .thenThrows('invalid_state');
    const disputed: OrderEvent = {
      type: 'OrderDisputed',
      data: { orderId: 'o1', orderItemIds: ['i1'], reason: 'not received', supplierIds: ['s2'], at: t2 },
    };
    given(...completed)
      .when({ type: 'DisputeOrder', data: { orderItemIds: ['i1'], reason: 'not received', now: t2 } })
      .then([disputed]);
    const before = given(...completed).state()!;
    const after = given(...completed, disputed).state()!;
    expect({ ...after, updatedAt: before.updatedAt }).toEqual({
      ...before,
      items: before.items.map((i) => (i.orderItemId === 'i1' ? { ...i, disputedAt: t2 } : i)),
    });
    const again: OrderEvent = { ...disputed, data: { ...disputed.data, at: '2026-12-31T00:00:00.000Z' } };
    expect(
      given(...completed, disputed, again)
        .state()!
        .items.find((i) => i.orderItemId === 'i1')!.disputedAt,
    ).toBe(t2);
  });

  it('takes no replacement for a cancelled item once the payment is captured or the order is over', () => {
    const cancelledB: OrderEvent = {
      type: 'OrderItemCancelled',
      data: {
        orderId: 'o1',
        orderItemId: 'i2',
        offerId: 'offer-s1',
        supplierId: 's1',
        reason: 'missed_window',
        at: t1,
      },
    };
    const capturedWithoutB: OrderEvent = {
      type: 'OrderPaid',
      data: { orderId: 'o1', supplierIds: ['s2'], sources: ['uploaded'], at: t2 },
    };
    const reroute = {
      type: 'RerouteItem' as const,
      data: {
        replacesItemId: 'i2',
        item: { ...line('i3', 's3', 50, 1), inventoryItemIds: ['key-i3-1'] },
        now: t2,
      },
    };
    given(placed, authorized, deliveredA, cancelledB, capturedWithoutB).when(reroute).then([]);
    // before the capture the replacement is taken
    const before = given(placed, authorized, deliveredA, cancelledB).state()!;
    expect(orderDecider.decide(reroute, before).map((e) => e.type)).toEqual(['OrderItemRerouted']);
  });
});
