import { describe, expect, it } from 'vitest';
import type { BalanceEvent } from '../../src/domain/balance.js';
import type { InventoryEvent } from '../../src/domain/inventory.js';
import type { OfferEvent } from '../../src/domain/offer.js';
import type { OrderEvent, OrderItem } from '../../src/domain/order.js';
import type { Account } from '../../src/domain/postings.js';
import type { PayoutScheduleEvent } from '../../src/domain/payout-schedule.js';
import type { ProductEvent, ProductFields } from '../../src/domain/product.js';
import type { SupplierEvent } from '../../src/domain/supplier.js';
import type { WebhookEndpointEvent } from '../../src/domain/webhook-endpoint.js';
import { derivedFamily } from '../../src/ids.js';
import { ledgerProjection } from '../../src/projections/ledger.js';
import { offersProjection } from '../../src/projections/offers.js';
import { ordersProjection } from '../../src/projections/orders.js';
import { payoutsProjection } from '../../src/projections/payouts.js';
import { productsProjection } from '../../src/projections/products.js';
import { suppliersProjection } from '../../src/projections/suppliers.js';
import { webhookEventLogProjection } from '../../src/projections/webhook-event-log.js';
import { webhooksProjection } from '../../src/projections/webhooks.js';
import {
  APPLIED_AT,
  oneBatchAndOneByOne,
  on,
  recorded,
  rowsAfter,
  rowsWhateverTheBatches,
  writtenAt,
} from './given-rows.js';

/** Moments of the scenarios: minute m of 2026-03-01 09:00 UTC. */
const t = (m: number) => new Date(Date.UTC(2026, 2, 1, 9, m)).toISOString();

const supplier = (e: SupplierEvent) => on<SupplierEvent>(`supplier-${e.data.supplierId}`, e);
const product = (e: ProductEvent) => on<ProductEvent>(`product-${e.data.productId}`, e);
const offer = (e: OfferEvent) => on<OfferEvent>(`offer-${e.data.offerId}`, e);
const inventory = (e: InventoryEvent) => on<InventoryEvent>(`inventory-${e.data.offerId}`, e);
const order = (e: OrderEvent) => on<OrderEvent>(`order-${e.data.orderId}`, e);
const balance = (e: BalanceEvent) => on<BalanceEvent>(`balance-${e.data.supplierId}`, e);
const schedule = (e: PayoutScheduleEvent) => on<PayoutScheduleEvent>(`payout-schedule-${e.data.supplierId}`, e);
const endpoint = (e: WebhookEndpointEvent) => on<WebhookEndpointEvent>(`webhook-${e.data.endpointId}`, e);

