import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openValues, storedValueIds } from '../../src/commands/inventory-values.js';
import { startTestService, type TestService } from '../support/harness.js';
import { createUploaded, sell, streamEvents, type Supplier, textKeys, upload } from './fixtures.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);

describe('Withdrawing, revealing and key formats', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const list = async (offerId: string, query = '') =>
    (await supplier.api.get(`/offers/${offerId}/inventory${query}`)).body.data as any[];

  it('withdraws a selection and a whole batch; sold keys stay sold, the stock follows, the values are gone', async () => {
    const productId = (await svc.newProduct()).id;
    const offerId = (await createUploaded(supplier.api, productId)).id;
    const first = (await upload(supplier.api, offerId, textKeys('FIRST-BATCH-KEY', 4))).item_ids as string[];
    const second = (await upload(supplier.api, offerId, textKeys('SECOND-BATCH-KEY', 3))).item_ids as string[];
    await supplier.api.post(`/offers/${offerId}/activate`);
    await sell(svc, productId, 1); // first[0] sold

    const selection = await supplier.api.post(`/offers/${offerId}/inventory/withdrawals`, {
      item_ids: [first[0], first[1], first[2], 'NOSUCHITEM'],
    });
    expect(selection.status).toBe(200);
    expect(selection.body).toEqual({
      withdrawn: 2,
      item_ids: [first[1], first[2]],
      skipped: [
        { item_id: first[0], status: 'sold' },
        { item_id: 'NOSUCHITEM', status: 'unknown' },
      ],
      stock_available: 4,
    });
    const batchId = (await list(offerId)).find((i) => i.id === second[0]).batch_id;
    const batch = await supplier.api.post(`/offers/${offerId}/inventory/withdrawals`, { batch_id: batchId });
    expect(batch.body).toEqual({ withdrawn: 3, item_ids: second, skipped: [], stock_available: 1 });
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock).toMatchObject({ available: 1, delivered: 1 });
    expect((await list(offerId, '?status=withdrawn')).map((i) => i.id)).toEqual([first[1], first[2], ...second]);
    expect(await storedValueIds(svc.services, [...first, ...second])).toEqual([first[0], first[3]]);

    // nothing left to take back: refused, and nothing recorded
    const again = await supplier.api.post(`/offers/${offerId}/inventory/withdrawals`, { batch_id: batchId });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
    const unknown = await supplier.api.post(`/offers/${offerId}/inventory/withdrawals`, { batch_id: 'NOSUCHBATCH' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    for (const body of [{}, { item_ids: [] }, { item_ids: ['a'], batch_id: 'b' }, { batch_id: '' }]) {
      const res = await supplier.api.post(`/offers/${offerId}/inventory/withdrawals`, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([
        JSON.stringify(body),
        422,
        'validation_failed',
      ]);
    }
    const withdrawals = (await streamEvents(svc, `inventory-${offerId}`)).filter(
      (e) => e.type === 'InventoryItemsWithdrawn',
    );
    expect(withdrawals.map((e) => e.data.itemIds)).toEqual([[first[1], first[2]], second]);
    // a withdrawn key may come back
    expect((await upload(supplier.api, offerId, [{ kind: 'text', value: 'SECOND-BATCH-KEY-0' }])).accepted).toBe(1);
  });

  it("reveals a value only on request, recorded in the offer's history with the token and time", async () => {
    const offerId = (await createUploaded(supplier.api, (await svc.newProduct()).id)).id;
    const [key, file] = (
      await upload(supplier.api, offerId, [
        { kind: 'text', value: 'ABCDE-FGHIJ-KLMNO-PQRST-12345' },
        { kind: 'file', file_name: 'card.png', content_type: 'image/png', content_base64: PNG.toString('base64') },
      ])
    ).item_ids as string[];
    const items = await list(offerId);
    expect(items.map((i) => [i.kind, i.masked_value, i.file_name, i.size])).toEqual([
      ['text', 'AB••••••••••2345', null, null],
      ['file', null, 'card.png', PNG.length],
    ]);
    expect((await list(offerId, '?last4=2345')).map((i) => i.id)).toEqual([key]);
    expect((await list(offerId, '?last4=345')).map((i) => i.id)).toEqual([key]);
    expect(await list(offerId, '?last4=1234')).toEqual([]);

    const shown = await supplier.api.post(`/offers/${offerId}/inventory/${key}/reveal`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.body).toEqual({
      item_id: key,
      kind: 'text',
      value: 'ABCDE-FGHIJ-KLMNO-PQRST-12345',
      content_base64: null,
    });
    const picture = await supplier.api.post(`/offers/${offerId}/inventory/${file}/reveal`);
    expect(picture.body).toEqual({ item_id: file, kind: 'file', value: null, content_base64: PNG.toString('base64') });
    const whoami = await supplier.api.get('/whoami');
    const history = (await streamEvents(svc, `offer-${offerId}`)).filter((e) => e.type === 'InventoryItemRevealed');
    expect(history.map((e) => [e.data.itemId, e.data.tokenId, typeof e.data.at])).toEqual([
      [key, whoami.body.token_id, 'string'],
      [file, whoami.body.token_id, 'string'],
    ]);
    expect(JSON.stringify(history)).not.toContain('PQRST');

    await supplier.api.delete(`/offers/${offerId}/inventory/${key}`);
    const gone = await supplier.api.post(`/offers/${offerId}/inventory/${key}/reveal`);
    expect([gone.status, gone.body.code]).toEqual([409, 'invalid_state']);
    const other = await svc.newSupplier('Other Keys');
    const foreign = await other.api.post(`/offers/${offerId}/inventory/${file}/reveal`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    const none = await supplier.api.post(`/offers/${offerId}/inventory/NOSUCHITEM/reveal`);
    expect([none.status, none.body.code]).toEqual([404, 'not_found']);
    expect(
      (await streamEvents(svc, `offer-${offerId}`)).filter((e) => e.type === 'InventoryItemRevealed'),
    ).toHaveLength(2);
    expect((await openValues(svc.services, [String(file)])).size).toBe(1);
  });

  it('refuses, line by line, keys that do not fit the product key format the operator set, naming it in words', async () => {
    const format = {
      pattern: '[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
      min_length: 17,
      max_length: 17,
      description: '3 groups of 5 capital letters or digits, joined by dashes',
    };
    const product = await svc.newProduct({ key_format: format });
    expect(product.key_format).toEqual(format);
    expect((await supplier.api.get(`/products/${product.id}`)).body.key_format).toEqual(format);
    const offerId = (await createUploaded(supplier.api, product.id)).id;
    const res = await supplier.api.post(`/offers/${offerId}/inventory`, {
      mode: 'partial',
      items: [
        { kind: 'text', value: 'AAAAA-BBBBB-12345' },
        { kind: 'text', value: 'key' },
        { kind: 'text', value: 'aaaaa-bbbbb-12345' },
        {
          kind: 'file',
          file_name: 'card.png',
          content_type: 'image/png',
          content_base64: Buffer.concat([PNG, Buffer.from('card 2')]).toString('base64'),
        },
      ],
    });
    const words = "does not match the product's key format: 3 groups of 5 capital letters or digits, joined by dashes";
    expect(res.body).toMatchObject({
      accepted: 2,
      rejected: [
        { index: 1, code: 'format_mismatch', message: words },
        { index: 2, code: 'format_mismatch', message: words },
      ],
    });

    // the operator changes the format, or takes it away
    const changed = await svc.operator.patch(`/products/${product.id}`, { key_format: null });
    expect([changed.status, changed.body.key_format]).toEqual([200, null]);
    expect((await upload(supplier.api, offerId, [{ kind: 'text', value: 'key' }])).accepted).toBe(1);
    for (const bad of [
      { ...format, pattern: '([A-Z]+)+' },
      { ...format, pattern: '[' },
      { ...format, min_length: 20 },
      { ...format, description: '' },
      { ...format, extra: 1 },
    ]) {
      const refused = await svc.operator.patch(`/products/${product.id}`, { key_format: bad });
      expect([JSON.stringify(bad), refused.status, refused.body.code]).toEqual([
        JSON.stringify(bad),
        422,
        'validation_failed',
      ]);
    }
  });
});
