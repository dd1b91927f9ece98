import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest-of-png')]);
const pdf = Buffer.from('%PDF-1.7 a tiny document');
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const file = (bytes: Buffer, content_type: string, file_name = 'key.bin') => ({ kind: 'file', file_name, content_type, content_base64: bytes.toString('base64') });

describe('inventory uploads', () => {
  let svc: TestService;
  let api: Awaited<ReturnType<TestService['newSupplier']>>['api'];
  let offerId: string;
  const stock = async () => (await api.get(`/offers/${offerId}`)).body.stock;

  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    ({ api } = await svc.newSupplier());
    const product = await svc.newProduct();
    offerId = (await api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(999), external_ref: 'INV', low_stock_threshold: 2 })).body.id;
  });
  afterAll(() => svc.stop());

  it('strict (default): one bad item rejects the batch with every bad item listed, and nothing is stored', async () => {
    const res = await api.post(`/offers/${offerId}/inventory`, {
      items: [
        { kind: 'text', value: 'GOOD-1' },
        { kind: 'text', value: '' },
        { kind: 'text', value: 'x'.repeat(1025) },
        file(png, 'image/png'),
        file(pdf, 'image/png'),
        { kind: 'file', file_name: 'a.pdf', content_type: 'application/zip', content_base64: 'AAAA' },
        { kind: 'file', file_name: 'a.pdf', content_type: 'application/pdf', content_base64: 'not base64!' },
        file(Buffer.concat([pdf, Buffer.alloc(200 * 1024)]), 'application/pdf'),
        { kind: 'voucher', value: 'x' },
        { kind: 'text', value: 'GOOD-1' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('inventory_rejected');
    expect(res.body.rejected.map((r: any) => [r.index, r.code])).toEqual([
      [1, 'invalid_value'],
      [2, 'invalid_value'],
      [4, 'content_mismatch'],
      [5, 'unsupported_content_type'],
      [6, 'invalid_base64'],
      [7, 'file_too_large'],
      [8, 'invalid_kind'],
      [9, 'duplicate_in_batch'],
    ]);
    expect(await stock()).toEqual({ mode: 'uploaded', declared: null, available: 0, reserved: 0, delivered: 0 });
    expect(await svc.services.db.selectFrom('inventory_values').selectAll().execute()).toEqual([]);
  });

  it('partial: valid items are stored, invalid ones listed; files of each type; 1,024-character keys', async () => {
    const res = await api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [
        { kind: 'text', value: 'KEY-1' },
        { kind: 'text', value: 'k'.repeat(1024) },
        file(png, 'image/png', 'code.png'),
        file(pdf, 'application/pdf', 'code.pdf'),
        file(jpeg, 'image/jpeg', 'code.jpg'),
        file(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(200 * 1024 - 3)]), 'image/jpeg', 'max.jpg'),
        { kind: 'text', value: '   ' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      accepted: 6,
      rejected: [{ index: 6, code: 'invalid_value', message: 'value must not be blank' }],
      item_ids: expect.any(Array),
      stock_available: 6,
    });
    expect(await stock()).toMatchObject({ available: 6, reserved: 0, delivered: 0 });
    const list = await api.get(`/offers/${offerId}/inventory`);
    expect(list.body.data.map((i: any) => [i.id, i.kind, i.status, i.file_name, i.content_type])).toEqual([
      [res.body.item_ids[0], 'text', 'available', null, null],
      [res.body.item_ids[1], 'text', 'available', null, null],
      [res.body.item_ids[2], 'file', 'available', 'code.png', 'image/png'],
      [res.body.item_ids[3], 'file', 'available', 'code.pdf', 'application/pdf'],
      [res.body.item_ids[4], 'file', 'available', 'code.jpg', 'image/jpeg'],
      [res.body.item_ids[5], 'file', 'available', 'max.jpg', 'image/jpeg'],
    ]);
    expect(list.text).not.toContain('KEY-1');
  });

  it('refuses a key already in stock; keys are encrypted at rest and appear in no event or log', async () => {
    const dup = await api.post(`/offers/${offerId}/inventory`, { mode: 'partial', items: [{ kind: 'text', value: 'KEY-1' }, { kind: 'text', value: 'KEY-2' }] });
    expect(dup.body).toMatchObject({ accepted: 1, rejected: [{ index: 0, code: 'duplicate_key', message: "this key is already in the offer's stock" }], stock_available: 7 });
    const stored = await svc.services.db.selectFrom('inventory_values').selectAll().execute();
    expect(stored).toHaveLength(7);
    for (const row of stored) expect(row.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]*$/);
    const everything = JSON.stringify(stored) + JSON.stringify(await svc.services.db.selectFrom('es_events' as any).selectAll().execute()) + JSON.stringify(svc.logs);
    for (const secret of ['KEY-1', 'KEY-2', png.toString('base64'), pdf.toString('base64')]) expect(everything).not.toContain(secret);
  });

  it('at most 1,000 items per upload; 1,000 keys in one request are fine', async () => {
    const product = await svc.newProduct({ name: 'Bulk' });
    const bulk = (await api.post('/offers', { product_id: product.id, stock_mode: 'uploaded', price: eur(1), external_ref: 'B' })).body.id;
    const many = Array.from({ length: 1000 }, (_, i) => ({ kind: 'text', value: `BULK-${i}` }));
    const ok = await api.post(`/offers/${bulk}/inventory`, { items: many });
    expect(ok.status).toBe(201);
    expect(ok.body.accepted).toBe(1000);
    const tooMany = await api.post(`/offers/${bulk}/inventory`, { items: [...many, { kind: 'text', value: 'one more' }] });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe('validation_failed');
    expect((await api.get(`/offers/${bulk}`)).body.stock.available).toBe(1000);
  });

  it('deletes an available item; deleting it again is 404; stock_low fires when available crosses the threshold downward', async () => {
    const list = (await api.get(`/offers/${offerId}/inventory?status=available`)).body.data;
    expect(list).toHaveLength(7);
    for (const item of list.slice(0, 5)) expect((await api.delete(`/offers/${offerId}/inventory/${item.id}`)).status).toBe(200);
    const last = await api.delete(`/offers/${offerId}/inventory/${list[5].id}`);
    expect(last.body).toEqual({ item_id: list[5].id, status: 'removed', stock_available: 1 });
    expect((await api.delete(`/offers/${offerId}/inventory/${list[5].id}`)).status).toBe(404);
    const lows = await svc.services.db.selectFrom('es_events' as any).select(['data'] as any).where('type' as any, '=', 'OfferStockLow').execute();
    expect(lows.map((l: any) => l.data)).toEqual([{ offerId, available: 2, threshold: 2, at: expect.any(String) }]);
    // a removed key may be uploaded again
    const back = await api.post(`/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'KEY-1' }] });
    expect(back.status).toBe(201);
  });

  it('uploads to a declared offer are a stock_mode_mismatch', async () => {
    const product = await svc.newProduct({ name: 'Decl' });
    const declared = (await api.post('/offers', { product_id: product.id, stock_mode: 'declared', price: eur(1), external_ref: 'D', fulfilment: { base_url: 'http://127.0.0.1:9/x' } })).body.id;
    const res = await api.post(`/offers/${declared}/inventory`, { items: [{ kind: 'text', value: 'x' }] });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('stock_mode_mismatch');
  });
});
