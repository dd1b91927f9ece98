import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openValues } from '../../src/commands/inventory-values.js';
import { startTestService, type TestService } from '../support/harness.js';
import { createUploaded, sell, type Supplier } from './fixtures.js';

const png = (marker: string) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(marker)]);
const pdf = (marker: string) => Buffer.from(`%PDF-1.7 ${marker}`);

/**
 * Key values and files are sealed at rest (AES-256-GCM, table inventory_value_sets) and appear
 * in no log, no error, no event (data or metadata), no read model and no list answer.
 * Every value here carries a marker that would be found anywhere it leaked to.
 */
describe('key values are encrypted at rest and never shown', () => {
  let svc: TestService;
  let supplier: Supplier;
  const answers: string[] = [];
  const record = <T extends { text: string }>(answer: T) => {
    answers.push(answer.text);
    return answer;
  };
  const clear: string[] = [];
  const files: Buffer[] = [];

  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier();
    const product = await svc.newProduct();
    const offerId = (await createUploaded(supplier.api, product.id, { low_stock_threshold: 5 })).id;
    const stored = ['CLEAR-KEY-A1B2C3', 'CLEAR-KEY-D4E5F6', 'CLEAR-KEY-G7H8I9', 'CLEAR-KEY-LONG-'.padEnd(1024, 'Z')];
    const storedFiles = [png('CLEAR-FILE-PNG-77'), pdf('CLEAR-FILE-PDF-88')];
    const refused = [
      'CLEAR-REFUSED-STRICT-1',
      'CLEAR-REFUSED-JSON-2',
      'CLEAR-REFUSED-MODE-3',
      'CLEAR-REFUSED-EXTRA-4',
      'CLEAR-REFUSED-TOO-MANY-5',
    ];
    clear.push(...stored, ...refused);
    files.push(...storedFiles);

    // stored: text and files, one request strict, one partial with refusals, one replayed
    record(
      await supplier.api.post(
        `/offers/${offerId}/inventory`,
        { items: stored.slice(0, 2).map((value) => ({ kind: 'text', value })) },
        { headers: { 'idempotency-key': 'sec-1' } },
      ),
    );
    record(
      await supplier.api.post(
        `/offers/${offerId}/inventory`,
        { items: stored.slice(0, 2).map((value) => ({ kind: 'text', value })) },
        { headers: { 'idempotency-key': 'sec-1' } },
      ),
    );
    record(
      await supplier.api.post(`/offers/${offerId}/inventory`, {
        mode: 'partial',
        items: [
          { kind: 'text', value: stored[2] },
          { kind: 'text', value: stored[3] },
          { kind: 'text', value: stored[0] }, // duplicate of a stored key
          {
            kind: 'file',
            file_name: 'key.png',
            content_type: 'image/png',
            content_base64: storedFiles[0]!.toString('base64'),
          },
          {
            kind: 'file',
            file_name: 'key.pdf',
            content_type: 'application/pdf',
            content_base64: storedFiles[1]!.toString('base64'),
          },
          {
            kind: 'file',
            file_name: 'wrong.png',
            content_type: 'image/png',
            content_base64: pdf('CLEAR-FILE-MISMATCH-99').toString('base64'),
          },
          { kind: 'text', value: 'x'.repeat(1025) },
        ],
      }),
    );
    files.push(pdf('CLEAR-FILE-MISMATCH-99'));
    // refused: a strict batch, malformed JSON, a bad mode, an item with a field of its own, too many items
    record(
      await supplier.api.post(`/offers/${offerId}/inventory`, {
        items: [
          { kind: 'text', value: refused[0] },
          { kind: 'text', value: '' },
        ],
      }),
    );
    const raw = await fetch(`${svc.baseUrl}/offers/${offerId}/inventory`, {
      method: 'POST',
      headers: { authorization: `Bearer ${supplier.token}`, 'content-type': 'application/json' },
      body: `{"items":[{"kind":"text","value":"${refused[1]}"}`,
    });
    answers.push(await raw.text());
    record(
      await supplier.api.post(`/offers/${offerId}/inventory`, {
        mode: 'everything',
        items: [{ kind: 'text', value: refused[2] }],
      }),
    );
    record(
      await supplier.api.post(`/offers/${offerId}/inventory`, {
        items: [{ kind: 'text', value: refused[3], note: refused[3] }],
      }),
    );
    record(
      await supplier.api.post(`/offers/${offerId}/inventory`, {
        items: Array.from({ length: 1001 }, (_, i) => ({ kind: 'text', value: `${refused[4]}-${i}` })),
      }),
    );

    // sold, listed, read, deleted
    await supplier.api.post(`/offers/${offerId}/activate`);
    await sell(svc, product.id, 2);
    record(await supplier.api.get(`/offers/${offerId}/inventory`));
    record(await supplier.api.get(`/offers/${offerId}`));
    record(await supplier.api.get('/offers'));
    const available = (await supplier.api.get(`/offers/${offerId}/inventory?status=available`)).body.data;
    record(await supplier.api.delete(`/offers/${offerId}/inventory/${available[0].id}`));
    record(await supplier.api.delete(`/offers/${offerId}/inventory/${available[0].id}`));
    await svc.drain();
  });
  afterAll(() => svc.stop());

  /** Every row of every table the service has, as text. */
  const wholeDatabase = async () => {
    const tables = await sql<{ schema: string; name: string }>`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(
      svc.services.db,
    );
    const dump: Record<string, string> = {};
    for (const t of tables.rows) {
      const rows = await sql<{
        row: string;
      }>`select row_to_json(t)::text as row from ${sql.table(`${t.schema}.${t.name}`)} t`.execute(svc.services.db);
      dump[`${t.schema}.${t.name}`] = rows.rows.map((r) => r.row).join('\n');
    }
    return dump;
  };

  const leaks = (haystack: string) => [
    ...clear.filter((value) => haystack.includes(value.slice(0, 40))),
    ...files.flatMap((bytes) =>
      [bytes.toString('latin1').slice(9), bytes.toString('base64')].filter((form) => haystack.includes(form)),
    ),
  ];

  it('no clear value in any table, in es_events (data or metadata), or in the logs', async () => {
    const dump = await wholeDatabase();
    expect(Object.keys(dump)).toEqual(
      expect.arrayContaining(['public.es_events', 'public.inventory_values', 'public.inventory_value_sets']),
    );
    for (const [table, text] of Object.entries(dump)) expect([table, leaks(text)]).toEqual([table, []]);
    const events = await sql<{ data: unknown; metadata: unknown }>`select data, metadata from es_events`.execute(
      svc.services.db,
    );
    expect(leaks(JSON.stringify(events.rows))).toEqual([]);
    expect(svc.logs.length).toBeGreaterThan(10);
    expect(leaks(JSON.stringify(svc.logs))).toEqual([]);
  });

  it('no clear value in any answer: upload results, problems, lists, reads', () => {
    expect(answers.length).toBe(13);
    expect(leaks(answers.join('\n'))).toEqual([]);
  });

  it('inventory_value_sets holds exactly the stored values, each upload AES-GCM sealed under the service key with its own IV', async () => {
    const sets = await svc.services.db
      .selectFrom('inventory_value_sets')
      .selectAll()
      .orderBy('created_at')
      .orderBy('family')
      .execute();
    // two uploads stored four text keys and two files; the partial one's duplicate, stored
    // before the decision refused it, was dropped again; one key was then deleted by its supplier
    expect(sets).toHaveLength(2);
    const ids = sets.flatMap((r) => r.item_ids);
    expect(ids).toHaveLength(5);
    const values = await openValues(svc.services, ids);
    const opened = ids.map((id) => values.get(id)!.bytes.toString(values.get(id)!.kind === 'text' ? 'utf8' : 'latin1'));
    const expected = [...clear.slice(0, 4), files[0]!.toString('latin1'), files[1]!.toString('latin1')];
    expect(expected.filter((v) => !opened.includes(v))).toHaveLength(1);
    expect(opened.filter((v) => !expected.includes(v))).toEqual([]);
    for (const r of sets) expect(r.sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(new Set(sets.map((r) => r.sealed.split('.')[1])).size).toBe(2);
    // no value kept anywhere else
    expect(await svc.services.db.selectFrom('inventory_values').selectAll().execute()).toEqual([]);
    // tampering is detected: GCM authenticates the ciphertext
    const [version, iv, tag, body] = sets[0]!.sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => svc.services.secretBox.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });

  it("the buyer gets the clear value through the operator's deliverables, the only place it is handed over", async () => {
    const orders = await svc.services.db.selectFrom('orders').select('id').execute();
    const deliverables = await svc.operator.get(`/orders/${orders[0]!.id}/deliverables`);
    expect(deliverables.status).toBe(200);
    const values = deliverables.body.items.flatMap((i: any) => i.keys.map((k: any) => k.value));
    expect(values).toHaveLength(2);
    for (const v of values) expect(clear).toContain(v);
    // and the scan above does find a value where one is
    expect(leaks(deliverables.text)).toHaveLength(2);
  });
});
