import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openValues, storedValueIds } from '../../src/commands/inventory-values.js';
import { startTestService, type TestService } from '../support/harness.js';
import { createUploaded, sell, streamEvents, type Supplier, textKeys, upload } from './fixtures.js';

describe('GET /offers/{id}/inventory and DELETE /offers/{id}/inventory/{item_id}', () => {
  let svc: TestService;
  let supplier: Supplier;
  let productId: string;
  let offerId: string;
  let ids: string[];
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier();
    productId = (await svc.newProduct()).id;
    offerId = (await createUploaded(supplier.api, productId)).id;
    ids = (await upload(supplier.api, offerId, textKeys('ITEM', 6))).item_ids;
    await supplier.api.post(`/offers/${offerId}/activate`);
    await sell(svc, productId, 1); // ids[0] delivered
    const held = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect(held.body.items[0].fulfilment.inventory_item_ids).toEqual([ids[1]]); // reserved
    await svc.operator.post(`/inventory/${ids[2]}/invalidate`, { reason: 'leaked' });
  });
  afterAll(() => svc.stop());

  it('lists every item with its status in words, its mask, batch and order, oldest first, and never a value', async () => {
    const list = await supplier.api.get(`/offers/${offerId}/inventory`);
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.data.map((i: any) => [i.id, i.status, i.masked_value])).toEqual([
      [ids[0], 'sold', '•••••0'],
      [ids[1], 'reserved', '•••••1'],
      [ids[2], 'invalidated', '•••••2'],
      [ids[3], 'available', '•••••3'],
      [ids[4], 'available', '•••••4'],
      [ids[5], 'available', '•••••5'],
    ]);
    const [soldTo, heldBy] = list.body.data.slice(0, 2).map((i: any) => i.order_id);
    expect([typeof soldTo, typeof heldBy]).toEqual(['string', 'string']);
    expect(soldTo).not.toBe(heldBy);
    const batch = list.body.data[0].batch_id;
    for (const item of list.body.data)
      expect(item).toEqual({
        id: item.id,
        kind: 'text',
        status: item.status,
        masked_value: item.masked_value,
        file_name: null,
        content_type: null,
        size: null,
        batch_id: batch,
        order_id: ['sold', 'reserved'].includes(item.status) ? expect.any(String) : null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    expect(list.text).not.toContain('ITEM-');
  });

  it('filters by status and pages with a cursor', async () => {
    const of = async (query: string) =>
      (await supplier.api.get(`/offers/${offerId}/inventory?${query}`)).body.data.map((i: any) => i.id);
    expect(await of('status=available')).toEqual(ids.slice(3));
    expect(await of('status=reserved')).toEqual([ids[1]]);
    expect(await of('status=sold')).toEqual([ids[0]]);
    // the word before `sold` still filters
    expect(await of('status=delivered')).toEqual([ids[0]]);
    expect(await of('status=invalidated')).toEqual([ids[2]]);
    expect(await of('last4=4')).toEqual([ids[4]]);
    expect(
      await of(`batch_id=${(await supplier.api.get(`/offers/${offerId}/inventory`)).body.data[0].batch_id}`),
    ).toEqual(ids);
    expect(await of('batch_id=NOSUCHBATCH')).toEqual([]);
    const first = await supplier.api.get(`/offers/${offerId}/inventory?limit=4`);
    expect(first.body.data.map((i: any) => i.id)).toEqual(ids.slice(0, 4));
    const second = await supplier.api.get(`/offers/${offerId}/inventory?limit=4&cursor=${first.body.next_cursor}`);
    expect(second.body).toEqual({ data: expect.any(Array), next_cursor: null });
    expect(second.body.data.map((i: any) => i.id)).toEqual(ids.slice(4));
    for (const query of ['status=removed', 'status=held', 'last4=12345', 'last4=%20', 'limit=0', 'cursor=%%%'])
      expect([query, (await supplier.api.get(`/offers/${offerId}/inventory?${query}`)).status]).toEqual([query, 422]);
  });

  it('deletes an available item: withdrawn in the list, gone from the stock and the sealed values; a second delete is 404', async () => {
    const removed = await supplier.api.delete(`/offers/${offerId}/inventory/${ids[5]}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ item_id: ids[5], status: 'removed', stock_available: 2 });
    expect(
      (await supplier.api.get(`/offers/${offerId}/inventory?status=withdrawn`)).body.data.map((i: any) => i.id),
    ).toEqual([ids[5]]);
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 2,
      reserved: 1,
      delivered: 1,
    });
    // the upload's set is sealed anew without it; the others still open to their keys
    expect(await storedValueIds(svc.services, ids)).toEqual(ids.filter((id) => id !== ids[5]));
    const kept = await openValues(svc.services, ids);
    expect(ids.map((id) => kept.get(id)?.bytes.toString())).toEqual([
      ...textKeys('ITEM', 5).map((k) => k.value),
      undefined,
    ]);
    const again = await supplier.api.delete(`/offers/${offerId}/inventory/${ids[5]}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'not_found', detail: `inventory item ${ids[5]} not found` });
    const removals = (await streamEvents(svc, `inventory-${offerId}`))
      .filter((e) => e.type === 'InventoryItemRemoved')
      .map((e) => e.data.itemId);
    expect(removals).toEqual([ids[5]]);
  });

  it('an item that is reserved, delivered or invalidated cannot be deleted (409 invalid_state)', async () => {
    for (const [id, status] of [
      [ids[0], 'delivered'],
      [ids[1], 'reserved'],
      [ids[2], 'invalidated'],
    ] as const) {
      const res = await supplier.api.delete(`/offers/${offerId}/inventory/${id}`);
      expect([status, res.status, res.body.code, res.body.detail]).toEqual([
        status,
        409,
        'invalid_state',
        `item ${id} is ${status}; only available items and items under review can be withdrawn`,
      ]);
    }
    expect(await storedValueIds(svc.services, ids.slice(0, 3))).toEqual(ids.slice(0, 3));
  });

  it('an item id of another offer or none at all is 404 through this offer', async () => {
    const otherOffer = (await createUploaded(supplier.api, (await svc.newProduct()).id)).id;
    const [foreign] = (await upload(supplier.api, otherOffer, textKeys('OTHER', 1))).item_ids;
    for (const path of [
      `/offers/${offerId}/inventory/${foreign}`,
      `/offers/${otherOffer}/inventory/${ids[3]}`,
      `/offers/${offerId}/inventory/01NOSUCHITEM00000000000000`,
    ]) {
      const res = await supplier.api.delete(path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'not_found']);
    }
    expect((await supplier.api.get(`/offers/${otherOffer}`)).body.stock.available).toBe(1);
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(2);
    expect((await supplier.api.get('/offers/01NOSUCHOFFER0000000000000/inventory')).status).toBe(404);
  });
});
