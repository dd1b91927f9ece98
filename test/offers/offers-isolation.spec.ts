import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import {
  createDeclared,
  createUploaded,
  eur,
  type Fulfilment,
  startFulfilment,
  type Supplier,
  textKeys,
  upload,
} from './fixtures.js';

const NONE = '01NOSUCHOFFER0000000000000';
const NO_ITEM = '01NOSUCHITEM00000000000000';

describe("a supplier cannot read, change or detect another supplier's offers or items", () => {
  let svc: TestService;
  let fulfilment: Fulfilment;
  let owner: Supplier;
  let intruder: Supplier;
  let uploadedId: string;
  let declaredId: string;
  let itemId: string;
  let intruderOfferId: string;

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 100, bulk: 100 } });
    fulfilment = await startFulfilment();
    owner = await svc.newSupplier('Owner');
    intruder = await svc.newSupplier('Intruder');
    const product = await svc.newProduct();
    uploadedId = (await createUploaded(owner.api, product.id, { price: eur(500), external_ref: 'MINE' })).id;
    itemId = (await upload(owner.api, uploadedId, [{ kind: 'text', value: 'OWNER-SECRET-KEY' }])).item_ids[0]!;
    declaredId = (await createDeclared(owner.api, (await svc.newProduct()).id, fulfilment.url, { declared_stock: 3 }))
      .id;
    intruderOfferId = (await createUploaded(intruder.api, (await svc.newProduct()).id)).id;
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  /** Every offer route, for an offer id (and item id) of the caller's choosing. */
  const routes = (offer: { uploaded: string; declared: string; item: string }): [string, string, unknown?][] => [
    ['GET', `/offers/${offer.uploaded}`],
    ['GET', `/offers/${offer.declared}`],
    ['PATCH', `/offers/${offer.uploaded}`, { price: eur(1) }],
    ['PATCH', `/offers/${offer.declared}`, { delivery_sla_minutes: 1 }],
    ['PUT', `/offers/${offer.uploaded}/price`, { price: eur(1) }],
    ['PUT', `/offers/${offer.declared}/stock`, { declared_stock: 0 }],
    ['PUT', `/offers/${offer.uploaded}/stock`, { declared_stock: 0 }],
    ['POST', `/offers/${offer.uploaded}/activate`],
    ['POST', `/offers/${offer.declared}/activate`],
    ['POST', `/offers/${offer.uploaded}/deactivate`],
    ['POST', `/offers/${offer.uploaded}/inventory`, { items: [{ kind: 'text', value: 'OWNER-SECRET-KEY' }] }],
    ['POST', `/offers/${offer.uploaded}/inventory`, { mode: 'partial', items: [{ kind: 'text', value: 'NEW-KEY' }] }],
    ['GET', `/offers/${offer.uploaded}/inventory`],
    ['GET', `/offers/${offer.uploaded}/inventory?status=available`],
    ['DELETE', `/offers/${offer.uploaded}/inventory/${offer.item}`],
    ['POST', `/offers/${offer.declared}/fulfilment/check`],
    ['POST', `/offers/${offer.declared}/fulfilment/rotate-secret`],
    ['POST', `/offers/${offer.uploaded}/fulfilment/check`],
  ];

  const call = (
    who: Supplier,
    [method, path, body]: [string, string, unknown?],
    headers: Record<string, string> = {},
  ) => {
    const m = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    return m === 'get' || m === 'delete' ? who.api[m](path, { headers }) : who.api[m](path, body, { headers });
  };
  const comparable = (body: any, ...ids: string[]) => {
    const { trace_id: _t, ...rest } = body;
    return JSON.parse(ids.reduce((text, id) => text.replaceAll(id, '<id>'), JSON.stringify(rest)));
  };

  it('answers 404 on every offer route exactly as for an offer that does not exist', async () => {
    const probesBefore = fulfilment.healthchecks().length;
    const theirs = routes({ uploaded: uploadedId, declared: declaredId, item: itemId });
    const nowhere = routes({ uploaded: NONE, declared: NONE, item: NO_ITEM });
    for (let i = 0; i < theirs.length; i++) {
      const a = await call(intruder, theirs[i]!);
      const b = await call(intruder, nowhere[i]!);
      expect([theirs[i]![0], theirs[i]![1], a.status]).toEqual([theirs[i]![0], theirs[i]![1], 404]);
      expect(b.status).toBe(404);
      expect(comparable(a.body, uploadedId, declaredId, itemId)).toEqual(comparable(b.body, NONE, NO_ITEM));
      expect(a.text).not.toContain('OWNER-SECRET-KEY');
    }
    expect(fulfilment.healthchecks()).toHaveLength(probesBefore);
  });

  it("an item id of another supplier is 404 through the caller's own offer, like an id that does not exist", async () => {
    const a = await intruder.api.delete(`/offers/${intruderOfferId}/inventory/${itemId}`);
    const b = await intruder.api.delete(`/offers/${intruderOfferId}/inventory/${NO_ITEM}`);
    expect(a.status).toBe(404);
    expect(comparable(a.body, itemId)).toEqual(comparable(b.body, NO_ITEM));
  });

  it("lists and filters show only the caller's own offers", async () => {
    const product = (await owner.api.get(`/offers/${uploadedId}`)).body.product_id;
    expect((await intruder.api.get('/offers')).body.data.map((o: any) => o.id)).toEqual([intruderOfferId]);
    expect((await intruder.api.get(`/offers?product_id=${product}`)).body.data).toEqual([]);
    expect((await intruder.api.get('/offers?stock_mode=declared')).body.data).toEqual([]);
  });

  it("an Idempotency-Key the owner used replays nothing of the owner's for another supplier", async () => {
    const body = { items: textKeys('IDEM-OWNER', 1) };
    const headers = { 'idempotency-key': 'shared-key-1' };
    const mine = await owner.api.post(`/offers/${uploadedId}/inventory`, body, { headers });
    expect(mine.status).toBe(201);
    const theirs = await intruder.api.post(`/offers/${uploadedId}/inventory`, body, { headers });
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('idempotent-replay')).toBeNull();
  });

  it("nothing of the owner's changed", async () => {
    const uploaded = await owner.api.get(`/offers/${uploadedId}`);
    expect(uploaded.body).toMatchObject({
      status: 'draft',
      price: eur(500),
      external_ref: 'MINE',
      stock: { available: 2, reserved: 0, delivered: 0 },
    });
    const declared = await owner.api.get(`/offers/${declaredId}`);
    expect(declared.body).toMatchObject({
      status: 'draft',
      delivery_sla_minutes: 10,
      stock: { declared: 3 },
      fulfilment: { last_healthcheck_at: null },
    });
    expect(
      (await owner.api.get(`/offers/${uploadedId}/inventory`)).body.data.map((i: any) => [i.id, i.status])[0],
    ).toEqual([itemId, 'available']);
    // the owner's secret still signs: no rotation happened
    const types = (
      await svc.services.db
        .selectFrom('es_events' as any)
        .select('type' as any)
        .where('stream_id' as any, '=', `offer-${declaredId}`)
        .execute()
    ).map((r: any) => r.type);
    expect(types).toEqual(['OfferCreated']);
  });

  it('may offer the same product itself: one offer per product is per supplier', async () => {
    const product = (await owner.api.get(`/offers/${uploadedId}`)).body.product_id;
    const res = await intruder.api.post('/offers', {
      product_id: product,
      stock_mode: 'uploaded',
      price: eur(400),
      external_ref: 'THEIRS',
    });
    expect(res.status).toBe(201);
    // and its keys are its own: the owner's key is no duplicate in the intruder's offer
    expect((await upload(intruder.api, res.body.id, [{ kind: 'text', value: 'OWNER-SECRET-KEY' }])).accepted).toBe(1);
  });
});
