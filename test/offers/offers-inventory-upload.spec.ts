import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { storedValues } from '../support/values.js';
import {
  createDeclared,
  createUploaded,
  eur,
  sell,
  streamEvents,
  type Supplier,
  textKeys,
  upload,
} from './fixtures.js';

const BULK_LIMIT = 100;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest-of-png')]);
const pdf = Buffer.from('%PDF-1.7 a tiny document');
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const file = (bytes: Buffer, content_type: string, file_name = 'key.bin') => ({
  kind: 'file',
  file_name,
  content_type,
  content_base64: bytes.toString('base64'),
});
/** The same kind of file with bytes of its own: a file is a key, never stocked twice on the marketplace. */
const tagged = (bytes: Buffer, tag: string) => Buffer.concat([bytes, Buffer.from(` ${tag}`)]);
const sized = (signature: Buffer, size: number) => Buffer.concat([signature, Buffer.alloc(size - signature.length, 7)]);

describe('POST /offers/{id}/inventory', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: BULK_LIMIT } });
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const freshOffer = async (extra: Record<string, unknown> = {}) =>
    (await createUploaded(supplier.api, (await svc.newProduct()).id, extra)).id as string;
  const valuesOf = (offerId: string) => storedValues(svc.services, offerId);
  const stockOf = async (offerId: string) => (await supplier.api.get(`/offers/${offerId}`)).body.stock;

  it('strict (the default): one bad item refuses the batch with 422 inventory_rejected listing every bad item, and nothing is stored', async () => {
    const offerId = await freshOffer();
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      items: [
        { kind: 'text', value: 'GOOD-1' },
        { kind: 'text', value: '' },
        { kind: 'text', value: 'x'.repeat(1025) },
        file(png, 'image/png'),
        file(pdf, 'image/png'),
        { kind: 'file', file_name: 'a.zip', content_type: 'application/zip', content_base64: 'AAAA' },
        { kind: 'file', file_name: 'a.pdf', content_type: 'application/pdf', content_base64: 'not base64!' },
        file(sized(Buffer.from('%PDF-'), 200 * 1024 + 1), 'application/pdf'),
        { kind: 'voucher', value: 'x' },
        { kind: 'text', value: 'GOOD-1' },
        { kind: 'text', value: 42 },
        { kind: 'text', value: 'EXTRA', note: 'mine' },
        'KEY-AS-A-STRING',
        file(png, 'image/png', '../etc/passwd'),
        { kind: 'file', file_name: 'empty.png', content_type: 'image/png', content_base64: '' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'inventory_rejected',
      title: 'Inventory rejected',
      detail: '13 item(s) invalid; nothing was stored',
    });
    expect(res.body.rejected).toEqual([
      { index: 1, code: 'invalid_value', message: 'value must be 1 to 1024 characters' },
      { index: 2, code: 'invalid_value', message: 'value must be 1 to 1024 characters' },
      { index: 4, code: 'content_mismatch', message: 'the bytes are not a image/png file' },
      {
        index: 5,
        code: 'unsupported_content_type',
        message: 'content_type must be application/pdf, image/png or image/jpeg',
      },
      { index: 6, code: 'invalid_base64', message: 'content_base64 must be non-empty, valid base64' },
      { index: 7, code: 'file_too_large', message: 'files are at most 204800 bytes decoded' },
      { index: 8, code: 'invalid_kind', message: 'kind must be text or file' },
      { index: 9, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' },
      { index: 10, code: 'invalid_value', message: 'value must be a string' },
      { index: 11, code: 'invalid_item', message: 'unknown field note on a text item' },
      { index: 12, code: 'invalid_item', message: 'an item is an object with a kind' },
      {
        index: 13,
        code: 'invalid_file_name',
        message: 'file_name must be 1 to 255 characters without path separators or control characters',
      },
      { index: 14, code: 'invalid_base64', message: 'content_base64 must be non-empty, valid base64' },
    ]);
    expect(await stockOf(offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 0,
      reserved: 0,
      delivered: 0,
    });
    expect(await valuesOf(offerId)).toEqual([]);
    expect((await streamEvents(svc, `inventory-${offerId}`)).map((e) => e.type)).toEqual([]);
    expect((await supplier.api.get(`/offers/${offerId}/inventory`)).body.data).toEqual([]);
  });

  it('strict with only a key already in stock is refused as a whole too', async () => {
    const offerId = await freshOffer();
    await upload(supplier.api, offerId, [{ kind: 'text', value: 'HELD-1' }]);
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'strict',
      items: [
        { kind: 'text', value: 'NEW-1' },
        { kind: 'text', value: 'HELD-1' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.rejected).toEqual([
      { index: 1, code: 'duplicate_key', message: "this key is already in the offer's stock" },
    ]);
    expect((await stockOf(offerId)).available).toBe(1);
    expect(await valuesOf(offerId)).toHaveLength(1);
  });

  it('partial: valid items are stored and answered in order, invalid ones listed; the answer is 201 even when nothing was accepted', async () => {
    const offerId = await freshOffer();
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [
        { kind: 'text', value: 'KEY-1' },
        { kind: 'text', value: '   ' },
        file(png, 'image/png', 'code.png'),
        file(pdf, 'application/pdf', 'code.pdf'),
        { kind: 'text', value: 'KEY-1' },
        file(jpeg, 'image/jpeg', 'code.jpg'),
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      accepted: 4,
      rejected: [
        { index: 1, code: 'invalid_value', message: 'value must not be blank' },
        { index: 4, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' },
      ],
      item_ids: [expect.any(String), expect.any(String), expect.any(String), expect.any(String)],
      stock_available: 4,
    });
    const list = await supplier.api.get(`/offers/${offerId}/inventory`);
    expect(list.body.data.map((i: any) => [i.id, i.kind, i.file_name, i.content_type])).toEqual([
      [res.body.item_ids[0], 'text', null, null],
      [res.body.item_ids[1], 'file', 'code.png', 'image/png'],
      [res.body.item_ids[2], 'file', 'code.pdf', 'application/pdf'],
      [res.body.item_ids[3], 'file', 'code.jpg', 'image/jpeg'],
    ]);
    expect(await stockOf(offerId)).toEqual({
      mode: 'uploaded',
      declared: null,
      available: 4,
      reserved: 0,
      delivered: 0,
    });

    const none = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [{ kind: 'text', value: 'KEY-1' }],
    });
    expect(none.status).toBe(201);
    expect(none.body).toEqual({
      accepted: 0,
      rejected: [{ index: 0, code: 'duplicate_key', message: "this key is already in the offer's stock" }],
      item_ids: [],
      stock_available: 4,
    });
  });

  it('stores each item as sent, in one statement per table: names with quotes, commas and braces, a name "NULL", the values sealed together', async () => {
    const offerId = await freshOffer();
    const names = ['say "hi", {x}.png', 'NULL', "it's {1,2}.pdf"];
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      items: [
        file(tagged(png, 'stored'), 'image/png', names[0]),
        { kind: 'text', value: 'KEY "1", {a}' },
        file(tagged(png, 'stored-another'), 'image/png', names[1]),
        file(tagged(pdf, 'stored'), 'application/pdf', names[2]),
        { kind: 'text', value: 'NULL' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const ids: string[] = res.body.item_ids;
    const list = await supplier.api.get(`/offers/${offerId}/inventory`);
    expect(list.body.data.map((i: any) => [i.id, i.kind, i.file_name, i.content_type, i.status])).toEqual([
      [ids[0], 'file', names[0], 'image/png', 'available'],
      [ids[1], 'text', null, null, 'available'],
      [ids[2], 'file', names[1], 'image/png', 'available'],
      [ids[3], 'file', names[2], 'application/pdf', 'available'],
      [ids[4], 'text', null, null, 'available'],
    ]);
    const values = new Map((await valuesOf(offerId)).map((v) => [v.item_id, v]));
    expect(ids.map((id) => [values.get(id)!.kind, values.get(id)!.created_at.toISOString()])).toEqual(
      ['file', 'text', 'file', 'file', 'text'].map((kind) => [kind, svc.clock.now().toISOString()]),
    );
    expect(values.get(ids[1]!)!.bytes.toString()).toBe('KEY "1", {a}');
    expect(values.get(ids[4]!)!.bytes.toString()).toBe('NULL');
    expect(values.get(ids[3]!)!.bytes).toEqual(tagged(pdf, 'stored'));
    // one set, one seal: the upload's values are one row of inventory_value_sets
    expect(new Set(ids.map((id) => values.get(id)!.nonce)).size).toBe(1);
    expect(
      await svc.services.db
        .selectFrom('inventory_value_sets')
        .select('item_ids')
        .where('offer_id', '=', offerId)
        .execute(),
    ).toEqual([{ item_ids: ids }]);
    expect(await stockOf(offerId)).toMatchObject({ available: 5 });
  });

  it('limits at their edges: 1 and 1,024 characters (counted as characters, not bytes), files of exactly 200 KB', async () => {
    const offerId = await freshOffer();
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [
        { kind: 'text', value: 'k' },
        { kind: 'text', value: 'k'.repeat(1024) },
        { kind: 'text', value: '🔑'.repeat(1024) },
        { kind: 'text', value: 'é'.repeat(1025) },
        file(sized(Buffer.from([0xff, 0xd8, 0xff]), 200 * 1024), 'image/jpeg', 'max.jpg'),
        file(
          sized(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 200 * 1024 + 1),
          'image/png',
          'over.png',
        ),
        file(sized(Buffer.from('%PDF-'), 200 * 1024 - 1), 'application/pdf', 'under.pdf'),
        {
          kind: 'file',
          file_name: 'u.png',
          content_type: 'image/png',
          content_base64: png.toString('base64url') + '_-',
        },
        {
          kind: 'file',
          file_name: 'wrapped.pdf',
          content_type: 'application/pdf',
          content_base64: `${pdf.toString('base64').slice(0, 8)}\n${pdf.toString('base64').slice(8)}`,
        },
        file(tagged(png, 'edges'), 'image/png', 'x'.repeat(255)),
        file(tagged(png, 'edges'), 'image/png', 'x'.repeat(256)),
        file(tagged(png, 'edges'), 'image/png', 'line\nbreak.png'),
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.rejected.map((r: any) => [r.index, r.code])).toEqual([
      [3, 'invalid_value'],
      [5, 'file_too_large'],
      [7, 'invalid_base64'],
      [8, 'invalid_base64'],
      [10, 'invalid_file_name'],
      [11, 'invalid_file_name'],
    ]);
    expect(res.body.accepted).toBe(6);
  });

  it('at most 1,000 items per request: 1,000 keys in one request are stored, 1,001 or none are a validation problem', async () => {
    const offerId = await freshOffer();
    const many = textKeys('BULK', 1000);
    const ok = await supplier.api.post(`/offers/${offerId}/inventory`, { items: many });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ accepted: 1000, rejected: [], stock_available: 1000 });
    expect(new Set(ok.body.item_ids).size).toBe(1000);
    const tooMany = await supplier.api.post(`/offers/${offerId}/inventory`, { items: textKeys('MORE', 1001) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'body.items', message: expect.stringContaining('1000') }],
    });
    const empty = await supplier.api.post(`/offers/${offerId}/inventory`, { items: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([{ field: 'body.items', message: expect.any(String) }]);
    for (const body of [
      {},
      { items: 'KEY' },
      { mode: 'lenient', items: [{ kind: 'text', value: 'A' }] },
      { items: [{ kind: 'text', value: 'A' }], offer: 'x' },
    ]) {
      const bad = await supplier.api.post(`/offers/${offerId}/inventory`, body);
      expect([body, bad.status, bad.body.code]).toEqual([body, 422, 'validation_failed']);
    }
    expect((await stockOf(offerId)).available).toBe(1000);
  });

  it("a key already in the offer's stock is refused whatever its state: available, delivered or invalidated; a removed one may come back", async () => {
    const product = await svc.newProduct();
    const offerId = (await createUploaded(supplier.api, product.id)).id;
    const {
      item_ids: [sold, spoiled, taken],
    } = await upload(supplier.api, offerId, [
      { kind: 'text', value: 'SOLD' },
      { kind: 'text', value: 'SPOILED' },
      { kind: 'text', value: 'TAKEN-BACK' },
      { kind: 'text', value: 'STILL-HERE' },
    ]);
    await supplier.api.post(`/offers/${offerId}/activate`);
    const order = await sell(svc, product.id, 1);
    expect(order.items[0].fulfilment.inventory_item_ids).toEqual([sold]);
    expect((await svc.operator.post(`/inventory/${spoiled}/invalidate`, { reason: 'leaked' })).status).toBe(200);
    expect((await supplier.api.delete(`/offers/${offerId}/inventory/${taken}`)).status).toBe(200);
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: ['SOLD', 'SPOILED', 'TAKEN-BACK', 'STILL-HERE'].map((value) => ({ kind: 'text', value })),
    });
    expect(res.body.rejected.map((r: any) => [r.index, r.code])).toEqual([
      [0, 'duplicate_key'],
      [1, 'duplicate_key'],
      [3, 'duplicate_key'],
    ]);
    expect(res.body).toMatchObject({ accepted: 1, stock_available: 2 });
    // keys are compared exactly: another case or surrounding spaces make another key
    expect(
      (
        await upload(supplier.api, offerId, [
          { kind: 'text', value: 'sold' },
          { kind: 'text', value: ' SOLD' },
        ])
      ).accepted,
    ).toBe(2);
    // nor on another of the supplier's products: a key is sold once on the marketplace
    const other = await freshOffer();
    expect((await upload(supplier.api, other, [{ kind: 'text', value: 'SOLD' }], 'partial')).rejected).toEqual([
      { index: 0, code: 'duplicate_key', message: 'this key is already in your stock' },
    ]);
  });

  it('identical files are duplicates; a text key and a file with the same bytes are not', async () => {
    const offerId = await freshOffer();
    const same = tagged(pdf, 'identical');
    await upload(supplier.api, offerId, [file(same, 'application/pdf', 'a.pdf')]);
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [file(same, 'application/pdf', 'renamed.pdf'), { kind: 'text', value: same.toString('latin1') }],
    });
    expect(res.body.rejected).toEqual([
      { index: 0, code: 'duplicate_key', message: "this key is already in the offer's stock" },
    ]);
    expect(res.body.accepted).toBe(1);
  });

  it('simultaneous uploads of one key store it once', async () => {
    const offerId = await freshOffer();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        supplier.api.post(`/offers/${offerId}/inventory`, {
          mode: 'partial',
          items: [{ kind: 'text', value: 'RACE-1' }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.map((a) => a.body.accepted).sort()).toEqual([0, 0, 0, 0, 1]);
    expect(answers.filter((a) => a.body.accepted === 0).map((a) => a.body.rejected[0].code)).toEqual(
      Array(4).fill('duplicate_key'),
    );
    expect(await valuesOf(offerId)).toHaveLength(1);
    expect((await stockOf(offerId)).available).toBe(1);
    const strict = await Promise.all(
      Array.from({ length: 3 }, () =>
        supplier.api.post(`/offers/${offerId}/inventory`, { items: [{ kind: 'text', value: 'RACE-2' }] }),
      ),
    );
    expect(strict.map((a) => a.status).sort()).toEqual([201, 422, 422]);
    expect(await valuesOf(offerId)).toHaveLength(2);
  });

  it('an upload retried with the same Idempotency-Key answers the original and stores once; the bulk rate-limit class applies', async () => {
    const offerId = await freshOffer();
    const body = { items: textKeys('IDEM', 3) };
    const headers = { 'idempotency-key': 'upload-1' };
    const first = await supplier.api.post(`/offers/${offerId}/inventory`, body, { headers });
    const retry = await supplier.api.post(`/offers/${offerId}/inventory`, body, { headers });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(BULK_LIMIT));
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await valuesOf(offerId)).toHaveLength(3);
    expect((await stockOf(offerId)).available).toBe(3);
  });

  it('uploads to a declared offer are 409 stock_mode_mismatch', async () => {
    const product = await svc.newProduct();
    const declared = await createDeclared(supplier.api, product.id, 'http://127.0.0.1:9', { price: eur(100) });
    const res = await supplier.api.post(`/offers/${declared.id}/inventory`, { items: [{ kind: 'text', value: 'x' }] });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('stock_mode_mismatch');
    expect(await valuesOf(declared.id)).toEqual([]);
  });
});
