import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { createUploaded, type Supplier, upload } from './fixtures.js';

/** Every key value handed to buyers so far, through the operator's view of each order's keys. */
const deliveredKeys = async (svc: TestService, orderIds: string[]) => {
  const keys: string[] = [];
  for (const id of orderIds) {
    const res = await svc.operator.get(`/orders/${id}/deliverables`);
    for (const item of res.body.items ?? []) for (const k of item.keys ?? []) keys.push(k.value);
  }
  return keys;
};

describe('No key sold twice, across suppliers', () => {
  let svc: TestService;
  let first: Supplier;
  let second: Supplier;
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    first = await svc.newSupplier('First Keys');
    second = await svc.newSupplier('Second Keys');
  });
  afterAll(() => svc.stop());

  const statusOf = async (supplier: Supplier, offerId: string) =>
    Object.fromEntries(
      ((await supplier.api.get(`/offers/${offerId}/inventory`)).body.data as any[]).map((i) => [i.id, i.status]),
    );

  it("holds the second supplier's copy and the first's, tells the operator, and the second's answer names no one", async () => {
    const productA = (await svc.newProduct()).id;
    const productB = (await svc.newProduct()).id;
    const offerA = (await createUploaded(first.api, productA)).id;
    const offerB = (await createUploaded(second.api, productB)).id;
    const [a1, a2] = (
      await upload(first.api, offerA, [
        { kind: 'text', value: 'SHARED-KEY-0001' },
        { kind: 'text', value: 'ONLY-FIRST-0002' },
      ])
    ).item_ids as string[];

    const res = await second.api.post(`/offers/${offerB}/inventory`, {
      items: [
        { kind: 'text', value: 'SHARED-KEY-0001' },
        { kind: 'text', value: 'ONLY-SECOND-0003' },
      ],
    });
    expect(res.status).toBe(201);
    // the answer is an upload's like any other: nothing names the first supplier, its offer or its item
    expect(Object.keys(res.body).sort()).toEqual(['accepted', 'item_ids', 'rejected', 'stock_available']);
    expect(res.body).toMatchObject({ accepted: 2, rejected: [], stock_available: 1 });
    for (const secret of [first.id, offerA, a1, 'First Keys']) expect(res.text).not.toContain(secret);
    const [b1, b2] = res.body.item_ids as string[];
    expect(await statusOf(second, offerB)).toEqual({ [String(b1)]: 'under_review', [String(b2)]: 'available' });
    const listed = await second.api.get(`/offers/${offerB}/inventory`);
    for (const secret of [first.id, offerA, a1]) expect(listed.text).not.toContain(secret);

    // the process holds the first supplier's copy too, and says so in a log line and a metric
    await svc.drain();
    expect(await statusOf(first, offerA)).toEqual({ [String(a1)]: 'under_review', [String(a2)]: 'available' });
    expect((await first.api.get(`/offers/${offerA}`)).body.stock.available).toBe(1);
    const line = svc.logs.find((l) => String(l.msg).startsWith('key collision'));
    expect(line?.collision).toEqual({
      itemId: b1,
      offerId: offerB,
      withItemId: a1,
      withOfferId: offerA,
      withSupplierId: first.id,
      outcome: 'held_both',
    });
    expect(JSON.stringify(svc.logs)).not.toContain('SHARED-KEY');
    const metrics = await fetch(`${svc.origin}/metrics`, { headers: { authorization: `Bearer ${svc.operatorToken}` } });
    expect(await metrics.text()).toContain('svc_key_collisions_total{outcome="held_both"} 1');

    const seen = await svc.operator.get('/key-collisions');
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual([
      {
        id: b1,
        detected_at: expect.any(String),
        held: { item_id: b1, offer_id: offerB, supplier_id: second.id, status: 'held' },
        other: { item_id: a1, offer_id: offerA, supplier_id: first.id, status: 'held' },
      },
    ]);

    // neither copy is sold: both offers sell only their own other key
    await first.api.post(`/offers/${offerA}/activate`);
    await second.api.post(`/offers/${offerB}/activate`);
    const orders: string[] = [];
    for (const productId of [productA, productB]) {
      const placed = await svc.operator.post('/orders', {
        items: [{ product_id: productId, quantity: 1 }],
        buyer_country: 'DE',
      });
      expect(placed.status).toBe(201);
      await svc.operator.post(`/orders/${placed.body.id}/pay`);
      orders.push(placed.body.id);
      const more = await svc.operator.post('/orders', {
        items: [{ product_id: productId, quantity: 1 }],
        buyer_country: 'DE',
      });
      expect([more.status, more.body.code]).toEqual([409, 'out_of_stock']);
    }
    expect((await deliveredKeys(svc, orders)).sort()).toEqual(['ONLY-FIRST-0002', 'ONLY-SECOND-0003']);

    // the operator finds the first supplier's copy the rightful one: released, sold once; the other invalidated
    const released = await svc.operator.post(`/inventory/${a1}/release`);
    expect(released.body).toEqual({ item_id: a1, offer_id: offerA, status: 'available' });
    await svc.operator.post(`/inventory/${b1}/invalidate`, { reason: 'a copy of another supplier key' });
    expect((await svc.operator.get('/key-collisions')).body.data).toEqual([]);
    expect((await svc.operator.get('/key-collisions?open=false')).body.data).toHaveLength(1);
    const last = await svc.operator.post('/orders', {
      items: [{ product_id: productA, quantity: 1 }],
      buyer_country: 'DE',
    });
    await svc.operator.post(`/orders/${last.body.id}/pay`);
    expect(await deliveredKeys(svc, [last.body.id])).toEqual(['SHARED-KEY-0001']);
    // and uploaded again by anyone it is held, as a sold key is still known
    const third = await svc.newSupplier('Third Keys');
    const offerC = (await createUploaded(third.api, (await svc.newProduct()).id)).id;
    await upload(third.api, offerC, [{ kind: 'text', value: 'SHARED-KEY-0001' }]);
    expect(Object.values(await statusOf(third, offerC))).toEqual(['under_review']);
  });

  it("refuses a key already in one of the supplier's own offers; a withdrawn one may come back anywhere", async () => {
    const offer1 = (await createUploaded(first.api, (await svc.newProduct()).id)).id;
    const offer2 = (await createUploaded(first.api, (await svc.newProduct()).id)).id;
    const [mine] = (await upload(first.api, offer1, [{ kind: 'text', value: 'OWN-KEY-0001' }])).item_ids as string[];
    const twice = await first.api.post(`/offers/${offer2}/inventory`, {
      mode: 'partial',
      items: [{ kind: 'text', value: 'OWN-KEY-0001' }],
    });
    expect(twice.body).toMatchObject({
      accepted: 0,
      rejected: [{ index: 0, code: 'duplicate_key', message: 'this key is already in your stock' }],
    });
    await first.api.delete(`/offers/${offer1}/inventory/${mine}`);
    expect((await upload(first.api, offer2, [{ kind: 'text', value: 'OWN-KEY-0001' }])).accepted).toBe(1);
    // another supplier's upload of it now holds it under review: the key is in stock again
    const other = (await createUploaded(second.api, (await svc.newProduct()).id)).id;
    const [copy] = (await upload(second.api, other, [{ kind: 'text', value: 'OWN-KEY-0001' }])).item_ids as string[];
    expect(await statusOf(second, other)).toEqual({ [String(copy)]: 'under_review' });
  });

  it('two suppliers uploading the same keys at the same moment never both offer one for sale', async () => {
    const keys = Array.from({ length: 200 }, (_, i) => ({ kind: 'text', value: `RACE-${i}` }));
    const offers = await Promise.all(
      [first, second].map(async (s) => ({ s, id: (await createUploaded(s.api, (await svc.newProduct()).id)).id })),
    );
    const answers = await Promise.all(
      offers.map(({ s, id }) => s.api.post(`/offers/${id}/inventory`, { items: keys })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    await svc.drain();
    const available = (await Promise.all(offers.map(async ({ s, id }) => Object.values(await statusOf(s, id)))))
      .flat()
      .filter((status) => status === 'available');
    expect(available).toEqual([]);
  });
});
