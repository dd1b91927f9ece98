import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { createUploaded, streamEvents, type Supplier, upload } from './fixtures.js';

const FORMAT = {
  pattern: '[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}',
  min_length: 14,
  max_length: 14,
  description: '3 groups of 4 capital letters or digits, joined by dashes',
};

/** A file as a spreadsheet saves it: a BOM, a header, quotes, CRLF, blank lines, spaces, a second column. */
const MESSY = [
  '\uFEFFkey,note',
  '"HLX1-AAAA-0001",first',
  '  HLX1-AAAA-0002  ,',
  '',
  'HLX1-AAAA-0003',
  'HLX1-AAAA-0001',
  'x'.repeat(1100),
  'hlx1-aaaa-0004',
  '   ',
  'HLX1-AAAA-0005',
  'HLX1-AAAA-0009',
].join('\r\n');

describe('Importing a file of keys', () => {
  let svc: TestService;
  let supplier: Supplier;
  let offerId: string;
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier();
    const product = await svc.newProduct({ key_format: FORMAT });
    offerId = (await createUploaded(supplier.api, product.id)).id;
    await upload(supplier.api, offerId, [{ kind: 'text', value: 'HLX1-AAAA-0009' }]);
  });
  afterAll(() => svc.stop());

  const expectedRefusals = [
    { line: 1, reason: 'looks_like_header', words: 'looks like a header', shown: '•••' },
    { line: 4, reason: 'empty', words: 'empty', shown: '' },
    { line: 6, reason: 'duplicate_in_file', words: 'duplicate in the file', shown: 'H••••••••••001' },
    { line: 7, reason: 'too_long', words: 'too long (more than 1,024 characters)', shown: 'xx••••••••••xxxx' },
    {
      line: 8,
      reason: 'format_mismatch',
      words: "does not match the product's key format: 3 groups of 4 capital letters or digits, joined by dashes",
      shown: 'h••••••••••004',
    },
    { line: 9, reason: 'empty', words: 'empty', shown: '' },
    { line: 11, reason: 'already_in_stock', words: 'already in stock', shown: 'H••••••••••009' },
  ];

  it('previews a messy file: how many keys it adds and every line it does not, with its reason; nothing stored', async () => {
    const before = (await streamEvents(svc, `inventory-${offerId}`)).length;
    const res = await supplier.api.post(`/offers/${offerId}/inventory/imports/preview`, {
      file_name: 'keys.csv',
      content: MESSY,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ file_name: 'keys.csv', lines: 11, keys: 4, refused: expectedRefusals });
    expect((await streamEvents(svc, `inventory-${offerId}`)).length).toBe(before);
  });

  it('stores it as a job: 202, then the keys added once, its progress and refused lines readable, values exact', async () => {
    const receiver = await startReceiver();
    const hook = await supplier.api.post('/webhooks', { url: receiver.url, events: ['inventory.import_completed'] });
    expect(hook.status).toBe(201);
    const res = await supplier.api.post(`/offers/${offerId}/inventory/imports`, {
      file_name: 'keys.csv',
      content: MESSY,
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/api/v1/offers/${offerId}/inventory/imports/${res.body.id}`);
    expect(res.body).toMatchObject({ status: 'running', keys: 4, done: 0, lines: 11, refused: 7 });
    await svc.drain();
    const job = await supplier.api.get(`/offers/${offerId}/inventory/imports/${res.body.id}`);
    expect(job.body).toEqual({
      id: res.body.id,
      offer_id: offerId,
      status: 'completed',
      file_name: 'keys.csv',
      batch_id: res.body.batch_id,
      lines: 11,
      keys: 4,
      done: 4,
      added: 4,
      refused: 7,
      seconds_left: null,
      started_at: expect.any(String),
      completed_at: expect.any(String),
    });
    const items = (await supplier.api.get(`/offers/${offerId}/inventory?batch_id=${res.body.batch_id}`)).body.data;
    expect(items.map((i: any) => i.masked_value)).toEqual([
      'H••••••••••001',
      'H••••••••••002',
      'H••••••••••003',
      'H••••••••••005',
    ]);
    const values = [];
    for (const item of items)
      values.push((await supplier.api.post(`/offers/${offerId}/inventory/${item.id}/reveal`)).body.value);
    expect(values).toEqual(['HLX1-AAAA-0001', 'HLX1-AAAA-0002', 'HLX1-AAAA-0003', 'HLX1-AAAA-0005']);
    const csv = await supplier.api.get(`/offers/${offerId}/inventory/imports/${res.body.id}`, {
      headers: { accept: 'text/csv' },
    });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')).toEqual([
      'line,reason,shown',
      ...expectedRefusals.map((r) => `${r.line},${r.words.includes(',') ? `"${r.words}"` : r.words},${r.shown}`),
      '',
    ]);
    // the endpoint that asked for it is told, once
    const told = receiver.received.filter((r) => r.body.type === 'inventory.import_completed');
    expect(told.map((r) => r.body.data)).toEqual([
      {
        import_id: res.body.id,
        offer_id: offerId,
        batch_id: res.body.batch_id,
        added: 4,
        refused: 7,
        completed_at: expect.any(String),
      },
    ]);
    const fired = await supplier.api.post(`/webhooks/${hook.body.id}/test`, { event: 'inventory.import_completed' });
    expect(fired.status).toBe(200);
    await receiver.close();
    // the same file again: every key is in stock now
    const again = await supplier.api.post(`/offers/${offerId}/inventory/imports/preview`, { content: MESSY });
    expect(again.body.keys).toBe(0);
  });

  it('refuses what it cannot take: no content, another supplier, a declared offer', async () => {
    const empty = await supplier.api.post(`/offers/${offerId}/inventory/imports`, { content: '' });
    expect([empty.status, empty.body.code]).toEqual([422, 'validation_failed']);
    const other = await svc.newSupplier('Other');
    const foreign = await other.api.post(`/offers/${offerId}/inventory/imports`, { content: 'A' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    const nul = await supplier.api.post(`/offers/${offerId}/inventory/imports`, { content: 'A\u0000B' });
    expect(nul.status).toBe(422);
    const missing = await supplier.api.get(`/offers/${offerId}/inventory/imports/NOSUCHIMPORT`);
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });
});
