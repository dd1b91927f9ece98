import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadInventory } from '../../src/commands/inventory.js';
import {
  dropValues,
  openValues,
  openValueSet,
  replaceValueSets,
  storedValueIds,
  storeValueSet,
} from '../../src/commands/inventory-values.js';
import { inventoryStream } from '../../src/commands/streams.js';
import { derivedFamily, derivedIds, newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { storedValues } from '../support/values.js';
import { freshUploadedOffer, type Supplier, textKeys } from './fixtures.js';

/**
 * An upload's values are kept as one sealed set, found again from any of its item ids;
 * values kept one row per item (a supplier's declared deliveries, uploads stored before
 * sets) are read and removed alike.
 */
describe('inventory values kept as sets', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const freshOffer = () => freshUploadedOffer(svc, supplier);
  const text = (itemId: string, value: string) => ({ itemId, kind: 'text' as const, content: value });

  it('ids of one operation share their family, and no other operation has it', () => {
    const base = newId();
    const ids = derivedIds(base);
    expect(new Set([0, 1, 999, 32 ** 4 - 1].map((n) => derivedFamily(ids(n))))).toEqual(
      new Set([derivedFamily(ids(0))]),
    );
    expect(derivedFamily(derivedIds(newId())(0))).not.toBe(derivedFamily(ids(0)));
    expect(derivedFamily(ids(7))).toHaveLength(22);
  });

  it('two removals from one set at once: both values are gone, the others still open', async () => {
    const ids = derivedIds(newId());
    const values = Array.from({ length: 6 }, (_, n) => text(ids(n), `SET-${n}`));
    await storeValueSet(svc.services.commands, 'offer-a', 0, values, new Date());
    await Promise.all([dropValues(svc.services.commands, [ids(1)]), dropValues(svc.services.commands, [ids(4)])]);
    const all = values.map((v) => v.itemId);
    expect(await storedValueIds(svc.services, all)).toEqual([ids(0), ids(2), ids(3), ids(5)]);
    const opened = await openValues(svc.services, all);
    expect(all.map((id) => opened.get(id)?.bytes.toString())).toEqual([
      'SET-0',
      undefined,
      'SET-2',
      'SET-3',
      undefined,
      'SET-5',
    ]);
    // the last values of a set take its row with them
    await dropValues(svc.services.commands, all);
    expect(
      await svc.services.db
        .selectFrom('inventory_value_sets')
        .select('part')
        .where('family', '=', derivedFamily(ids(0)))
        .execute(),
    ).toEqual([]);
  });

  it("an import's sets stored in one write keep each value's fingerprint and replace an earlier run's parts", async () => {
    const ids = derivedIds(newId());
    const family = derivedFamily(ids(0));
    const deps = svc.services.commands;
    // an earlier run of the same import stored three parts, and a set of the format before
    // fingerprints were kept in it opens without one
    await storeValueSet(deps, 'offer-i', 2, [text(ids(4), 'OLD-4')], new Date());
    expect(await openValueSet(deps, family, 2)).toEqual([
      { itemId: ids(4), value: { kind: 'text', bytes: Buffer.from('OLD-4') } },
    ]);
    const sets = [0, 1].map((part) =>
      [0, 1].map((n) => ({ ...text(ids(part * 2 + n), `NEW-${part * 2 + n}`), fingerprint: `fp-${part * 2 + n}` })),
    );
    await replaceValueSets(deps, 'offer-i', sets, new Date());
    expect(await openValueSet(deps, family, 1)).toEqual([
      { itemId: ids(2), value: { kind: 'text', bytes: Buffer.from('NEW-2'), fingerprint: 'fp-2' } },
      { itemId: ids(3), value: { kind: 'text', bytes: Buffer.from('NEW-3'), fingerprint: 'fp-3' } },
    ]);
    expect(
      await svc.services.db
        .selectFrom('inventory_value_sets')
        .select(['part', 'offer_id', 'item_ids'])
        .where('family', '=', family)
        .orderBy('part')
        .execute(),
    ).toEqual([
      { part: 0, offer_id: 'offer-i', item_ids: [ids(0), ids(1)] },
      { part: 1, offer_id: 'offer-i', item_ids: [ids(2), ids(3)] },
    ]);
    // a value dropped from a set keeps the others' fingerprints
    await dropValues(deps, [ids(0)]);
    expect(await openValueSet(deps, family, 0)).toEqual([
      { itemId: ids(1), value: { kind: 'text', bytes: Buffer.from('NEW-1'), fingerprint: 'fp-1' } },
    ]);
  });

  it('values kept one row per item are opened and removed like those in sets', async () => {
    const box = svc.services.secretBox;
    const single = [newId(), newId()];
    await svc.services.db
      .insertInto('inventory_values')
      .values([
        { item_id: single[0]!, offer_id: 'offer-b', kind: 'text', sealed: box.seal('ROW-0'), created_at: new Date() },
        {
          item_id: single[1]!,
          offer_id: 'offer-b',
          kind: 'declared',
          sealed: box.seal('{"kind":"text","value":"ROW-1"}'),
          created_at: new Date(),
        },
      ])
      .execute();
    const opened = await openValues(svc.services, single);
    expect(single.map((id) => [opened.get(id)!.kind, opened.get(id)!.bytes.toString()])).toEqual([
      ['text', 'ROW-0'],
      ['declared', '{"kind":"text","value":"ROW-1"}'],
    ]);
    await dropValues(svc.services.commands, [single[0]!]);
    expect(await storedValueIds(svc.services, single)).toEqual([single[1]]);
  });

  it('an upload resumed after a crash meets the values its first run kept one row per item (before sets): they are replaced by one set', async () => {
    const offerId = await freshOffer();
    const operation = { id: newId(), resumed: true };
    const ids = derivedIds(operation.id);
    const box = svc.services.secretBox;
    // the first run stored its values, one row each, and died before recording the upload
    await svc.services.db
      .insertInto('inventory_values')
      .values(
        [0, 1, 2].map((n) => ({
          item_id: ids(n),
          offer_id: offerId,
          kind: 'text',
          sealed: box.seal(`OLD-${n}`),
          created_at: new Date(),
        })),
      )
      .execute();
    const run = () =>
      uploadInventory(svc.services.commands, supplier.id, offerId, 'strict', textKeys('OLD', 3), {}, operation);
    const result = await run();
    expect(result.itemIds).toEqual([0, 1, 2].map(ids));
    expect(
      (await svc.services.commands.store.readStream(inventoryStream(offerId))).filter(
        (e) => e.type === 'InventoryUploaded',
      ),
    ).toHaveLength(1);
    expect(
      await svc.services.db.selectFrom('inventory_values').select('item_id').where('offer_id', '=', offerId).execute(),
    ).toEqual([]);
    expect((await storedValues(svc.services, offerId)).map((v) => [v.item_id, v.bytes.toString()])).toEqual(
      [0, 1, 2].map((n) => [ids(n), `OLD-${n}`]),
    );
    // run again, as a second retry would: the recorded upload is the answer, nothing is stored twice
    expect(await run()).toEqual(result);
    expect(await storedValues(svc.services, offerId)).toHaveLength(3);
  });
});