describe('read models: given events, then rows', () => {
  it('suppliers: registrations, tokens issued and revoked, rate limits; the checkpoint at the batch end', async () => {
    const events = recorded([
      supplier({ type: 'SupplierRegistered', data: { supplierId: 'sup-a', name: 'Keyforge', at: t(0) } }),
      supplier({
        type: 'SupplierTokenIssued',
        data: { supplierId: 'sup-a', tokenId: 'tok-1', tokenHash: 'hash-1', environment: 'production', at: t(1) },
      }),
      supplier({
        type: 'SupplierTokenIssued',
        data: { supplierId: 'sup-a', tokenId: 'tok-2', tokenHash: 'hash-2', environment: 'sandbox', at: t(2) },
      }),
      supplier({ type: 'SupplierRegistered', data: { supplierId: 'sup-b', name: 'Pixel Vault', at: t(3) } }),
      supplier({ type: 'SupplierTokenRevoked', data: { supplierId: 'sup-a', tokenId: 'tok-1', at: t(4) } }),
      // no handler: the claim lives in the supplier's stream only
      supplier({
        type: 'OfferSlotClaimed',
        data: { supplierId: 'sup-a', productId: 'prod-1', offerId: 'off-1', at: t(5) },
      }),
      supplier({
        type: 'SupplierRateLimitsSet',
        data: { supplierId: 'sup-b', limits: { reads: 1200, bulk: 30 }, at: t(6) },
      }),
    ]);
    expect(
      await rowsAfter(suppliersProjection, [events], {
        suppliers: 'id',
        supplier_tokens: 'token_id',
        projection_checkpoints: 'name',
      }),
    ).toEqual({
      suppliers: [
        { id: 'sup-a', name: 'Keyforge', created_at: t(0), rate_limits: null },
        { id: 'sup-b', name: 'Pixel Vault', created_at: t(3), rate_limits: { reads: 1200, bulk: 30 } },
      ],
      supplier_tokens: [
        {
          token_hash: 'hash-1',
          token_id: 'tok-1',
          supplier_id: 'sup-a',
          environment: 'production',
          created_at: t(1),
          revoked_at: t(4),
        },
        {
          token_hash: 'hash-2',
          token_id: 'tok-2',
          supplier_id: 'sup-a',
          environment: 'sandbox',
          created_at: t(2),
          revoked_at: null,
        },
      ],
      projection_checkpoints: [
        {
          name: 'suppliers',
          commit_position: '1007',
          prepare_position: 7,
          version: 2,
          updated_at: APPLIED_AT.toISOString(),
          // set by a rebuild only (migration 026)
          rebuilt_at: null,
        },
      ],
    });
  });

  it('products: created, then a partial update touches only the changed columns', async () => {
    const fields: ProductFields = {
      name: 'Starfall Deluxe',
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
      formFields: [],
      keyFormat: null,
    };
    const formFields: ProductFields['formFields'] = [
      {
        key: 'player_id',
        label: 'Player ID',
        type: 'text',
        required: true,
        pattern: '^[0-9]{8}$',
        max_length: 8,
        help_text: null,
        options: null,
      },
    ];
    const events = recorded([
      product({ type: 'ProductCreated', data: { ...fields, productId: 'prod-1', at: t(0) } }),
      product({
        type: 'ProductCreated',
        data: {
          ...fields,
          name: 'Gems 500',
          type: 'topup',
          platform: 'mobile',
          formFields,
          productId: 'prod-2',
          at: t(1),
        },
      }),
      product({
        type: 'ProductUpdated',
        data: { productId: 'prod-1', changes: { name: 'Starfall Ultimate', status: 'not_sellable' }, at: t(2) },
      }),
    ]);
    expect(await rowsAfter(productsProjection, [events], { products: 'id' })).toEqual({
      products: [
        {
          id: 'prod-1',
          name: 'Starfall Ultimate',
          type: 'game_key',
          platform: 'steam',
          region: 'EU',
          status: 'not_sellable',
          form_fields: [],
          key_format: null,
          created_at: t(0),
          updated_at: t(2),
        },
        {
          id: 'prod-2',
          name: 'Gems 500',
          type: 'topup',
          platform: 'mobile',
          region: 'EU',
          status: 'sellable',
          form_fields: formFields,
          key_format: null,
          created_at: t(1),
          updated_at: t(1),
        },
      ],
    });
  });

  it('offers: uploaded stock through reserve, deliver, release and remove; a declared offer through health and cooldown', async () => {
    const terms = {
      price: 1500,
      externalRef: 'KF-1',
      lowStockThreshold: 2,
      deliverySlaMinutes: 5,
      deliveryTime: 'instant',
    };
    const reservation = { offerId: 'off-1', orderId: 'ord-1', orderItemId: 'oi-1' };
    const events = recorded([
      offer({
        type: 'OfferCreated',
        data: {
          ...terms,
          offerId: 'off-1',
          supplierId: 'sup-a',
          productId: 'prod-1',
          stockMode: 'uploaded',
          declaredStock: null,
          fulfilment: null,
          at: t(0),
        },
      }),
      inventory({
        type: 'InventoryUploaded',
        data: {
          offerId: 'off-1',
          itemIds: ['itm-1', 'itm-2', 'itm-3'],
          fingerprints: ['fp-1', 'fp-2', 'fp-3'],
          masks: ['AB••••1234', 'CD••••5678', ''],
          held: [],
          files: [{ place: 2, fileName: 'key.png', contentType: 'image/png', size: 2048 }],
          rejected: [{ index: 3, code: 'duplicate_item', message: 'already uploaded' }],
          at: t(1),
        },
      }),
      offer({ type: 'OfferActivated', data: { offerId: 'off-1', health: 100, at: t(2) } }),
      inventory({
        type: 'InventoryReserved',
        data: { ...reservation, itemIds: ['itm-1', 'itm-2'], expiresAt: t(17), at: t(3) },
      }),
      inventory({ type: 'InventoryDelivered', data: { ...reservation, itemIds: ['itm-1'], at: t(4) } }),
      inventory({ type: 'InventoryReleased', data: { ...reservation, itemIds: ['itm-2'], at: t(5) } }),
      inventory({ type: 'InventoryItemRemoved', data: { offerId: 'off-1', itemId: 'itm-3', at: t(6) } }),
      offer({
        type: 'OfferPriceChanged',
        data: { offerId: 'off-1', price: 1450, previousPrice: 1500, reason: 'pricing_rule', at: t(7) },
      }),
      offer({
        type: 'OfferUpdated',
        data: { offerId: 'off-1', changes: { externalRef: 'KF-1b', lowStockThreshold: 1 }, at: t(8) },
      }),
      offer({
        type: 'OfferCreated',
        data: {
          ...terms,
          price: 2000,
          externalRef: 'PV-7',
          offerId: 'off-2',
          supplierId: 'sup-b',
          productId: 'prod-1',
          stockMode: 'declared',
          declaredStock: 5,
          fulfilment: { baseUrl: 'https://pv.example/fulfil', secretSealed: 'sealed-1' },
          at: t(10),
        },
      }),
      offer({
        type: 'FulfilmentChecked',
        data: {
          offerId: 'off-2',
          probe: { ok: true, httpStatus: 200, latencyMs: 40, checkedAt: t(11) },
          at: t(11),
        },
      }),
      offer({ type: 'OfferActivated', data: { offerId: 'off-2', health: 90, at: t(12) } }),
      offer({
        type: 'OfferHealthChanged',
        data: { offerId: 'off-2', health: 70, delta: -20, reason: 'delivery_timeout', outcomeId: 'oi-9', at: t(13) },
      }),
      offer({
        type: 'OfferCooldownStarted',
        data: { offerId: 'off-2', until: t(43), since: t(14), reason: 'delivery_timeout', at: t(14) },
      }),
      offer({ type: 'DeclaredStockSet', data: { offerId: 'off-2', declaredStock: 7, at: t(15) } }),
      offer({ type: 'OfferDeactivated', data: { offerId: 'off-2', reason: 'supplier_request', at: t(16) } }),
    ]);
    // item moves folded per batch, one by one, and in two batches: the same rows
    const { offers, inventory_items } = await rowsWhateverTheBatches(offersProjection, events, {
      offers: 'id',
      inventory_items: 'id',
    });
    expect(offers).toEqual([
      {
        id: 'off-1',
        supplier_id: 'sup-a',
        product_id: 'prod-1',
        external_ref: 'KF-1b',
        status: 'active',
        stock_mode: 'uploaded',
        price_amount: 1450,
        delivery_sla_minutes: 5,
        delivery_time: 'instant',
        low_stock_threshold: 1,
        declared_stock: null,
        // itm-2 back from its reservation; itm-1 delivered; itm-3 removed
        stock_available: 1,
        stock_reserved: 0,
        stock_delivered: 1,
        health_score: 100,
        cooldown_until: null,
        fulfilment_base_url: null,
        last_healthcheck_at: null,
        last_healthcheck_ok: null,
        activated_at: t(2),
        created_at: t(0),
        updated_at: t(8),
      },
      {
        id: 'off-2',
        supplier_id: 'sup-b',
        product_id: 'prod-1',
        external_ref: 'PV-7',
        status: 'inactive',
        stock_mode: 'declared',
        price_amount: 2000,
        delivery_sla_minutes: 5,
        delivery_time: 'instant',
        low_stock_threshold: 2,
        declared_stock: 7,
        stock_available: 0,
        stock_reserved: 0,
        stock_delivered: 0,
        health_score: 70,
        cooldown_until: t(43),
        fulfilment_base_url: 'https://pv.example/fulfil',
        last_healthcheck_at: t(11),
        last_healthcheck_ok: true,
        activated_at: t(12),
        created_at: t(10),
        updated_at: t(16),
      },
    ]);
    // one upload, one batch: its item ids' family
    const item = { offer_id: 'off-1', batch_id: derivedFamily('itm-1'), created_at: t(1) };
    expect(inventory_items).toEqual([
      {
        ...item,
        id: 'itm-1',
        kind: 'text',
        status: 'delivered',
        file_name: null,
        content_type: null,
        mask: 'AB••••1234',
        tail: '1234',
        size: null,
        order_id: 'ord-1',
        updated_at: t(4),
      },
      {
        ...item,
        id: 'itm-2',
        kind: 'text',
        status: 'available',
        file_name: null,
        content_type: null,
        mask: 'CD••••5678',
        tail: '5678',
        size: null,
        order_id: null,
        updated_at: t(5),
      },
      {
        ...item,
        id: 'itm-3',
        kind: 'file',
        status: 'removed',
        file_name: 'key.png',
        content_type: 'image/png',
        mask: null,
        tail: null,
        size: 2048,
        order_id: null,
        updated_at: t(6),
      },
    ]);
  });

  it('orders: placed, authorized, delivered, paid, partly refunded; one expired; a top-up paid then completed', async () => {
    const item = (o: Partial<OrderItem> & Pick<OrderItem, 'orderItemId' | 'offerId' | 'supplierId'>): OrderItem => ({
      productId: 'prod-1',
      externalRef: 'KF-1',
      quantity: 1,
      unitPrice: 1500,
      gross: 1500,
      commission: 150,
      net: 1350,
      source: 'uploaded',
      reservationId: `res-${o.orderItemId}`,
      inventoryItemIds: [],
      status: 'reserved',
      deliveredAt: null,
      ...o,
    });
    const topup = {
      operationId: 'op-1',
      accountLabel: 'player 1234…',
      formFields: { player_id: '12345678' },
      validatedAt: t(19),
      receiptRef: null,
    };
    const events = recorded([
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-1',
          buyerCountry: 'DE',
          items: [
            item({ orderItemId: 'oi-1', offerId: 'off-1', supplierId: 'sup-a' }),
            item({
              orderItemId: 'oi-2',
              offerId: 'off-2',
              supplierId: 'sup-b',
              externalRef: 'PV-7',
              quantity: 2,
              unitPrice: 2000,
              gross: 4000,
              commission: 400,
              net: 3600,
            }),
          ],
          supplierIds: ['sup-a', 'sup-b'],
          expiresAt: t(15),
          at: t(0),
        },
      }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-1', supplierIds: ['sup-a', 'sup-b'], at: t(1) } }),
      order({
        type: 'OrderItemDelivered',
        data: { orderId: 'ord-1', orderItemId: 'oi-1', inventoryItemIds: ['itm-1'], at: t(2) },
      }),
      order({
        type: 'OrderItemDelivered',
        data: { orderId: 'ord-1', orderItemId: 'oi-2', inventoryItemIds: ['itm-7', 'itm-8'], at: t(3) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: ['sup-a', 'sup-b'], at: t(4) } }),
      order({
        type: 'OrderRefunded',
        data: {
          orderId: 'ord-1',
          refundId: 'ref-1',
          items: [
            { orderItemId: 'oi-2', supplierId: 'sup-b', gross: 4000, commission: 400, net: 3600, delivered: true },
          ],
          supplierIds: ['sup-b'],
          at: t(5),
        },
      }),
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-2',
          buyerCountry: 'FR',
          items: [item({ orderItemId: 'oi-3', offerId: 'off-1', supplierId: 'sup-a' })],
          supplierIds: ['sup-a'],
          expiresAt: t(21),
          at: t(6),
        },
      }),
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-3',
          buyerCountry: 'AT',
          items: [
            item({
              orderItemId: 'oi-4',
              offerId: 'off-4',
              supplierId: 'sup-b',
              productId: 'prod-2',
              externalRef: 'GEMS',
              source: 'topup',
              reservationId: null,
              topup,
            }),
          ],
          supplierIds: ['sup-b'],
          expiresAt: t(35),
          at: t(20),
        },
      }),
      order({ type: 'OrderExpired', data: { orderId: 'ord-2', supplierIds: ['sup-a'], at: t(21) } }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-3', supplierIds: ['sup-b'], at: t(22) } }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-3', supplierIds: ['sup-b'], at: t(23) } }),
      order({
        type: 'OrderItemTopupCompleted',
        data: { orderId: 'ord-3', orderItemId: 'oi-4', operationId: 'op-1', receiptRef: 'rcpt-9', at: t(24) },
      }),
    ]);
    // folded in memory (one batch), statement by statement (one event per batch), and the
    // events of orders placed in an earlier batch in rounds (two batches): the same rows
    const rows = await rowsWhateverTheBatches(ordersProjection, events, { orders: 'id', order_items: 'id' });
    expect(rows.orders).toEqual([
      {
        id: 'ord-1',
        status: 'partially_refunded',
        buyer_country: 'DE',
        supplier_ids: ['sup-a', 'sup-b'],
        expires_at: t(15),
        created_at: t(0),
        authorized_at: t(1),
        paid_at: t(4),
        completed_at: t(4),
        updated_at: t(5),
      },
      {
        id: 'ord-2',
        status: 'expired',
        buyer_country: 'FR',
        supplier_ids: ['sup-a'],
        expires_at: t(21),
        created_at: t(6),
        authorized_at: null,
        paid_at: null,
        completed_at: null,
        updated_at: t(21),
      },
      {
        id: 'ord-3',
        status: 'completed',
        buyer_country: 'AT',
        supplier_ids: ['sup-b'],
        expires_at: t(35),
        created_at: t(20),
        authorized_at: t(22),
        paid_at: t(23),
        completed_at: t(24),
        updated_at: t(24),
      },
    ]);
    const row = {
      product_id: 'prod-1',
      external_ref: 'KF-1',
      quantity: 1,
      unit_price: 1500,
      gross: 1500,
      commission: 150,
      net: 1350,
      source: 'uploaded',
      topup: null,
    };
    expect(rows.order_items).toEqual([
      {
        ...row,
        id: 'oi-1',
        order_id: 'ord-1',
        position: 0,
        offer_id: 'off-1',
        supplier_id: 'sup-a',
        status: 'delivered',
        reservation_id: 'res-oi-1',
        inventory_item_ids: ['itm-1'],
        delivered_at: t(2),
        disputed_at: null,
        created_at: t(0),
      },
      {
        ...row,
        id: 'oi-2',
        order_id: 'ord-1',
        position: 1,
        offer_id: 'off-2',
        supplier_id: 'sup-b',
        external_ref: 'PV-7',
        quantity: 2,
        unit_price: 2000,
        gross: 4000,
        commission: 400,
        net: 3600,
        status: 'refunded',
        reservation_id: 'res-oi-2',
        inventory_item_ids: ['itm-7', 'itm-8'],
        delivered_at: t(3),
        disputed_at: null,
        created_at: t(0),
      },
      {
        ...row,
        id: 'oi-3',
        order_id: 'ord-2',
        position: 0,
        offer_id: 'off-1',
        supplier_id: 'sup-a',
        status: 'released',
        reservation_id: 'res-oi-3',
        inventory_item_ids: [],
        delivered_at: null,
        disputed_at: null,
        created_at: t(6),
      },
      {
        ...row,
        id: 'oi-4',
        order_id: 'ord-3',
        position: 0,
        product_id: 'prod-2',
        offer_id: 'off-4',
        supplier_id: 'sup-b',
        external_ref: 'GEMS',
        source: 'topup',
        status: 'delivered',
        reservation_id: null,
        inventory_item_ids: [],
        // the form fields stay in the order's stream; the receipt is added on completion
        topup: { operationId: 'op-1', accountLabel: 'player 1234…', receiptRef: 'rcpt-9' },
        delivered_at: t(24),
        disputed_at: null,
        created_at: t(20),
      },
    ]);
  });

  it('orders: the status while a top-up still runs after capture is paid', async () => {
    const events = recorded([
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-9',
          buyerCountry: 'DE',
          items: [
            {
              orderItemId: 'oi-9',
              productId: 'prod-2',
              offerId: 'off-4',
              supplierId: 'sup-b',
              externalRef: 'GEMS',
              quantity: 1,
              unitPrice: 500,
              gross: 500,
              commission: 50,
              net: 450,
              source: 'topup',
              reservationId: null,
              inventoryItemIds: [],
              status: 'reserved',
              deliveredAt: null,
              topup: null,
            },
          ],
          supplierIds: ['sup-b'],
          expiresAt: t(15),
          at: t(0),
        },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-9', supplierIds: ['sup-b'], at: t(2) } }),
    ]);
    // folded in memory (one batch), statement by statement (one event per batch), and the
    // events of orders placed in an earlier batch in rounds (two batches): the same rows
    const rows = await rowsWhateverTheBatches(ordersProjection, events, { orders: 'id' });
    expect(rows.orders).toEqual([
      {
        id: 'ord-9',
        status: 'paid',
        buyer_country: 'DE',
        supplier_ids: ['sup-b'],
        expires_at: t(15),
        created_at: t(0),
        authorized_at: null,
        paid_at: t(2),
        completed_at: null,
        updated_at: t(2),
      },
    ]);
  });

  it('offers: an item invalidated, a cooldown ended, a secret rotated', async () => {
    const events = recorded([
      offer({
        type: 'OfferCreated',
        data: {
          price: 900,
          externalRef: 'KF-2',
          lowStockThreshold: 1,
          deliverySlaMinutes: 10,
          deliveryTime: 'instant',
          offerId: 'off-1',
          supplierId: 'sup-a',
          productId: 'prod-1',
          stockMode: 'uploaded',
          declaredStock: null,
          fulfilment: { baseUrl: 'https://kf.example/fulfil', secretSealed: 'sealed-1' },
          at: t(0),
        },
      }),
      inventory({
        type: 'InventoryUploaded',
        data: {
          offerId: 'off-1',
          itemIds: ['itm-1', 'itm-2'],
          fingerprints: ['fp-1', 'fp-2'],
          masks: ['', ''],
          held: [],
          files: [],
          rejected: [],
          at: t(1),
        },
      }),
      offer({ type: 'OfferActivated', data: { offerId: 'off-1', health: 100, at: t(2) } }),
      inventory({
        type: 'InventoryReserved',
        data: {
          offerId: 'off-1',
          orderId: 'ord-1',
          orderItemId: 'oi-1',
          itemIds: ['itm-1'],
          expiresAt: t(18),
          at: t(3),
        },
      }),
      inventory({
        type: 'InventoryItemInvalidated',
        data: {
          offerId: 'off-1',
          supplierId: 'sup-a',
          itemId: 'itm-2',
          previousStatus: 'available',
          reason: 'key already redeemed',
          at: t(4),
        },
      }),
      // no handler here: the webhook's source only
      inventory({ type: 'OfferStockLow', data: { offerId: 'off-1', available: 0, threshold: 1, at: t(4) } }),
      offer({
        type: 'OfferCooldownStarted',
        data: { offerId: 'off-1', until: t(35), since: t(5), reason: 'invalid_key', outcomeId: 'itm-2', at: t(5) },
      }),
      offer({ type: 'OfferCooldownEnded', data: { offerId: 'off-1', health: 60, at: t(35) } }),
      offer({
        type: 'FulfilmentSecretRotated',
        data: {
          offerId: 'off-1',
          secretSealed: 'sealed-2',
          previousSecretSealed: 'sealed-1',
          previousValidUntil: t(96),
          at: t(36),
        },
      }),
    ]);
    const rows = await rowsWhateverTheBatches(offersProjection, events, { offers: 'id', inventory_items: 'id' });
    expect(rows.offers).toEqual([
      {
        id: 'off-1',
        supplier_id: 'sup-a',
        product_id: 'prod-1',
        external_ref: 'KF-2',
        status: 'active',
        stock_mode: 'uploaded',
        price_amount: 900,
        delivery_sla_minutes: 10,
        delivery_time: 'instant',
        low_stock_threshold: 1,
        declared_stock: null,
        stock_available: 0,
        stock_reserved: 1,
        stock_delivered: 0,
        health_score: 60,
        cooldown_until: null,
        fulfilment_base_url: 'https://kf.example/fulfil',
        last_healthcheck_at: null,
        last_healthcheck_ok: null,
        activated_at: t(2),
        created_at: t(0),
        updated_at: t(36),
      },
    ]);
    const item = {
      offer_id: 'off-1',
      kind: 'text',
      file_name: null,
      content_type: null,
      batch_id: derivedFamily('itm-1'),
      mask: null,
      tail: null,
      size: null,
      created_at: t(1),
    };
    expect(rows.inventory_items).toEqual([
      { ...item, id: 'itm-1', status: 'reserved', order_id: 'ord-1', updated_at: t(3) },
      { ...item, id: 'itm-2', status: 'invalidated', order_id: null, updated_at: t(4) },
    ]);
  });

  it('orders: a renewed reservation, a cancelled item rerouted, a top-up revalidated then failed, a dispute; one order cancelled', async () => {
    const declared = (orderItemId: string, supplierId: string, offerId: string): OrderItem => ({
      orderItemId,
      productId: 'prod-1',
      offerId,
      supplierId,
      externalRef: `ref-${offerId}`,
      quantity: 1,
      unitPrice: 1200,
      gross: 1200,
      commission: 120,
      net: 1080,
      source: 'declared',
      reservationId: 'res-1',
      inventoryItemIds: [],
      status: 'reserved',
      deliveredAt: null,
    });
    const topupItem: OrderItem = {
      ...declared('oi-11', 'sup-b', 'off-2'),
      productId: 'prod-2',
      source: 'topup',
      reservationId: null,
      topup: {
        operationId: 'op-1',
        accountLabel: 'acct A',
        formFields: { player_id: '12345678' },
        validatedAt: t(0),
        receiptRef: null,
      },
    };
    const events = recorded([
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-5',
          buyerCountry: 'NL',
          items: [declared('oi-10', 'sup-a', 'off-1'), topupItem],
          supplierIds: ['sup-a', 'sup-b'],
          expiresAt: t(15),
          at: t(0),
        },
      }),
      order({ type: 'OrderPaymentAuthorized', data: { orderId: 'ord-5', supplierIds: ['sup-a', 'sup-b'], at: t(1) } }),
      order({
        type: 'OrderItemReservationRenewed',
        data: { orderId: 'ord-5', orderItemId: 'oi-10', reservationId: 'res-2', at: t(2) },
      }),
      order({
        type: 'OrderItemCancelled',
        data: {
          orderId: 'ord-5',
          orderItemId: 'oi-10',
          offerId: 'off-1',
          supplierId: 'sup-a',
          reason: 'allocation_window_missed',
          at: t(3),
        },
      }),
      order({
        type: 'OrderItemRerouted',
        data: {
          orderId: 'ord-5',
          replacesItemId: 'oi-10',
          item: { ...declared('oi-12', 'sup-c', 'off-3'), replacesItemId: 'oi-10' },
          at: t(4),
        },
      }),
      order({
        type: 'OrderItemTopupRevalidated',
        data: { orderId: 'ord-5', orderItemId: 'oi-11', operationId: 'op-2', accountLabel: 'acct B', at: t(5) },
      }),
      order({
        type: 'OrderItemDelivered',
        data: { orderId: 'ord-5', orderItemId: 'oi-12', inventoryItemIds: ['dk-1'], at: t(6) },
      }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-5', supplierIds: ['sup-b', 'sup-c'], at: t(7) } }),
      order({
        type: 'OrderItemTopupFailed',
        data: {
          orderId: 'ord-5',
          orderItemId: 'oi-11',
          operationId: 'op-2',
          code: 'account_not_found',
          message: 'no such player',
          at: t(8),
        },
      }),
      order({
        type: 'OrderDisputed',
        data: {
          orderId: 'ord-5',
          orderItemIds: ['oi-12'],
          reason: 'key did not work',
          supplierIds: ['sup-c'],
          at: t(9),
        },
      }),
      order({
        type: 'OrderPlaced',
        data: {
          orderId: 'ord-6',
          buyerCountry: 'NL',
          items: [declared('oi-13', 'sup-a', 'off-1')],
          supplierIds: ['sup-a'],
          expiresAt: t(25),
          at: t(10),
        },
      }),
      order({ type: 'OrderCancelled', data: { orderId: 'ord-6', supplierIds: ['sup-a'], at: t(11) } }),
    ]);
    // folded in memory (one batch), statement by statement (one event per batch), and the
    // events of orders placed in an earlier batch in rounds (two batches): the same rows
    const rows = await rowsWhateverTheBatches(ordersProjection, events, { orders: 'id', order_items: 'id' });
    expect(rows.orders).toEqual([
      {
        id: 'ord-5',
        // paid with no item left reserved; the failed top-up's refund is its own event
        status: 'completed',
        buyer_country: 'NL',
        // every supplier the order's items ever named, the cancelled item's too
        supplier_ids: ['sup-a', 'sup-b', 'sup-c'],
        expires_at: t(15),
        created_at: t(0),
        authorized_at: t(1),
        paid_at: t(7),
        completed_at: t(8),
        updated_at: t(9),
      },
      {
        id: 'ord-6',
        status: 'cancelled',
        buyer_country: 'NL',
        supplier_ids: ['sup-a'],
        expires_at: t(25),
        created_at: t(10),
        authorized_at: null,
        paid_at: null,
        completed_at: null,
        updated_at: t(11),
      },
    ]);
    const row = {
      product_id: 'prod-1',
      quantity: 1,
      unit_price: 1200,
      gross: 1200,
      commission: 120,
      net: 1080,
      source: 'declared',
      inventory_item_ids: [],
      topup: null,
      delivered_at: null,
      disputed_at: null,
    };
    expect(rows.order_items).toEqual([
      {
        ...row,
        id: 'oi-10',
        order_id: 'ord-5',
        position: 0,
        offer_id: 'off-1',
        supplier_id: 'sup-a',
        external_ref: 'ref-off-1',
        status: 'cancelled',
        reservation_id: 'res-2',
        created_at: t(0),
      },
      {
        ...row,
        id: 'oi-11',
        order_id: 'ord-5',
        position: 1,
        product_id: 'prod-2',
        offer_id: 'off-2',
        supplier_id: 'sup-b',
        external_ref: 'ref-off-2',
        source: 'topup',
        status: 'cancelled',
        reservation_id: null,
        topup: { operationId: 'op-2', accountLabel: 'acct B', receiptRef: null },
        created_at: t(0),
      },
      {
        ...row,
        id: 'oi-12',
        order_id: 'ord-5',
        position: 2,
        offer_id: 'off-3',
        supplier_id: 'sup-c',
        external_ref: 'ref-off-3',
        status: 'delivered',
        reservation_id: 'res-1',
        inventory_item_ids: ['dk-1'],
        delivered_at: t(6),
        disputed_at: t(9), // the dispute dates the item it names
        created_at: t(4),
      },
      {
        ...row,
        id: 'oi-13',
        order_id: 'ord-6',
        position: 0,
        offer_id: 'off-1',
        supplier_id: 'sup-a',
        external_ref: 'ref-off-1',
        status: 'reserved',
        reservation_id: 'res-1',
        created_at: t(10),
      },
    ]);
  });

  describe('ledger', () => {
    const sale = (supplierId: string, orderItemId: string, gross: number, commission: number, m: number) =>
      balance({
        type: 'SaleCredited',
        data: {
          supplierId,
          orderId: `ord-${orderItemId}`,
          orderItemId,
          entryId: `sale-${orderItemId}`,
          gross,
          commission,
          net: gross - commission,
          availableAt: t(m + 600),
          postings: [
            { account: 'buyer_funds', amount: -gross },
            { account: 'supplier_pending', amount: gross - commission },
            { account: 'platform_commission', amount: commission },
          ],
          at: t(m),
        },
      });
    const payout = { supplierId: 'sup-a', payoutId: 'po-1', amount: 1000 };
    const events = recorded([
      sale('sup-a', 'oi-1', 1500, 150, 0),
      sale('sup-b', 'oi-2', 4000, 400, 1),
      sale('sup-a', 'oi-3', 2000, 200, 2),
      balance({
        type: 'SaleSettled',
        data: {
          supplierId: 'sup-a',
          orderId: 'ord-oi-1',
          orderItemId: 'oi-1',
          entryId: 'settlement-oi-1',
          net: 1350,
          postings: [
            { account: 'supplier_pending', amount: -1350 },
            { account: 'supplier_available', amount: 1350 },
          ],
          at: t(3),
        },
      }),
      balance({
        type: 'RefundDebited',
        data: {
          supplierId: 'sup-b',
          orderId: 'ord-oi-2',
          orderItemId: 'oi-2',
          entryId: 'refund-oi-2',
          gross: 4000,
          commission: 400,
          net: 3600,
          from: 'pending',
          postings: [
            { account: 'supplier_pending', amount: -3600 },
            { account: 'platform_commission', amount: -400 },
            { account: 'buyer_funds', amount: 4000 },
          ],
          at: t(4),
        },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          ...payout,
          entryId: 'payout-po-1',
          method: 'sepa_bank_transfer',
          trigger: 'manual',
          postings: [
            { account: 'supplier_available', amount: -1000 },
            { account: 'payouts_pending', amount: 1000 },
          ],
          at: t(5),
        },
      }),
      // moves between payout accounts only: no entry, but the balance row's moment moves
      balance({
        type: 'PayoutInTransit',
        data: {
          ...payout,
          entryId: 'payout-in-transit-po-1',
          postings: [
            { account: 'payouts_pending', amount: -1000 },
            { account: 'payouts_in_transit', amount: 1000 },
          ],
          at: t(6),
        },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          supplierId: 'sup-a',
          payoutId: 'po-2',
          amount: 300,
          entryId: 'payout-po-2',
          method: 'paypal',
          trigger: 'daily',
          postings: [
            { account: 'supplier_available', amount: -300 },
            { account: 'payouts_pending', amount: 300 },
          ],
          at: t(7),
        },
      }),
      balance({
        type: 'PayoutFailed',
        data: {
          ...payout,
          entryId: 'payout-failure-po-1',
          from: 'in_transit',
          failureCode: 'account_closed',
          postings: [
            { account: 'payouts_in_transit', amount: -1000 },
            { account: 'supplier_available', amount: 1000 },
          ],
          at: t(8),
        },
      }),
      balance({
        type: 'PayoutCancelled',
        data: {
          supplierId: 'sup-a',
          payoutId: 'po-2',
          amount: 300,
          entryId: 'payout-cancel-po-2',
          postings: [
            { account: 'payouts_pending', amount: -300 },
            { account: 'supplier_available', amount: 300 },
          ],
          at: t(9),
        },
      }),
    ]);
    const tables = { balances: 'supplier_id', balance_entries: 'seq' };
    const entry = {
      order_id: null,
      order_item_id: null,
      payout_id: null,
      available_at: null,
    };
    const expected = {
      balances: [
        // pending 1350 + 1800 - 1350; available 1350 - 1000 - 300 + 1000 + 300
        { supplier_id: 'sup-a', pending: 1800, available: 1350, updated_at: t(9) },
        { supplier_id: 'sup-b', pending: 0, available: 0, updated_at: t(4) },
      ],
      balance_entries: [
        {
          ...entry,
          id: 'sale-oi-1:pending',
          seq: 4,
          supplier_id: 'sup-a',
          type: 'sale',
          account: 'pending',
          amount: 1350,
          order_id: 'ord-oi-1',
          order_item_id: 'oi-1',
          created_at: t(0),
          available_at: t(600),
        },
        {
          ...entry,
          id: 'sale-oi-2:pending',
          seq: 8,
          supplier_id: 'sup-b',
          type: 'sale',
          account: 'pending',
          amount: 3600,
          order_id: 'ord-oi-2',
          order_item_id: 'oi-2',
          created_at: t(1),
          available_at: t(601),
        },
        {
          ...entry,
          id: 'sale-oi-3:pending',
          seq: 12,
          supplier_id: 'sup-a',
          type: 'sale',
          account: 'pending',
          amount: 1800,
          order_id: 'ord-oi-3',
          order_item_id: 'oi-3',
          created_at: t(2),
          available_at: t(602),
        },
        {
          ...entry,
          id: 'settlement-oi-1:pending',
          seq: 16,
          supplier_id: 'sup-a',
          type: 'settlement',
          account: 'pending',
          amount: -1350,
          order_id: 'ord-oi-1',
          order_item_id: 'oi-1',
          created_at: t(3),
        },
        {
          ...entry,
          id: 'settlement-oi-1:available',
          seq: 17,
          supplier_id: 'sup-a',
          type: 'settlement',
          account: 'available',
          amount: 1350,
          order_id: 'ord-oi-1',
          order_item_id: 'oi-1',
          created_at: t(3),
        },
        {
          ...entry,
          id: 'refund-oi-2:pending',
          seq: 20,
          supplier_id: 'sup-b',
          type: 'refund',
          account: 'pending',
          amount: -3600,
          order_id: 'ord-oi-2',
          order_item_id: 'oi-2',
          created_at: t(4),
        },
        {
          ...entry,
          id: 'payout-po-1:available',
          seq: 24,
          supplier_id: 'sup-a',
          type: 'payout',
          account: 'available',
          amount: -1000,
          payout_id: 'po-1',
          created_at: t(5),
        },
        {
          ...entry,
          id: 'payout-po-2:available',
          seq: 32,
          supplier_id: 'sup-a',
          type: 'payout',
          account: 'available',
          amount: -300,
          payout_id: 'po-2',
          created_at: t(7),
        },
        {
          ...entry,
          id: 'payout-failure-po-1:available',
          seq: 36,
          supplier_id: 'sup-a',
          type: 'payout_reversal',
          account: 'available',
          amount: 1000,
          payout_id: 'po-1',
          created_at: t(8),
        },
        {
          ...entry,
          id: 'payout-cancel-po-2:available',
          seq: 40,
          supplier_id: 'sup-a',
          type: 'payout_reversal',
          account: 'available',
          amount: 300,
          payout_id: 'po-2',
          created_at: t(9),
        },
      ],
    };

    it('sales, a settlement, a refund and payouts become entries and per-supplier balances', async () => {
      expect(await rowsAfter(ledgerProjection, [events], tables)).toEqual(expected);
    });

    it('the same events one per batch and all in one batch leave identical rows', async () => {
      const { together, oneByOne } = await oneBatchAndOneByOne(ledgerProjection, events, tables);
      expect(together).toEqual(expected);
      expect(oneByOne).toEqual(together);
    });

    it('two sales of one supplier in one batch add up to the cent, on top of an earlier batch', async () => {
      const later = recorded([sale('sup-a', 'oi-5', 999, 99, 20), sale('sup-a', 'oi-6', 1001, 101, 21)], 11);
      const rows = await rowsAfter(ledgerProjection, [events, later], { balances: 'supplier_id' });
      expect(rows.balances).toEqual([
        { supplier_id: 'sup-a', pending: 1800 + 900 + 900, available: 1350, updated_at: t(21) },
        { supplier_id: 'sup-b', pending: 0, available: 0, updated_at: t(4) },
      ]);
    });
  });

  it('payouts: created, in transit, paid, failed and cancelled; a schedule set twice keeps the latest', async () => {
    /** The payout's entry moving `amount` from one account to the next, as the decider posts it. */
    const ref = (payoutId: string, amount: number, entry: string, from: Account, to: Account) => ({
      supplierId: 'sup-a',
      payoutId,
      entryId: `${entry}-${payoutId}`,
      amount,
      postings: [
        { account: from, amount: -amount },
        { account: to, amount },
      ],
    });
    const events = recorded([
      schedule({
        type: 'PayoutScheduleSet',
        data: { supplierId: 'sup-a', interval: 'daily', minimumAmount: 5000, method: 'paypal', at: t(0) },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          ...ref('po-1', 5200, 'payout', 'supplier_available', 'payouts_pending'),
          method: 'paypal',
          trigger: 'daily',
          at: t(1),
        },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          ...ref('po-2', 2500, 'payout', 'supplier_available', 'payouts_pending'),
          method: 'sepa_bank_transfer',
          trigger: 'manual',
          destination: { destinationId: 'pd-1', masked: 'DE •••• 3000' },
          at: t(2),
        },
      }),
      balance({
        type: 'PayoutInTransit',
        data: { ...ref('po-1', 5200, 'payout-in-transit', 'payouts_pending', 'payouts_in_transit'), at: t(3) },
      }),
      balance({
        type: 'PayoutPaid',
        data: { ...ref('po-1', 5200, 'payout-paid', 'payouts_in_transit', 'paid_out'), at: t(4) },
      }),
      balance({
        type: 'PayoutFailed',
        data: {
          ...ref('po-2', 2500, 'payout-failure', 'payouts_pending', 'supplier_available'),
          from: 'pending',
          failureCode: 'invalid_iban',
          at: t(5),
        },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          ...ref('po-3', 2000, 'payout', 'supplier_available', 'payouts_pending'),
          method: 'sepa_bank_transfer',
          trigger: 'weekly',
          at: t(6),
        },
      }),
      balance({
        type: 'PayoutCancelled',
        data: { ...ref('po-3', 2000, 'payout-cancel', 'payouts_pending', 'supplier_available'), at: t(7) },
      }),
      schedule({
        type: 'PayoutScheduleSet',
        data: {
          supplierId: 'sup-a',
          interval: 'weekly',
          minimumAmount: 2000,
          method: 'sepa_bank_transfer',
          at: t(8),
        },
      }),
    ]);
    const none = {
      in_transit_at: null,
      paid_at: null,
      failed_at: null,
      cancelled_at: null,
      failure_code: null,
      destination_id: null,
      destination: null,
    };
    expect(await rowsAfter(payoutsProjection, [events], { payouts: 'seq', payout_schedules: 'supplier_id' })).toEqual({
      payouts: [
        {
          ...none,
          id: 'po-1',
          seq: 2,
          supplier_id: 'sup-a',
          amount: 5200,
          method: 'paypal',
          status: 'paid',
          trigger: 'daily',
          created_at: t(1),
          in_transit_at: t(3),
          paid_at: t(4),
          updated_at: t(4),
        },
        {
          ...none,
          id: 'po-2',
          seq: 3,
          supplier_id: 'sup-a',
          amount: 2500,
          method: 'sepa_bank_transfer',
          status: 'failed',
          trigger: 'manual',
          destination_id: 'pd-1',
          destination: 'DE •••• 3000',
          failure_code: 'invalid_iban',
          created_at: t(2),
          failed_at: t(5),
          updated_at: t(5),
        },
        {
          ...none,
          id: 'po-3',
          seq: 7,
          supplier_id: 'sup-a',
          amount: 2000,
          method: 'sepa_bank_transfer',
          status: 'cancelled',
          trigger: 'weekly',
          created_at: t(6),
          cancelled_at: t(7),
          updated_at: t(7),
        },
      ],
      payout_schedules: [
        {
          supplier_id: 'sup-a',
          interval: 'weekly',
          minimum_amount: 2000,
          method: 'sepa_bank_transfer',
          updated_at: t(8),
        },
      ],
    });
  });

  it('webhooks: endpoints created, updated, disabled, enabled and deleted; a rate-limit change alone touches nothing', async () => {
    const events = recorded([
      endpoint({
        type: 'WebhookEndpointCreated',
        data: {
          endpointId: 'we-1',
          supplierId: 'sup-a',
          url: 'https://hooks.keyforge.example/a',
          events: ['order.paid'],
          description: 'orders',
          secretSealed: 'sealed-w1',
          at: t(0),
        },
      }),
      endpoint({
        type: 'WebhookEndpointCreated',
        data: {
          endpointId: 'we-2',
          supplierId: 'sup-a',
          url: 'https://hooks.keyforge.example/b',
          events: ['*'],
          description: '',
          rateLimit: 5,
          secretSealed: 'sealed-w2',
          at: t(1),
        },
      }),
      endpoint({
        type: 'WebhookEndpointUpdated',
        data: {
          endpointId: 'we-1',
          supplierId: 'sup-a',
          changes: { url: 'https://hooks.keyforge.example/a2', events: ['order.paid', 'order.refunded'] },
          at: t(2),
        },
      }),
      endpoint({
        type: 'WebhookEndpointUpdated',
        data: { endpointId: 'we-2', supplierId: 'sup-a', changes: { rateLimit: 10 }, at: t(3) },
      }),
      endpoint({
        type: 'WebhookEndpointDisabled',
        data: {
          endpointId: 'we-1',
          supplierId: 'sup-a',
          reason: 'consecutive_failures',
          consecutiveFailures: 30,
          at: t(4),
        },
      }),
      endpoint({
        type: 'WebhookEndpointDisabled',
        data: { endpointId: 'we-2', supplierId: 'sup-a', reason: 'supplier_request', consecutiveFailures: 0, at: t(5) },
      }),
      endpoint({ type: 'WebhookEndpointEnabled', data: { endpointId: 'we-2', supplierId: 'sup-a', at: t(6) } }),
      endpoint({ type: 'WebhookEndpointDeleted', data: { endpointId: 'we-2', supplierId: 'sup-a', at: t(7) } }),
    ]);
    expect(await rowsAfter(webhooksProjection, [events], { webhook_endpoints: 'id' })).toEqual({
      webhook_endpoints: [
        {
          id: 'we-1',
          supplier_id: 'sup-a',
          url: 'https://hooks.keyforge.example/a2',
          events: ['order.paid', 'order.refunded'],
          description: 'orders',
          status: 'disabled',
          created_at: t(0),
          disabled_at: t(4),
          deleted: false,
        },
        {
          id: 'we-2',
          supplier_id: 'sup-a',
          url: 'https://hooks.keyforge.example/b',
          events: ['*'],
          description: '',
          status: 'active',
          created_at: t(1),
          disabled_at: null,
          deleted: true,
        },
      ],
    });
  });

  describe('webhook event log', () => {
    const events = recorded([
      order({
        type: 'OrderPlaced',
        data: { orderId: 'ord-1', buyerCountry: 'DE', items: [], supplierIds: [], expiresAt: t(15), at: t(0) },
      }),
      // not a webhook's source: no row
      offer({ type: 'OfferActivated', data: { offerId: 'off-1', health: 100, at: t(1) } }),
      order({ type: 'OrderPaid', data: { orderId: 'ord-1', supplierIds: [], at: t(2) } }),
      inventory({ type: 'OfferStockLow', data: { offerId: 'off-1', available: 1, threshold: 2, at: t(3) } }),
      offer({
        type: 'OfferPriceChanged',
        data: { offerId: 'off-1', price: 990, previousPrice: 1000, reason: 'pricing_rule', at: t(4) },
      }),
      balance({
        type: 'PayoutCreated',
        data: {
          supplierId: 'sup-a',
          payoutId: 'po-1',
          entryId: 'payout-po-1',
          amount: 2000,
          postings: [
            { account: 'supplier_available', amount: -2000 },
            { account: 'payouts_pending', amount: 2000 },
          ],
          method: 'paypal',
          trigger: 'manual',
          at: t(5),
        },
      }),
      endpoint({
        type: 'WebhookEndpointDisabled',
        data: { endpointId: 'we-1', supplierId: 'sup-a', reason: 'gone', consecutiveFailures: 1, at: t(6) },
      }),
    ]);
    const row = (n: number, event_type: string) => ({
      event_id: `evt-000${n}`,
      commit_position: String(1000 + n),
      prepare_position: n,
      event_type,
      created_at: writtenAt(n).toISOString(),
    });
    const expected = {
      webhook_event_log: [
        row(1, 'order.created'),
        row(3, 'order.paid'),
        row(4, 'offer.stock_low'),
        row(5, 'offer.repriced'),
        row(6, 'payout.created'),
        row(7, 'webhook.disabled'),
      ],
    };
    const tables = { webhook_event_log: 'prepare_position' };

    it('each event a webhook comes from is logged with its place in the log and the moment it was written', async () => {
      expect(await rowsAfter(webhookEventLogProjection, [events], tables)).toEqual(expected);
    });

    it('the same events one per batch and all in one batch leave identical rows', async () => {
      const { together, oneByOne } = await oneBatchAndOneByOne(webhookEventLogProjection, events, tables);
      expect(together).toEqual(expected);
      expect(oneByOne).toEqual(together);
    });
  });
});
