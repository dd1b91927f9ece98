import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandDeps } from '../../src/commands/context.js';
import { uploadInventory } from '../../src/commands/inventory.js';
import { storedValueIds } from '../../src/commands/inventory-values.js';
import { inventoryStream } from '../../src/commands/streams.js';
import type { InventoryUploadedData } from '../../src/domain/inventory.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { derivedFamily, derivedIds, newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { storedValues } from '../support/values.js';
import { freshUploadedOffer, type Supplier, textKeys } from './fixtures.js';

/**
 * The order an upload writes in: every value is stored before the event that names its item
 * is appended (a crash between the two leaves values without an event, which a resumed run
 * deletes, never an event without its values). The fingerprints are taken while the values'
 * INSERT runs, and a file batch above 12 MB is stored in several statements; neither may
 * change that order.
 */
describe('an upload stores its values before it records them', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const freshOffer = () => freshUploadedOffer(svc, supplier);
  const valueIds = async (offerId: string) => (await storedValues(svc.services, offerId)).map((v) => v.item_id).sort();
  const uploadEvents = async (offerId: string) =>
    (await svc.services.commands.store.readStream(inventoryStream(offerId))).filter(
      (e) => e.type === 'InventoryUploaded',
    );

  /** The service's command deps, with a store that looks at the stored values at each append. */
  const watching = () => {
    const seen: { named: number; stored: number }[] = [];
    const { store } = svc.services.commands;
    const watched = new Proxy(store, {
      get: (target, prop) => {
        if (prop !== 'append') return Reflect.get(target, prop) as unknown;
        const append: EventStore['append'] = async (streamId, events, expected, at) => {
          for (const e of events)
            if (e.type === 'InventoryUploaded') {
              const { itemIds } = e.data as InventoryUploadedData;
              const stored = await storedValueIds(svc.services, itemIds);
              seen.push({ named: itemIds.length, stored: stored.length });
            }
          return target.append(streamId, events, expected, at);
        };
        return append;
      },
    });
    const deps: CommandDeps = { ...svc.services.commands, store: watched };
    return { deps, seen };
  };

  const pngOf = (n: number, size: number) => {
    const bytes = Buffer.alloc(size, n % 251);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    bytes.writeUInt32BE(n, 8); // every file its own bytes: none is a duplicate
    return {
      kind: 'file',
      file_name: `k${n}.png`,
      content_type: 'image/png',
      content_base64: bytes.toString('base64'),
    };
  };

  it('1,000 keys: every item the event names has its sealed value when the event is appended', async () => {
    const offerId = await freshOffer();
    const { deps, seen } = watching();
    const result = await uploadInventory(deps, supplier.id, offerId, 'strict', textKeys('ORDER', 1000), {});
    expect(result.accepted).toBe(1000);
    expect(seen).toEqual([{ named: 1000, stored: 1000 }]);
    expect(await valueIds(offerId)).toEqual([...result.itemIds].sort());
  });

  it('files above 12 MB (two statements): all of them stored before the append, each opens to its bytes', async () => {
    const offerId = await freshOffer();
    const { deps, seen } = watching();
    // 64 files of 200 KB: 12.8 MB of content
    const files = Array.from({ length: 64 }, (_, n) => pngOf(n, 200 * 1024));
    const result = await uploadInventory(deps, supplier.id, offerId, 'strict', files, {});
    expect(result.accepted).toBe(64);
    expect(seen).toEqual([{ named: 64, stored: 64 }]);
    const bytes = new Map(
      (await storedValues(svc.services, offerId)).map((v) => [v.item_id, v.bytes.toString('base64')]),
    );
    expect(result.itemIds.map((id) => bytes.get(id))).toEqual(files.map((f) => f.content_base64));
    const sets = await svc.services.db
      .selectFrom('inventory_value_sets')
      .select(['part', 'item_ids'])
      .where('offer_id', '=', offerId)
      .orderBy('part')
      .execute();
    expect(sets.map((s) => [s.part, s.item_ids.length])).toEqual([
      [0, 61],
      [1, 3],
    ]);
  });

  it('a later statement of a file batch that fails: the values stored before it are deleted, nothing is recorded', async () => {
    const offerId = await freshOffer();
    const { deps, seen } = watching();
    const operation = { id: newId(), resumed: false };
    // a row already holding the second part of the upload's set (its name follows from the
    // operation): the first statement stores files 0 to 60 (12 MB at most), the second fails on it
    const family = derivedFamily(derivedIds(operation.id)(0));
    await svc.services.db
      .insertInto('inventory_value_sets')
      .values({ family, part: 1, offer_id: 'elsewhere', item_ids: [], sealed: 'x', created_at: new Date() })
      .execute();
    const files = Array.from({ length: 64 }, (_, n) => pngOf(n, 200 * 1024));
    await expect(uploadInventory(deps, supplier.id, offerId, 'strict', files, {}, operation)).rejects.toThrow(
      /duplicate key/,
    );
    expect(seen).toEqual([]);
    expect(await uploadEvents(offerId)).toEqual([]);
    expect(await valueIds(offerId)).toEqual([]);
    // the row that was there before is not the upload's to delete
    expect(
      await svc.services.db
        .selectFrom('inventory_value_sets')
        .select(['part', 'offer_id'])
        .where('family', '=', family)
        .execute(),
    ).toEqual([{ part: 1, offer_id: 'elsewhere' }]);
  });
});
