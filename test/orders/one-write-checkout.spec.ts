import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/commands/orders.js';
import { inventoryStream, orderStream } from '../../src/commands/streams.js';
import { DomainError } from '../../src/domain/errors.js';
import { bodyOf, calls, startWorld, type World } from '../declared/support.js';
import { uploadedOffer } from './fixtures.js';

/**
 * A checkout whose lines need a supplier's answer (declared stock) is written once as well:
 * the suppliers are asked first, then the uploaded keys' reservations and the order's
 * placement are one write. A checkout refused on any line writes nothing.
 */
describe('a checkout mixing uploaded keys and declared stock', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ reservationMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  /** Checkout of these lines, each routed to `offerIds` in this order. */
  const place = (lines: { productId: string; quantity: number; offerIds: string[] }[]) =>
    placeOrder(
      w.svc.services.commands,
      {
        lines: lines.map(({ productId, quantity }) => ({ productId, quantity })),
        buyerCountry: 'DE',
        rank: async (productId) => lines.find((l) => l.productId === productId)?.offerIds ?? [],
      },
      {},
    );

  /** Each event of these streams as [stream, type, the transaction that wrote it]. */
  const writes = async (...streams: string[]) =>
    (
      (await w.svc.services.db
        .selectFrom('es_events' as any)
        .select(['stream_id', 'type', 'transaction_id'] as any)
        .where('stream_id' as any, 'in', streams)
        .orderBy('position' as any)
        .execute()) as { stream_id: string; type: string; transaction_id: string }[]
    ).map((e) => [e.stream_id, e.type, String(e.transaction_id)]);

  it('a line split across an uploaded offer and a declared one: the reservation and the placement are one write', async () => {
    const product = await w.gameKey();
    const uploader = await w.svc.newSupplier('Uploader');
    const { offerId: uploaded, itemIds } = await uploadedOffer(uploader, product, { price: 900, values: ['U-1'] });
    const declared = await w.seller(product, 1000, { stock: { '*': ['D-1', 'D-2'] }, declaredStock: 5 });
    const order = await place([{ productId: product, quantity: 3, offerIds: [uploaded, declared.offerId] }]);
    expect(order.items.map((i) => [i.offerId, i.quantity, i.source])).toEqual([
      [uploaded, 1, 'uploaded'],
      [declared.offerId, 2, 'declared'],
    ]);
    expect(calls(declared.kit, 'POST /reservations').map((r) => [r.status, bodyOf(r).quantity])).toEqual([[201, 2]]);
    const events = await writes(inventoryStream(uploaded), orderStream(order.id));
    const reserved = events.filter(([, type]) => type === 'InventoryReserved' || type === 'OrderPlaced');
    expect(reserved.map(([stream, type]) => [stream, type])).toEqual([
      [inventoryStream(uploaded), 'InventoryReserved'],
      [orderStream(order.id), 'OrderPlaced'],
    ]);
    expect(new Set(reserved.map(([, , commit]) => commit)).size).toBe(1);
    expect(itemIds).toHaveLength(1);
  });

  it('refused on a later line: the earlier line reserved no uploaded key, nothing was written for it', async () => {
    const keysProduct = await w.gameKey();
    const declaredProduct = await w.gameKey();
    const uploader = await w.svc.newSupplier('Uploader 2');
    const { offerId: uploaded } = await uploadedOffer(uploader, keysProduct, { price: 900, values: ['U-2'] });
    const empty = await w.seller(declaredProduct, 1000, { stock: { '*': [] } });
    const refused = await place([
      { productId: keysProduct, quantity: 1, offerIds: [uploaded] },
      { productId: declaredProduct, quantity: 1, offerIds: [empty.offerId] },
    ]).catch((error: unknown) => error);
    expect(refused instanceof DomainError && refused.code).toBe('out_of_stock');
    expect(calls(empty.kit, 'POST /reservations').map((r) => r.status)).toEqual([409]);
    expect((await writes(inventoryStream(uploaded))).map(([, type]) => type)).toEqual(['InventoryUploaded']);
  });
});
