import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandDeps } from '../../src/commands/context.js';
import { load } from '../../src/commands/handle.js';
import { placeOrder, provisionOrder } from '../../src/commands/orders.js';
import { inventoryStream, orderStream } from '../../src/commands/streams.js';
import { inventoryDecider } from '../../src/domain/inventory.js';
import type { OrderState } from '../../src/domain/order.js';
import { overriding } from '../../src/eventstore/overriding.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { keys, type Supplier, uploadedOffer } from './fixtures.js';

/**
 * A checkout from uploaded stock that pays at once is one write where the store writes
 * several streams in one transaction, and two writes (placed, then provisioned) where it
 * writes them one after another. Either way a write lost on its way is taken up by a retry
 * of the same checkout (the same order id) without a key lost or handed over twice.
 */
describe('a checkout from uploaded stock whose write is lost', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const stocked = async () => {
    const product = await svc.newProduct();
    const offer = await uploadedOffer(supplier, product.id, { price: 1500, values: keys(`LOST-${newId()}`, 3) });
    return { productId: product.id, ...offer };
  };
  const checkout = (
    deps: CommandDeps,
    orderId: string,
    productId: string,
    offerIds: string | string[],
    resumed: boolean,
    quantity = 1,
  ) =>
    placeOrder(
      deps,
      {
        orderId,
        resumed,
        lines: [{ productId, quantity }],
        buyerCountry: 'DE',
        rank: async () => [offerIds].flat(),
        authorize: true,
        provision: true,
      },
      {},
    );
  const inventoryOf = async (offerId: string) => {
    const { state } = await load(svc.services.commands.store, inventoryStream(offerId), inventoryDecider);
    return {
      available: state.available,
      reserved: state.reserved,
      delivered: state.delivered,
      reservations: [...state.reservations.values()].map((r) => [r.state, r.itemIds]),
    };
  };
  /** The order completed with `key` delivered, and the offer's stock after it: one key out of three handed over. */
  const expectOneKeyHandedOver = async (order: OrderState, offerId: string, key: string | undefined) => {
    expect([order.status, order.items.map((i) => [i.status, i.inventoryItemIds])]).toEqual([
      'completed',
      [['delivered', [key]]],
    ]);
    expect(await inventoryOf(offerId)).toEqual({
      available: 2,
      reserved: 0,
      delivered: 1,
      reservations: [['delivered', [key]]],
    });
  };
  const eventsOf = async (streamId: string) =>
    (await svc.services.commands.store.readStream(streamId)).map((e) => e.type);
  /** Fails the first call of `member` that writes to an order stream, before it reaches the database. */
  const losingFirstOrderWrite = (store: EventStore, member: 'append' | 'appendMany') => {
    let lost = false;
    const loseOnce = (streams: string[]) => {
      if (lost || !streams.some((s) => s.startsWith('order-'))) return;
      lost = true;
      throw new Error('connection lost');
    };
    return overriding(
      store,
      member === 'append'
        ? {
            append: async (streamId, events, expected, at, options) => {
              loseOnce([streamId]);
              return store.append(streamId, events, expected, at, options);
            },
          }
        : {
            append: (...args) => store.append(...args),
            appendMany: async (appends, at, options) => {
              loseOnce(appends.map((a) => a.streamId));
              return store.appendMany!(appends, at, options);
            },
          },
    );
  };

  it('in one transaction: nothing of it is written, and the retry writes all of it with one key', async () => {
    const { productId, offerId, itemIds } = await stocked();
    const deps = { ...svc.services.commands, store: losingFirstOrderWrite(svc.services.commands.store, 'appendMany') };
    const orderId = newId();
    await expect(checkout(deps, orderId, productId, offerId, false)).rejects.toThrow('connection lost');
    expect(await eventsOf(orderStream(orderId))).toEqual([]);
    expect(await inventoryOf(offerId)).toEqual({ available: 3, reserved: 0, delivered: 0, reservations: [] });

    await expectOneKeyHandedOver(await checkout(deps, orderId, productId, offerId, true), offerId, itemIds[0]);
  });

  it('stream by stream (a store without appendMany): placed and authorized first, provisioned after; the retry takes up the same reservation', async () => {
    const { productId, offerId, itemIds } = await stocked();
    const deps = { ...svc.services.commands, store: losingFirstOrderWrite(svc.services.commands.store, 'append') };
    expect(deps.store.appendMany).toBeUndefined();
    const orderId = newId();
    await expect(checkout(deps, orderId, productId, offerId, false)).rejects.toThrow('connection lost');
    // the inventory's part was written, the order's was not: a key is held, none handed over
    expect(await eventsOf(orderStream(orderId))).toEqual([]);
    expect(await inventoryOf(offerId)).toEqual({
      available: 2,
      reserved: 1,
      delivered: 0,
      reservations: [['reserved', [itemIds[0]]]],
    });

    const placed = await checkout(deps, orderId, productId, offerId, true);
    expect([placed.status, placed.authorizedAt !== null, placed.items.map((i) => i.inventoryItemIds)]).toEqual([
      'placed',
      true,
      [[itemIds[0]]],
    ]);
    await expectOneKeyHandedOver(await provisionOrder(deps, orderId, {}), offerId, itemIds[0]);
    expect(await eventsOf(orderStream(orderId))).toEqual([
      'OrderPlaced',
      'OrderPaymentAuthorized',
      'OrderItemDelivered',
      'OrderPaid',
    ]);
  });

  it('two runs of the same checkout at once (a takeover while the first still works): one order, one key, both answered with it', async () => {
    const { productId, offerId, itemIds } = await stocked();
    const orderId = newId();
    const deps = svc.services.commands;
    const [first, second] = await Promise.all([
      checkout(deps, orderId, productId, offerId, true),
      checkout(deps, orderId, productId, offerId, true),
    ]);
    expect(second).toEqual(first);
    await expectOneKeyHandedOver(first, offerId, itemIds[0]);
  });

  it('stream by stream, with short stock: the retry takes up its own reservations, though none of their keys counts as available', async () => {
    // the best offer holds one key, the next five; the line needs two
    const product = await svc.newProduct();
    const best = await uploadedOffer(supplier, product.id, { price: 1400, values: keys(`BEST-${newId()}`, 1) });
    const next = await uploadedOffer(await svc.newSupplier(), product.id, {
      price: 1500,
      values: keys(`NEXT-${newId()}`, 5),
    });
    const offers = [best.offerId, next.offerId];
    const deps = { ...svc.services.commands, store: losingFirstOrderWrite(svc.services.commands.store, 'append') };
    const orderId = newId();
    await expect(checkout(deps, orderId, product.id, offers, false, 2)).rejects.toThrow('connection lost');
    expect([await inventoryOf(best.offerId), await inventoryOf(next.offerId)]).toEqual([
      { available: 0, reserved: 1, delivered: 0, reservations: [['reserved', [best.itemIds[0]]]] },
      { available: 4, reserved: 1, delivered: 0, reservations: [['reserved', [next.itemIds[0]]]] },
    ]);

    const placed = await checkout(deps, orderId, product.id, offers, true, 2);
    expect(placed.items.map((i) => [i.offerId, i.inventoryItemIds])).toEqual([
      [best.offerId, [best.itemIds[0]]],
      [next.offerId, [next.itemIds[0]]],
    ]);
    // two keys held for a two-key order, none reserved twice
    expect([await inventoryOf(best.offerId), await inventoryOf(next.offerId)]).toEqual([
      { available: 0, reserved: 1, delivered: 0, reservations: [['reserved', [best.itemIds[0]]]] },
      { available: 4, reserved: 1, delivered: 0, reservations: [['reserved', [next.itemIds[0]]]] },
    ]);
    const paid = await provisionOrder(deps, orderId, {});
    expect(paid.items.map((i) => [i.status, i.inventoryItemIds])).toEqual([
      ['delivered', [best.itemIds[0]]],
      ['delivered', [next.itemIds[0]]],
    ]);
  });
});
