import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import {
  createDeclared,
  createUploaded,
  eur,
  type Fulfilment,
  sell,
  startFulfilment,
  textKeys,
  upload,
} from './fixtures.js';

describe('GET /offers and GET /offers/{offer_id}', () => {
  let svc: TestService;
  let fulfilment: Fulfilment;
  beforeAll(async () => {
    svc = await startTestService();
    fulfilment = await startFulfilment();
  });
  afterAll(async () => {
    await svc.stop();
    await fulfilment.close();
  });

  it('an unknown offer is a 404 problem', async () => {
    const { api } = await svc.newSupplier();
    const res = await api.get('/offers/01NOSUCHOFFER0000000000000');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: expect.stringMatching(/\/api\/v1\/errors#not_found$/),
      title: 'Not found',
      status: 404,
      detail: 'offer 01NOSUCHOFFER0000000000000 not found',
      code: 'not_found',
      trace_id: res.headers.get('x-trace-id'),
    });
  });

  it("lists only the caller's offers, by id, a page at a time, with filters on status, product_id and stock_mode", async () => {
    const { api } = await svc.newSupplier();
    const other = await svc.newSupplier('Other');
    const ids: string[] = [];
    const products: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await svc.newProduct({ name: `L${i}` });
      products.push(p.id);
      const o =
        i % 2 === 0
          ? await createUploaded(api, p.id, { external_ref: `L${i}` })
          : await createDeclared(api, p.id, fulfilment.url, { external_ref: `L${i}` });
      ids.push(o.id);
      await createUploaded(other.api, p.id);
    }
    await api.post(`/offers/${ids[0]}/activate`);
    await api.post(`/offers/${ids[1]}/activate`);
    await api.post(`/offers/${ids[2]}/activate`);
    await api.post(`/offers/${ids[2]}/deactivate`);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res: any = await api.get(`/offers?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      pages.push(res.body.data.map((o: any) => o.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);

    const ofList = async (query: string) => {
      const res = await api.get(`/offers?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((o: any) => o.id);
    };
    expect(await ofList('')).toEqual(ids);
    expect(await ofList('stock_mode=declared')).toEqual([ids[1], ids[3]]);
    expect(await ofList('stock_mode=uploaded')).toEqual([ids[0], ids[2], ids[4]]);
    expect(await ofList('status=active')).toEqual([ids[0], ids[1]]);
    expect(await ofList('status=inactive')).toEqual([ids[2]]);
    expect(await ofList('status=draft')).toEqual([ids[3], ids[4]]);
    expect(await ofList('status=active&stock_mode=declared')).toEqual([ids[1]]);
    expect(await ofList(`product_id=${products[2]}`)).toEqual([ids[2]]);
    expect(await ofList(`product_id=${products[2]}&status=draft`)).toEqual([]);
    expect(await ofList('status=draft&limit=1')).toEqual([ids[3]]);

    // each list entry is the same resource the single read answers
    const list = (await api.get('/offers')).body.data;
    for (const entry of list) expect((await api.get(`/offers/${entry.id}`)).body).toEqual(entry);
  });

  it('refuses a bad cursor, a limit outside 1..200 and an unknown filter value with 422', async () => {
    const { api } = await svc.newSupplier();
    for (const query of [
      'cursor=not-a-cursor',
      'limit=0',
      'limit=201',
      'limit=x',
      'status=retired',
      'stock_mode=both',
    ]) {
      const res = await api.get(`/offers?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 422, 'validation_failed']);
    }
  });

  it('stock of an uploaded offer: available, reserved and delivered keys; declared is null', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id);
    await upload(api, offer.id, textKeys('READ', 4));
    await api.post(`/offers/${offer.id}/activate`);
    await sell(svc, product.id, 2); // delivered
    const held = await svc.operator.post('/orders', {
      items: [{ product_id: product.id, quantity: 1 }],
      buyer_country: 'FR',
    }); // reserved, unpaid
    expect(held.status).toBe(201);
    const read = await api.get(`/offers/${offer.id}`);
    expect(read.body.stock).toEqual({ mode: 'uploaded', declared: null, available: 1, reserved: 1, delivered: 2 });
    expect(read.body.health).toEqual({ score: 100, routing_eligible: true, cooldown_until: null });
  });

  it('stock of a declared offer: the declared count and the units delivered; available and reserved are null', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createDeclared(api, product.id, fulfilment.url, { declared_stock: 10 });
    fulfilment.answer(200);
    expect((await api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    const order = await sell(svc, product.id, 3);
    await svc.drain(); // POST /orders, the poll that hands the keys over, capture
    expect((await svc.operator.get(`/orders/${order.id}`)).body.status).toBe('completed');
    const read = await api.get(`/offers/${offer.id}`);
    expect(read.body.stock).toEqual({ mode: 'declared', declared: 10, available: null, reserved: null, delivered: 3 });
    expect((await api.get('/offers')).body.data[0].stock).toEqual(read.body.stock);
    // a write's answer shows the same stock as the read after it
    const priced = await api.put(`/offers/${offer.id}/price`, { price: eur(990) });
    expect(priced.body.stock).toEqual(read.body.stock);
    expect((await api.get(`/offers/${offer.id}`)).body).toEqual(priced.body);
  });

  it('updated_at moves with the stock, and a write that changes nothing answers what a read shows', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const offer = await createUploaded(api, product.id);
    await svc.advance(60);
    await upload(api, offer.id, textKeys('MOVE', 2));
    const read = await api.get(`/offers/${offer.id}`);
    expect(read.body.updated_at).toBe(svc.clock.now().toISOString());
    expect(read.body.created_at).toBe(offer.created_at);
    await svc.advance(60);
    const unchanged = await api.patch(`/offers/${offer.id}`, { price: offer.price });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(read.body);
  });
});
